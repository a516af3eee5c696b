// Saving one part of the team's settings (rules, rota or ring-first): the server's refusal
// ("Rule 2 names someone who is no longer on your team.") is shown as sent, under the part.
import { useState } from 'react';
import { saveTeamSettings, useRefreshTeam, type ApiTeamSettings } from '../../api/team';
import { messageOr } from '../../lib/errors';
import { toast } from '../../toast/use-toast';

export function useSaveSettings(savedTitle: string) {
  const refresh = useRefreshTeam();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async (part: Partial<ApiTeamSettings>) => {
    setBusy(true);
    setError(null);
    try {
      await saveTeamSettings(part);
      toast({ title: savedTitle });
      await refresh();
    } catch (e) {
      setError(messageOr(e, 'Could not save; please try again'));
    } finally {
      setBusy(false);
    }
  };
  return { save, busy, error };
}
