import type { PreviewLine } from '../../contract/languages.js';
import { fixedLines } from './fixed-lines.js';
import type { LanguageCode } from './languages.js';

/** The words of a fixed line as the agent says it in `language` to a caller of `businessName`. */
export function previewLineText(language: LanguageCode, line: PreviewLine, businessName: string | null): string {
  const f = fixedLines(language);
  if (line === 'greeting') return f.greeting(businessName);
  if (line === 'goodbye') return f.goodbye(businessName);
  if (line === 'switched') return f.switched;
  return f.lines[line];
}
