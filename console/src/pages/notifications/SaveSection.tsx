import { Button } from '../../components/ui';

/** A settings section's one save button (SPEC.md §2: "Save Changes", "Saving..." while pending). */
export function SaveSection({ saving }: { saving: boolean }) {
  return (
    <div className="flex justify-end">
      <Button type="submit" size="lg" disabled={saving}>
        {saving ? 'Saving...' : 'Save Changes'}
      </Button>
    </div>
  );
}
