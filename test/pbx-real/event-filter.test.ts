// Issue 47: the core asks the real Asterisk to send its Stasis app only the events it acts on
// (PUT /applications/{app}/eventFilter), and Asterisk holds that filter for the app. That
// calls still run with it is what the rest of the real-PBX suite proves (voicemail, agent,
// transfers, admission all run with the filter on).
import { afterEach, describe, expect, it } from 'vitest';
import { APP_EVENTS } from '../../pbx/ari/event-filter.js';
import { waitUntil } from '../helpers/wait.js';
import { realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';

const real = realPbxAvailability();

describe.skipIf(!real.ok)('the Stasis app’s event filter on a real Asterisk', { timeout: 120_000 }, () => {
  let h: RealPbx | undefined;
  afterEach(async () => {
    await h?.close();
  });

  it('is set once the core connects: Asterisk lists exactly the types the app acts on as allowed', async () => {
    h = await startRealPbx();
    const allowed = await waitUntil(async () => {
      const app = await h!.asterisk.ariGet<{ events_allowed: Array<{ type: string }> }>(`/applications/${h!.asterisk.ari.app}`);
      if (app.events_allowed.length === 0) throw new Error('no filter yet');
      return app.events_allowed.map((e) => e.type);
    }, 30_000);
    expect([...allowed].sort()).toEqual([...APP_EVENTS].sort());
  });
});
