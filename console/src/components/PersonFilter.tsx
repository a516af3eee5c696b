// The team's person filter (issue 58) for Call Logs and Bookings: "Everyone" or one person, kept
// in the address as ?staffId= so a link opens it filtered.
import { useSearchParams } from 'react-router-dom';
import { staffIdParam } from '../lib/team';
import { Select, cx } from './ui';

const STAFF_PARAM = 'staffId';

/** The person the page is filtered to (null: everyone) and the way to change it. */
export function usePersonParam(): [number | null, (id: number | null) => void] {
  const [params, setParams] = useSearchParams();
  const set = (id: number | null) =>
    setParams(
      (p) => {
        if (id === null) p.delete(STAFF_PARAM);
        else p.set(STAFF_PARAM, String(id));
        return p;
      },
      { replace: true },
    );
  return [staffIdParam(params.get(STAFF_PARAM)), set];
}

export function PersonFilter({ people, value, onChange, className }: { people: readonly { id: number; name: string }[]; value: number | null; onChange: (id: number | null) => void; className?: string }) {
  return (
    <Select aria-label="Filter by person" value={value ?? ''} onChange={(e) => onChange(staffIdParam(e.target.value))} className={cx('sm:w-44', className)}>
      <option value="">Everyone</option>
      {people.map((p) => (
        <option key={p.id} value={p.id}>
          {p.name}
        </option>
      ))}
    </Select>
  );
}
