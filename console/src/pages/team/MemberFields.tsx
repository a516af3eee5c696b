// A member's name, the other names callers use, their role word and what their sign-in shows:
// the same fields to add someone and to edit them.
import type { MemberShape, StaffView } from '../../api/team';
import { Field, Input, Select } from '../../components/ui';
import { parseOtherNames } from '../../lib/team';
import { TEAM_LIMITS } from '../../../../contract/rules';

export interface MemberDraft {
  name: string;
  otherNames: string;
  roleWord: string;
  view: StaffView;
}

export const EMPTY_DRAFT: MemberDraft = { name: '', otherNames: '', roleWord: '', view: 'own' };

export const draftOf = (m: { name: string; otherNames: string[]; roleWord: string | null; view: StaffView }): MemberDraft => ({
  name: m.name,
  otherNames: m.otherNames.join(', '),
  roleWord: m.roleWord ?? '',
  view: m.view,
});

export const shapeOf = (d: MemberDraft): MemberShape => ({ name: d.name.trim(), otherNames: parseOtherNames(d.otherNames), roleWord: d.roleWord.trim() || null, view: d.view });

export function MemberFields({ draft, onChange, isOwner = false }: { draft: MemberDraft; onChange: (d: MemberDraft) => void; isOwner?: boolean }) {
  const set = <K extends keyof MemberDraft>(k: K, v: MemberDraft[K]) => onChange({ ...draft, [k]: v });
  return (
    <>
      <Field label="Name" required>
        <Input value={draft.name} maxLength={TEAM_LIMITS.nameLength} required autoComplete="off" onChange={(e) => set('name', e.target.value)} />
      </Field>
      <Field label="Other names callers use" hint="Separated by commas, for example: Sam, Samantha">
        <Input value={draft.otherNames} autoComplete="off" onChange={(e) => set('otherNames', e.target.value)} />
      </Field>
      <Field label="Role" hint="One word callers might ask for, for example: engineer, stylist, office">
        <Input value={draft.roleWord} maxLength={40} autoComplete="off" onChange={(e) => set('roleWord', e.target.value)} />
      </Field>
      {!isOwner && (
        <Field label="What their sign-in shows">
          <Select value={draft.view} onChange={(e) => set('view', e.target.value as StaffView)}>
            <option value="own">Their own calls, messages, bookings and texts</option>
            <option value="everything">Everything in the business</option>
          </Select>
        </Field>
      )}
    </>
  );
}
