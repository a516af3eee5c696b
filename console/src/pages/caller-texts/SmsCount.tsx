// The live count under a text being written: characters and SMS parts, and the encoding that
// decides them (one emoji or — turns a 160-character SMS into a 70-character one).
import { countSms } from '../../../../contract/sms-segments';

export function SmsCount({ text, id }: { text: string; id?: string }) {
  const c = countSms(text);
  return (
    <p id={id} aria-live="polite" className="text-xs text-slate-600 dark:text-slate-400">
      {c.characters} characters · {c.segments} SMS ({c.encoding})
      {c.encoding === 'UCS-2' && ' · a character outside plain text makes each SMS hold 70 characters'}
    </p>
  );
}
