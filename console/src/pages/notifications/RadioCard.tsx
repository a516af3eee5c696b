import { cx } from '../../components/ui';

/** A radio button drawn as a card: a title, a sentence and an icon. */
export function RadioCard<T extends string>({
  name,
  value,
  current,
  onChange,
  title,
  text,
  icon,
}: {
  name: string;
  value: T;
  current: T;
  onChange: (v: T) => void;
  title: string;
  text: string;
  icon: React.ReactNode;
}) {
  const checked = value === current;
  return (
    <label
      className={cx(
        'flex cursor-pointer gap-3 rounded-lg border p-4 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500',
        checked ? 'border-indigo-500 bg-indigo-50/60 dark:border-indigo-500 dark:bg-indigo-950/40' : 'border-slate-200 hover:border-slate-300 dark:border-slate-700',
      )}
    >
      <input type="radio" name={name} value={value} checked={checked} onChange={() => onChange(value)} className="mt-1 h-4 w-4 accent-indigo-600" />
      <span className="mt-0.5 text-indigo-600 dark:text-indigo-400">{icon}</span>
      <span>
        <span className="block text-sm font-semibold">{title}</span>
        <span className="mt-0.5 block text-sm text-slate-600 dark:text-slate-400">{text}</span>
      </span>
    </label>
  );
}
