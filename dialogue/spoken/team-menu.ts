import { sentenceStart } from '../../contract/member-name.js';
import { englishOnly } from '../language/catalogue/en.js';
import { render } from '../language/render.js';

// The voicemail greeting's team menu (issue 58), said in English as the rest of voicemail is
// (the words: dialogue/language/catalogue/en.ts).

const lines = englishOnly.teamMenu;

/** "To speak to someone, press 1 for Sarah, 2 for Tom." */
export function teamMenuLine(choices: ReadonlyArray<{ digit: string; name: string }>): string {
  return render(lines.menu, { choices: choices.map(({ digit, name }) => render(lines.menuChoice, { digit, name })).join(', ') });
}

/** Said before the tone when the caller pressed for someone: `working` false adds that they are not working now. */
export function messageForLine(name: string, working: boolean): string {
  const leave = render(lines.leaveMessageFor, { name });
  return working ? leave : `${sentenceStart(render(lines.notWorking, { name }))} ${leave}`;
}
