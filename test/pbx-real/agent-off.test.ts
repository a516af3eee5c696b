// Issue 60 on a real Asterisk: agent mode off for new calls. While the language model is still
// being pulled (the Ollama double starts without it), and while the slow-box guard is closed
// (the double slowed past AGENT_SLOW_P50_MS for 20 turns), a new agent-mode caller hears the
// owner's own greeting and the beep and leaves a voicemail; the row says why. Once the model
// is there, or the double is fast again, agent mode returns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { businessGreeting } from '../../dialogue/spoken/greeting.js';
import { speech } from './audio.js';
import { askAgent, hearsAgent } from './agent-caller.js';
import { heardBeep, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';
import { waitUntil } from '../helpers/wait.js';
import { mailsTo } from '../helpers/destinations.js';
import { insertUser } from '../../core/accounts/users.js';

const real = realPbxAvailability();
const HOURS = 'We are open from eight until six.';
const KB = `Q: What are your opening hours?\nA: ${HOURS}`;
const MESSAGE = 'This is Sam Jones, please call me back about the boiler.';
const reply = JSON.stringify({ intent: 'question', answered: true, answer: HOURS });
const QUIET_MS = 1500;

/** Each call to its own agent-mode owner: a number's finished row is then that call's. */
const owner = (h: RealPbx) => h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: KB });

/** The slow-box guard's notices the outbox mailer wrote to `to`, by subject (issue 60 item 4). */
const guardSubjects = (h: RealPbx, to: string) =>
  mailsTo(h.server, to)
    .map((m) => /^Subject: (.*)$/m.exec(m)?.[1])
    .filter((s) => s && /^(Agent mode|Your assistant)/.test(s));

/** A caller who hears the owner's own greeting and the beep, leaves a message and hangs up: the row. */
async function voicemailModeCall(h: RealPbx, did: string, business: string) {
  const call = await h.call(did);
  await hearsAgent(h, call, 0, businessGreeting(business), 600);
  await heardBeep(call);
  await call.media.say(speech(MESSAGE));
  await call.hangUp();
  return h.finishedRow(did, 60_000);
}

describe.skipIf(!real.ok)('agent mode while the language model is still downloading, on a real Asterisk', { timeout: 240_000 }, () => {
  let h: RealPbx;
  let releasePull!: () => void;
  beforeAll(async () => {
    h = await startRealPbx({ agent: true, ollamaModels: [], ollamaPullUntil: new Promise<void>((r) => (releasePull = r)) });
    h.ollama.replier = () => reply;
  });
  afterAll(async () => {
    releasePull?.();
    await h?.close();
  });

  it("answers with the owner's greeting and takes a voicemail tagged 'model'; after the pull, agent mode", async () => {
    await waitUntil(() => expect(h.server.services.agentEngines.model.state().state).toBe('downloading'), 30_000);
    const row = await voicemailModeCall(h, (await owner(h)).did, 'Hale Plumbing');
    expect(row).toMatchObject({ mode: 'agent', status: 'voicemail', agentVoicemailReason: 'model', agentBusy: false });

    releasePull();
    await waitUntil(() => expect(h.server.services.agentEngines.model.ready()).toBe(true), 30_000);
    const { did } = await owner(h);
    const call = await h.call(did);
    await hearsAgent(h, call, 0, agentGreeting('Hale Plumbing'), QUIET_MS);
    const q = await askAgent(h, call, 'What are your opening hours?');
    await hearsAgent(h, call, q.endedAt, HOURS, QUIET_MS);
    await call.hangUp();
    const agentRow = await h.finishedRow(did, 60_000);
    expect(agentRow).toMatchObject({ mode: 'agent', agentVoicemailReason: null });
  });
});

describe.skipIf(!real.ok)('the slow-box guard on a real Asterisk', { timeout: 600_000 }, () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({ agent: true, env: { AGENT_SLOW_P50_MS: '2000', AGENT_SLOW_TRIAL_EVERY: '2', AGENT_VOICEMAIL_AFTER_MS: '30000' } });
    h.ollama.replier = () => reply;
  });
  afterAll(async () => {
    await h?.close();
  });

  it("after 20 slow turns the next agent call gets the owner's greeting and a voicemail tagged 'slow'; the double fast again, agent mode returns", async () => {
    await insertUser(h.server.database.db, { email: 'admin@example.co.uk', passwordHash: 'x', role: 'admin', accountStatus: 'active' });
    const { did } = await owner(h);
    const guard = h.server.appliance.agent!.slowBox;
    h.ollama.always = { delayMs: 2600 }; // past the 2 s limit on any machine
    const call = await h.call(did);
    await hearsAgent(h, call, 0, agentGreeting('Hale Plumbing'), QUIET_MS);
    for (let turn = 0; turn < 20; turn++) {
      const q = await askAgent(h, call, 'What are your opening hours?');
      await hearsAgent(h, call, q.endedAt, HOURS, QUIET_MS);
    }
    // The call in progress was never cut off; the guard closed on its 20 slow answers.
    expect(h.metrics.filter((m) => m.kind === 'answer').length).toBeGreaterThanOrEqual(20);
    expect(guard.closed).toBe(true);
    await call.hangUp();
    await h.finishedRow(did, 60_000);

    const refusedOwner = await h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: KB, email: 'refused@example.co.uk' });
    const refused = await voicemailModeCall(h, refusedOwner.did, 'Hale Plumbing');
    expect(refused).toMatchObject({ mode: 'agent', status: 'voicemail', agentVoicemailReason: 'slow', agentBusy: false });
    // Told once: the admin that agent mode paused on this node, the owner turned away that their assistant is.
    await h.server.services.agentGuard.settled();
    expect(guardSubjects(h, 'admin@example.co.uk')).toEqual(['Agent mode is paused on node-1']);
    expect(guardSubjects(h, 'refused@example.co.uk')).toEqual(['Your assistant is paused for now']);

    // Fast again: the next new call is the trial (one in every 2), and its fresh turns reopen the guard.
    h.ollama.always = null;
    const trialOwner = await owner(h);
    const trial = await h.call(trialOwner.did);
    await hearsAgent(h, trial, 0, agentGreeting('Hale Plumbing'), QUIET_MS);
    for (let turn = 0; turn < 3; turn++) {
      const q = await askAgent(h, trial, 'What are your opening hours?');
      await hearsAgent(h, trial, q.endedAt, HOURS, QUIET_MS);
    }
    expect(guard.closed).toBe(false);
    await h.server.services.agentGuard.settled();
    expect(guardSubjects(h, 'admin@example.co.uk')).toEqual(['Agent mode is paused on node-1', 'Agent mode is back on node-1']);
    await trial.hangUp();
    expect(await h.finishedRow(trialOwner.did, 60_000)).toMatchObject({ agentVoicemailReason: null });

    const backOwner = await owner(h);
    const back = await h.call(backOwner.did);
    await hearsAgent(h, back, 0, agentGreeting('Hale Plumbing'), QUIET_MS);
    await back.hangUp();
    expect(await h.finishedRow(backOwner.did, 60_000)).toMatchObject({ mode: 'agent', agentVoicemailReason: null });
  });
});
