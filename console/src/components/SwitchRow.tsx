import { useId, type ReactNode } from 'react';
import { Switch, cx } from './ui';

/**
 * A setting that is on or off: its name and what it does on the left, the switch on the right,
 * the whole label a tap target. Disabled, it says "Not available yet." instead of what it does.
 */
export function SwitchRow({
  label,
  text,
  checked,
  onChange,
  disabled,
  icon,
}: {
  label: string;
  text: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  disabled?: boolean;
  icon?: ReactNode;
}) {
  const id = useId();
  const words = (
    <>
      <span className="block text-sm font-semibold">{label}</span>
      <span className="block text-sm text-slate-500 dark:text-slate-400">{disabled ? 'Not available yet.' : text}</span>
    </>
  );
  return (
    <div className="flex items-center justify-between gap-4">
      <label htmlFor={id} className={cx(icon != null && 'flex items-center gap-3', disabled && 'opacity-60')}>
        {icon == null ? (
          words
        ) : (
          <>
            {icon}
            <span>{words}</span>
          </>
        )}
      </label>
      <Switch id={id} label={label} checked={checked} onChange={onChange} disabled={disabled} />
    </div>
  );
}
