// Ring the team before the agent or voicemail answers: off, everyone working at once, or one
// after another, for 10–60 seconds; and whether the owner is copied on every message.
import { useState } from 'react';
import { RING_FIRST_STYLES } from '../../../../contract/enums';
import { TEAM_LIMITS } from '../../../../contract/rules';
import type { ApiTeam, RingFirst as Style } from '../../api/team';
import { SwitchRow } from '../../components/SwitchRow';
import { Card, CardHeader, Field, Input } from '../../components/ui';
import { useFollowing } from '../../components/use-following';
import { RING_FIRST_LABELS, clampRingSeconds } from '../../lib/team';
import { SaveRow } from './SaveRow';
import { useSaveSettings } from './use-save-settings';

export function RingFirst({ team }: { team: ApiTeam }) {
  const [style, setStyle] = useFollowing<Style>(team.settings.ringFirst);
  const [seconds, setSeconds] = useState(String(team.settings.ringSeconds));
  const [copyOwner, setCopyOwner] = useFollowing(team.settings.copyOwner);
  const { save, busy, error } = useSaveSettings('Ring-first saved');
  return (
    <Card aria-labelledby="ring-title">
      <CardHeader title={<span id="ring-title">Ring the team first</span>} description="Ring the people working now before the agent or voicemail answers; the caller hears ringing" />
      <div className="grid gap-4 p-5">
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-300">Ring first</legend>
          {RING_FIRST_STYLES.map((s) => (
            <label key={s} className="flex min-h-6 items-center gap-2 text-sm">
              <input type="radio" name="ring-first" className="h-4 w-4 accent-indigo-600" checked={style === s} onChange={() => setStyle(s)} />
              {RING_FIRST_LABELS[s]}
            </label>
          ))}
        </fieldset>
        {style !== 'off' && (
          <div className="max-w-48">
            <Field label="Ring for (seconds)" hint={`${TEAM_LIMITS.ringSecondsMin} to ${TEAM_LIMITS.ringSecondsMax}`}>
              <Input type="number" inputMode="numeric" min={TEAM_LIMITS.ringSecondsMin} max={TEAM_LIMITS.ringSecondsMax} value={seconds} onChange={(e) => setSeconds(e.target.value)} />
            </Field>
          </div>
        )}
        <SwitchRow label="Copy me on everything" text="Every message for someone on the team is texted to you as well." checked={copyOwner} onChange={setCopyOwner} />
        <SaveRow
          error={error}
          busy={busy}
          label="Save"
          onSave={() => {
            const ringSeconds = clampRingSeconds(Number(seconds));
            setSeconds(String(ringSeconds));
            void save({ ringFirst: style, ringSeconds, copyOwner });
          }}
        />
      </div>
    </Card>
  );
}
