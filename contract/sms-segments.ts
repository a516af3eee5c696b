// How many SMS a text costs, shared by the server (caps, usage) and the console (the wording
// editor's live count). Twilio's own calculator (sms-segments-calculator) does the counting:
// GSM-7 (160 characters, 153 a part once split, the extension table's ^{}[]~|€\ counting two)
// unless one character needs UCS-2 (70, 67 a part), emoji counted as the handset does.
import { SegmentedMessage } from 'sms-segments-calculator';

export interface SmsCount {
  characters: number;
  segments: number;
  encoding: 'GSM-7' | 'UCS-2';
}

export function countSms(text: string): SmsCount {
  if (text === '') return { characters: 0, segments: 0, encoding: 'GSM-7' };
  const m = new SegmentedMessage(text, 'auto');
  return { characters: m.numberOfCharacters, segments: m.segmentsCount, encoding: m.encodingName === 'UCS-2' ? 'UCS-2' : 'GSM-7' };
}
