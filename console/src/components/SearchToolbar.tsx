import { Search } from 'lucide-react';
import type { ReactNode } from 'react';
import { Input, Select } from './ui';

/**
 * A list's toolbar: a search box with its magnifier, a filter to pick from, then whatever else
 * the page adds (`children`). The page lays the three out (`className`), since a phone's line
 * differs from page to page.
 */
export function SearchToolbar<F extends string>({
  className,
  search,
  onSearch,
  searchLabel,
  placeholder,
  filter,
  onFilter,
  filterLabel,
  filters,
  filterClassName,
  children,
}: {
  className: string;
  search: string;
  onSearch: (text: string) => void;
  searchLabel: string;
  placeholder: string;
  filter: F;
  onFilter: (value: F) => void;
  filterLabel: string;
  filters: readonly { value: F; label: string }[];
  filterClassName: string;
  children?: ReactNode;
}) {
  return (
    <div className={className}>
      <div className="relative flex-1">
        <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400" aria-hidden />
        <Input type="search" aria-label={searchLabel} placeholder={placeholder} value={search} onChange={(e) => onSearch(e.target.value)} className="pl-9" />
      </div>
      <Select aria-label={filterLabel} value={filter} onChange={(e) => onFilter(e.target.value as F)} className={filterClassName}>
        {filters.map((f) => (
          <option key={f.value} value={f.value}>
            {f.label}
          </option>
        ))}
      </Select>
      {children}
    </div>
  );
}
