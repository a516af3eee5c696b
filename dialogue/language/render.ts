// Fills a catalogue line's `{name}` placeholders. One pass over the line only, so a business
// name that happens to contain braces is said as it is, never filled in turn.

export function render(line: string, values: Readonly<Record<string, string>> = {}): string {
  return line.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    // A placeholder nobody fills is a catalogue mistake: said aloud it would be "{business}".
    if (value === undefined) throw new Error(`the line "${line}" needs {${name}}`);
    return value;
  });
}

