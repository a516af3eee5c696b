/** Cuts at the last sentence end or space before `max`, adding an ellipsis when cut. */
export function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const sentence = head.search(/[.!?][^.!?]*$/);
  if (sentence >= max * 0.6) return head.slice(0, sentence + 1);
  const space = head.lastIndexOf(' ');
  return `${trimEndOf(space > max * 0.6 ? head.slice(0, space) : head, /[\s,;:.-]/)}…`;
}

/** Drops trailing characters of a class, one at a time (a `[…]+$` regex rescans from every run start). */
function trimEndOf(text: string, cls: RegExp): string {
  let end = text.length;
  while (end > 0 && cls.test(text[end - 1]!)) end--;
  return text.slice(0, end);
}
