// Up to ten routing rules from fixed parts, "When the caller <…> → ring <…>", checked in order:
// built with two selects, moved up or down, deleted, then saved together.
import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { ApiTeam } from '../../api/team';
import { Button, Card, CardHeader, Field, Select } from '../../components/ui';
import { useFollowing } from '../../components/use-following';
import { TEAM_LIMITS } from '../../../../contract/rules';
import { type RoutingRule, type RoutingTarget, type RoutingWhen } from '../../../../contract/team';
import { WHEN_OPTIONS, canAddRule, moveRule, roleWords, ruleSentence, targetWords } from '../../lib/team';
import { SaveRow } from './SaveRow';
import { useSaveSettings } from './use-save-settings';

/** A target as one select's value: "person:7", "on-call", "role:engineer". */
const targetValue = (t: RoutingTarget) => (t.kind === 'person' ? `person:${t.staffId}` : t.kind === 'role' ? `role:${t.roleWord}` : 'on-call');
function targetOf(value: string): RoutingTarget {
  if (value.startsWith('person:')) return { kind: 'person', staffId: Number(value.slice(7)) };
  if (value.startsWith('role:')) return { kind: 'role', roleWord: value.slice(5) };
  return { kind: 'on-call' };
}

export function RoutingRules({ team }: { team: ApiTeam }) {
  const [rules, setRules] = useFollowing<RoutingRule[]>(team.settings.rules);
  const [when, setWhen] = useState<RoutingWhen>('emergency');
  const [target, setTarget] = useState('on-call');
  const { save, busy, error } = useSaveSettings('Routing rules saved');
  const roles = roleWords(team.members);
  return (
    <Card aria-labelledby="rules-title">
      <CardHeader title={<span id="rules-title">Routing rules</span>} description={`Checked in order; the first that fits rings its person. Up to ${TEAM_LIMITS.rules}.`} />
      <div className="grid gap-4 p-5">
        {rules.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">No rules: callers who ask for someone by name are put through to them; the agent answers the rest.</p>
        ) : (
          <ol className="grid gap-2" aria-label="Routing rules">
            {rules.map((r, i) => {
              const words = ruleSentence(r, team.members);
              return (
                <li key={`${i}-${targetValue(r.then)}-${r.when}`} className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-800">
                  <span className="min-w-0 flex-1 break-words">
                    <span className="font-semibold">{i + 1}.</span> {words}
                  </span>
                  <span className="flex gap-1">
                    <Button size="icon" variant="ghost" aria-label={`Move rule ${i + 1} up`} disabled={i === 0} onClick={() => setRules(moveRule(rules, i, -1))}>
                      <ArrowUp className="h-4 w-4" aria-hidden />
                    </Button>
                    <Button size="icon" variant="ghost" aria-label={`Move rule ${i + 1} down`} disabled={i === rules.length - 1} onClick={() => setRules(moveRule(rules, i, 1))}>
                      <ArrowDown className="h-4 w-4" aria-hidden />
                    </Button>
                    <Button size="icon" variant="ghost" aria-label={`Delete rule ${i + 1}`} onClick={() => setRules(rules.filter((_, j) => j !== i))}>
                      <Trash2 className="h-4 w-4" aria-hidden />
                    </Button>
                  </span>
                </li>
              );
            })}
          </ol>
        )}
        <fieldset className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-end">
          <legend className="mb-2 text-sm font-semibold">Add a rule</legend>
          <Field label="When the caller">
            <Select value={when} onChange={(e) => setWhen(e.target.value as RoutingWhen)}>
              {WHEN_OPTIONS.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
            </Select>
          </Field>
          <Field label="Ring">
            <Select value={target} onChange={(e) => setTarget(e.target.value)}>
              <option value="on-call">today&apos;s on-call</option>
              {team.members.map((m) => <option key={m.id} value={`person:${m.id}`}>{m.name}</option>)}
              {roles.map((w) => <option key={w} value={`role:${w}`}>{targetWords({ kind: 'role', roleWord: w }, [])}</option>)}
            </Select>
          </Field>
          <Button variant="outline" disabled={!canAddRule(rules)} onClick={() => setRules([...rules, { when, then: targetOf(target) }])}>
            Add rule
          </Button>
        </fieldset>
        <SaveRow error={error} busy={busy} label="Save rules" onSave={() => void save({ rules })} />
      </div>
    </Card>
  );
}
