import { describe, expect, it, vi } from 'vitest';
import { BookingWalk } from '../../../dialogue/agent/booking-walk.js';
import { agentGreeting } from '../../../dialogue/spoken/agent-lines.js';
import { BOOKING_LINES } from '../../../dialogue/language/booking-lines.js';
import { BOILER_SERVICE, fakeSlots, FakeBookingDesk } from '../../../test/helpers/fake-booking-desk.js';
import { caller, greeted, heard, llm, metrics, player, reply, silence, speech, start, stt, unanswered } from './scripted-conversation.js';

// The conversation driven frame by frame with scripted engines: every engine answer is
// released by the test, so the order of caller speech, speculation and commit is exact.
// (test/agent has the same cases end to end, with real audio over RTP; conversation-stall.test.ts
// the engines that stall.)

describe('AgentConversation: speculative turn-taking', () => {
  it('a speculation the caller talks over is cancelled: its model call aborted, nothing said, logged or counted', async () => {
    const { done, hangup } = start();
    await greeted();
    await caller(speech(600) + silence(200)); // the pause: transcription starts
    await vi.waitFor(() => expect(stt).toHaveLength(1));
    stt[0]!.resolve("I'd like to book a visit for");
    await vi.waitFor(() => expect(llm).toHaveLength(1)); // the model was asked at once
    await caller(silence(900)); // past the usual 700 ms: a dangling "for" holds the turn
    expect(stt).toHaveLength(1);
    await caller(speech(60)); // the caller goes on
    expect(llm[0]!.signal.aborted).toBe(true);
    llm[0]!.resolve(reply(false, '')); // too late: nobody listens any more

    await caller(speech(400) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(2));
    stt[1]!.resolve("I'd like to book a visit for next Tuesday.");
    await vi.waitFor(() => expect(llm).toHaveLength(2));
    expect(llm[1]!.messages.at(-1)).toEqual({ role: 'user', content: "I'd like to book a visit for next Tuesday." });
    llm[1]!.resolve(reply(true, 'Tuesday is fine.'));
    await caller(silence(300)); // 500 ms in all: a finished sentence commits
    await vi.waitFor(() => expect(heard('Tuesday is fine.') && !player.busy).toBe(true));

    hangup.abort();
    const result = await done;
    expect(result.transcript.map((l) => `${l.speaker}: ${l.text}`)).toEqual([
      `Agent: ${agentGreeting('Acme Plumbing')}`,
      "Caller: I'd like to book a visit for next Tuesday.",
      'Agent: Tuesday is fine.',
    ]);
    expect(unanswered).toEqual([]);
    expect(metrics).toHaveLength(1);
    expect(metrics[0]).toMatchObject({ turn: 1, speculated: true, speculativeLlmCalls: 2, commitSilenceMs: 500 });
  });

  it('speech while a committed reply is being prepared holds it; a real turn drops it unheard and joins the next turn', async () => {
    const { done, hangup } = start();
    await greeted();
    await caller(speech(600) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(1));
    stt[0]!.resolve('My boiler is leaking.');
    await vi.waitFor(() => expect(llm).toHaveLength(1));
    await caller(silence(300)); // 500 ms: the turn commits while the model is still answering
    await caller(speech(100)); // ...and the caller carries on
    llm[0]!.resolve(reply(true, 'We can come today.'));
    await vi.waitFor(() => expect(player.busy).toBe(true)); // the answer is queued, on hold
    expect(heard('We can come today.')).toBe(false);
    await caller(speech(500)); // a real turn, not "mm"
    expect(player.busy).toBe(false);

    await caller(silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(2));
    stt[1]!.resolve('Can someone come out this afternoon?');
    await vi.waitFor(() => expect(llm).toHaveLength(2));
    // The interrupted turn's words are carried into this one.
    expect(llm[1]!.messages.at(-1)!.content).toBe('My boiler is leaking. Can someone come out this afternoon?');
    expect(JSON.stringify(llm[1]!.messages)).not.toContain('We can come today.'); // never said, so not in the history
    llm[1]!.resolve(reply(true, 'Yes, this afternoon.'));
    await caller(silence(300));
    await vi.waitFor(() => expect(heard('Yes, this afternoon.') && !player.busy).toBe(true));

    hangup.abort();
    const result = await done;
    expect(heard('We can come today.')).toBe(false);
    expect(result.transcript.map((l) => l.text)).not.toContain('We can come today.');
  });

  it('a short sound while a committed reply is being prepared lets it play', async () => {
    const { done, hangup } = start();
    await greeted();
    await caller(speech(600) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(1));
    stt[0]!.resolve('What time do you open?');
    await vi.waitFor(() => expect(llm).toHaveLength(1));
    await caller(silence(300) + speech(100)); // committed, then "mm"
    llm[0]!.resolve(reply(true, 'We open at 8am.'));
    await vi.waitFor(() => expect(player.busy).toBe(true));
    expect(heard('We open at 8am.')).toBe(false);
    await caller(silence(240)); // it was only a short sound
    await vi.waitFor(() => expect(heard('We open at 8am.') && !player.busy).toBe(true));
    hangup.abort();
    await done;
    expect(stt).toHaveLength(1);
  });
});

describe('AgentConversation: booking (issue 41)', () => {
  it('a "book" reply asks the diary within the turn and says its times; the next model call is shown the step with its ids', async () => {
    const times = ["Tuesday the 3rd of December at ten o'clock", "Tuesday the 3rd of December at eleven o'clock"];
    const desk = new FakeBookingDesk({ slots: fakeSlots(times) });
    const walk = new BookingWalk({ desk, services: [BOILER_SERVICE], callId: 1, callerId: '+447700900777' });
    const { done, hangup } = start({}, { booking: walk });
    await greeted();
    await caller(speech(600) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(1));
    stt[0]!.resolve('Can I book a boiler service on Tuesday?');
    await vi.waitFor(() => expect(llm).toHaveLength(1));
    expect(llm[0]!.messages[0]!.content).toContain('set intent to "book"');
    expect(llm[0]!.messages[0]!.content).not.toContain('BOOKING IN PROGRESS');
    llm[0]!.resolve(JSON.stringify({ intent: 'book', answered: true, answer: '' }));
    await caller(silence(300));
    const offers = `I can do ${times[0]}, or ${times[1]}. Which would suit you?`;
    await vi.waitFor(() => expect(heard(offers) && !player.busy).toBe(true));
    expect(desk.offers).toEqual([{ serviceId: 1, wish: 'Can I book a boiler service on Tuesday?' }]);

    await caller(speech(600) + silence(200));
    await vi.waitFor(() => expect(stt).toHaveLength(2));
    stt[1]!.resolve("Eleven o'clock please.");
    await vi.waitFor(() => expect(llm).toHaveLength(2));
    expect(llm[1]!.messages[0]!.content).toContain(`BOOKING IN PROGRESS:\nYou offered these times: s1 = ${times[0]}; s2 = ${times[1]}.`);
    llm[1]!.resolve(JSON.stringify({ intent: 'book', answered: true, answer: '', choice: 's2' }));
    await caller(silence(300));
    await vi.waitFor(() => expect(heard(BOOKING_LINES.askName) && !player.busy).toBe(true));

    hangup.abort();
    const result = await done;
    expect(result.transcript.map((l) => `${l.speaker}: ${l.text}`).slice(1)).toEqual([
      'Caller: Can I book a boiler service on Tuesday?',
      `Agent: ${offers}`,
      "Caller: Eleven o'clock please.",
      `Agent: ${BOOKING_LINES.askName}`,
    ]);
    expect(unanswered).toEqual([]);
    expect(metrics.map((m) => m.kind)).toEqual(['book', 'book']);
  });
});
