// A small reader for Asterisk's configuration format (the subset our files use):
// [section], [section](!) templates, [section](tpl1,tpl2) inheritance, key=value and
// key => value lines, ";" comments with "\;" escapes, ";-- block --;" comments, and the
// #include / #tryinclude / #exec directives. Same-named sections stay separate
// (pjsip.conf has [twilio] as endpoint, aor and identify).

interface ConfEntry {
  key: string;
  value: string;
  /** "=>" is Asterisk's object syntax (exten =>, load =>); same meaning for our checks. */
  arrow: boolean;
  line: number;
}

export interface ConfSection {
  name: string;
  template: boolean;
  inherits: string[];
  entries: ConfEntry[];
}

interface ConfDirective {
  kind: 'include' | 'tryinclude' | 'exec';
  arg: string;
  line: number;
}

export interface ConfFile {
  sections: ConfSection[];
  directives: ConfDirective[];
}

export class ConfSyntaxError extends Error {}

function stripComment(line: string, inBlock: { open: boolean }): string {
  let out = '';
  for (let i = 0; i < line.length; i++) {
    if (inBlock.open) {
      if (line.startsWith('--;', i)) {
        inBlock.open = false;
        i += 2;
      }
      continue;
    }
    const c = line[i]!;
    if (c === '\\' && line[i + 1] === ';') {
      out += ';';
      i++;
    } else if (c === ';') {
      if (line.startsWith(';--', i)) {
        inBlock.open = true;
        i += 2;
        continue;
      }
      break;
    } else out += c;
  }
  return out.trim();
}

export function parseAsteriskConf(text: string): ConfFile {
  const sections: ConfSection[] = [];
  const directives: ConfDirective[] = [];
  const block = { open: false };
  let current: ConfSection | undefined;
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const body = stripComment(raw, block);
    if (!body) return;
    const directive = /^#(include|tryinclude|exec)\s+"?([^"]+?)"?$/.exec(body);
    if (directive) {
      directives.push({ kind: directive[1] as ConfDirective['kind'], arg: directive[2]!, line });
      return;
    }
    const header = /^\[([^\]]+)\](?:\(([^)]*)\))?$/.exec(body);
    if (header) {
      const opts = (header[2] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      current = { name: header[1]!.trim(), template: opts.includes('!'), inherits: opts.filter((o) => o !== '!' && o !== '+'), entries: [] };
      sections.push(current);
      return;
    }
    const kv = /^([^=]+?)\s*(=>|=)\s*(.*)$/.exec(body);
    if (!kv) throw new ConfSyntaxError(`line ${line}: cannot read "${body}"`);
    if (!current) throw new ConfSyntaxError(`line ${line}: "${kv[1]}" is outside any [section]`);
    current.entries.push({ key: kv[1]!.trim(), value: kv[3]!.trim(), arrow: kv[2] === '=>', line });
  });
  if (block.open) throw new ConfSyntaxError('a ;-- block comment is never closed');
  return { sections, directives };
}

/** Sections with this name (optionally of a pjsip `type`), with template entries merged in first. */
export function findSections(file: ConfFile, name: string, type?: string): ConfSection[] {
  const resolve = (s: ConfSection, seen: Set<string>): ConfEntry[] => {
    const inherited = s.inherits.flatMap((t) => {
      if (seen.has(t)) throw new ConfSyntaxError(`template loop through [${t}]`);
      const tpl = file.sections.find((x) => x.name === t && x.template);
      if (!tpl) throw new ConfSyntaxError(`[${s.name}] inherits unknown template [${t}]`);
      return resolve(tpl, new Set([...seen, t]));
    });
    return [...inherited, ...s.entries];
  };
  return file.sections
    .filter((s) => s.name === name && !s.template)
    .map((s) => ({ ...s, entries: resolve(s, new Set()) }))
    .filter((s) => type === undefined || last(s, 'type') === type);
}

/** The effective value of a key (the last one wins, as in Asterisk for scalar options). */
export function last(section: ConfSection, key: string): string | undefined {
  return section.entries.filter((e) => e.key === key).at(-1)?.value;
}

export function all(section: ConfSection, key: string): string[] {
  return section.entries.filter((e) => e.key === key).map((e) => e.value);
}
