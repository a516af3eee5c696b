// Approving a website draft rewrites the knowledge base on the server while the owner may have
// unsaved edits in its text area. The edits are never thrown away: the server's change (the
// lines it added or replaced) is carried into them instead, and when that cannot be done safely
// the edits are kept as they are and the caller is told.

export interface ApprovedMerge {
  /** What the text area should now show. */
  text: string;
  /** 'clean': no unsaved edits, the server's text; 'merged': the edits with the server's change in them; 'kept': the edits alone (the changed lines were edited too). */
  outcome: 'clean' | 'merged' | 'kept';
}

/** The lines `before` and `after` differ in: whole lines, so "£85" → "£95" names its entry's line, not a digit. */
function changedLines(before: string, after: string): { removed: string; added: string } {
  let p = 0;
  const most = Math.min(before.length, after.length);
  while (p < most && before[p] === after[p]) p++;
  // Back to the start of the line the first difference is on.
  while (p > 0 && before[p - 1] !== '\n') p--;
  let s = 0;
  while (s < most - p && before[before.length - 1 - s] === after[after.length - 1 - s]) s++;
  // The common tail starts at a line break (or is empty), so the changed part ends at a line's end.
  while (s > 0 && before[before.length - s] !== '\n') s--;
  return { removed: before.slice(p, before.length - s), added: after.slice(p, after.length - s) };
}

/** `saved` is what the text area last loaded or saved, `editing` what it shows, `after` the server's text after approving. */
export function mergeApproved(saved: string, editing: string, after: string): ApprovedMerge {
  if (editing === saved) return { text: after, outcome: 'clean' };
  const { removed, added } = changedLines(saved, after);
  // Entries only added (the lines before them kept whole): they go at the end of the edits, an entry apart (SPEC: blank lines between entries).
  if (added.startsWith(removed)) {
    const entry = added.slice(removed.length).trim();
    if (!entry) return { text: editing, outcome: 'merged' };
    const head = editing.trimEnd();
    return { text: head ? `${head}\n\n${entry}` : entry, outcome: 'merged' };
  }
  const at = editing.indexOf(removed);
  // Only when the replaced lines are still there once, untouched by the owner.
  if (at >= 0 && editing.indexOf(removed, at + 1) < 0) {
    return { text: editing.slice(0, at) + added + editing.slice(at + removed.length), outcome: 'merged' };
  }
  return { text: editing, outcome: 'kept' };
}
