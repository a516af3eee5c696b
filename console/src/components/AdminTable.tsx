import type { ReactNode } from 'react';
import { Table, cx, tbodyRow, td, th, theadRow } from './ui';

export type Column<T> = {
  /** The heading, and each cell's data-label: what a stacked row shows before the value. */
  label: string;
  /** The heading as drawn when it is not the plain label (a column of buttons has it for screen readers only). */
  heading?: ReactNode;
  /** Classes for the heading (its width) and for each cell, after the shared ones. */
  head?: string;
  cell?: string;
  value: (row: T) => ReactNode;
};

/** The consoles' lists of records: a heading row, then a row a record, stacked into cards below `stackBelow`. */
export function AdminTable<T>({
  label,
  stackBelow,
  columns,
  rows,
  rowKey,
}: {
  label: string;
  stackBelow: 'md' | 'lg' | 'xl';
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
}) {
  return (
    <Table label={label} stackBelow={stackBelow}>
      <thead>
        <tr className={theadRow}>
          {columns.map((c) => (
            <th key={c.label} className={cx(th, c.head)}>
              {c.heading ?? c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} className={tbodyRow}>
            {columns.map((c) => (
              <td key={c.label} data-label={c.label} className={cx(td, c.cell)}>
                {c.value(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** An actions column's heading: named for screen readers, blank on screen. */
export const actionsHeading = <span className="sr-only">Actions</span>;
