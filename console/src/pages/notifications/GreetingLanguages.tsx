import { LANGUAGE_NAMES, type AgentLanguage } from '../../../../contract/languages';
import { Field, Select } from '../../components/ui';

/**
 * The agent's greeting in English alone or with one more ticked caller language, in the order
 * the owner picks (an owner in Wales: "Welsh, then English"). Offered as whole choices so the
 * console never builds one the server refuses (English must be among them).
 */
export function GreetingLanguages({ allowed, value, onChange }: { allowed: readonly string[]; value: readonly string[]; onChange: (v: string[]) => void }) {
  const others = allowed.filter((c): c is AgentLanguage => c !== 'en' && c in LANGUAGE_NAMES);
  const choices: string[][] = [['en'], ...others.flatMap((c) => [['en', c], [c, 'en']])];
  const name = (codes: string[]) => (codes.length === 1 ? 'English only' : codes.map((c) => LANGUAGE_NAMES[c as AgentLanguage]).join(', then '));
  const current = choices.find((c) => c.join(',') === value.join(','))?.join(',') ?? 'en';
  return (
    <div className="border-t border-slate-100 px-5 pb-5 pt-4 dark:border-slate-800">
      <Field label="Greet callers in" hint="Each greeting is the one written for that language, in its own voice; callers are answered in English until they speak another ticked language.">
        <Select value={current} onChange={(e) => onChange(e.target.value.split(','))} className="sm:max-w-xs">
          {choices.map((c) => (
            <option key={c.join(',')} value={c.join(',')}>
              {name(c)}
            </option>
          ))}
        </Select>
      </Field>
    </div>
  );
}
