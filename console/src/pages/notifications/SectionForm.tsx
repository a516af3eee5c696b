import type { ReactNode } from 'react';
import { Button } from '../../components/ui';

/**
 * One settings section as a form of its own, named for assistive technology by `label`, ending
 * in its one save button (SPEC.md §2: "Save Changes", "Saving..." while pending). Enter in a
 * field saves the section, as the button does.
 */
export function SectionForm({ label, onSave, saving, children }: { label: string; onSave: () => void; saving: boolean; children: ReactNode }) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
      className="grid gap-6"
      aria-label={label}
    >
      {children}
      <div className="flex justify-end">
        <Button type="submit" size="lg" disabled={saving}>
          {saving ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}
