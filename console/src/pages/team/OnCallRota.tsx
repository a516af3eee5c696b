// Who is on call each weekday (London time): the person a rule's "today's on-call" rings and
// urgent messages go to. A day with nobody is left out.
import { WEEKDAYS, WEEKDAY_NAMES, type Weekday } from '../../../../contract/call-handling';
import type { OnCallRota as Rota } from '../../../../contract/team';
import type { ApiTeam } from '../../api/team';
import { Card, CardHeader, Field, Select } from '../../components/ui';
import { useFollowing } from '../../components/use-following';
import { SaveRow } from './SaveRow';
import { useSaveSettings } from './use-save-settings';

export function OnCallRota({ team }: { team: ApiTeam }) {
  const [rota, setRota] = useFollowing<Rota>(team.settings.rota);
  const { save, busy, error } = useSaveSettings('On-call rota saved');
  const setDay = (day: Weekday, value: string) => {
    const { [day]: _dropped, ...rest } = rota;
    setRota(value ? { ...rest, [day]: Number(value) } : rest);
  };
  return (
    <Card aria-labelledby="rota-title">
      <CardHeader title={<span id="rota-title">On-call rota</span>} description="Who rules ring as today's on-call, and who urgent messages go to" />
      <div className="grid gap-4 p-5">
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {WEEKDAYS.map((day) => (
            <Field key={day} label={WEEKDAY_NAMES[day]}>
              <Select value={rota[day] ?? ''} onChange={(e) => setDay(day, e.target.value)}>
                <option value="">Nobody</option>
                {team.members.map((m) => <option key={m.id} value={m.id}>{m.name}</option>)}
              </Select>
            </Field>
          ))}
        </div>
        <SaveRow error={error} busy={busy} label="Save rota" onSave={() => void save({ rota })} />
      </div>
    </Card>
  );
}
