// The Stasis app fed arbitrary sequences of ARI events: duplicated, out of order, for
// channels it never saw, with lost ones. Whatever arrives, it never throws, and once
// every channel has left, each call to a real business has exactly one finished row,
// announced to the post-call pipeline exactly once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallPath } from '../../core/calls/call-path.js';
import { openDatabase, type DatabaseHandle } from '../../core/db/client.js';
import { calls, phoneNumbers, users } from '../helpers/tables.js';
import { AriNotFoundError, type AriEvent, type AriRest, type ChannelSnapshot } from '../../pbx/ari/types.js';
import { createRecordingRetries } from '../../pbx/recordings/recording-retries.js';
import { localDisk } from '../../pbx/recordings/disk.js';
import { StasisApp } from '../../pbx/stasis-app.js';

const APP = 'call-answering';
const DID = '+447700900777';
let dir: string;
let handle: DatabaseHandle;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ari-fuzz-'));
  handle = openDatabase(path.join(dir, 'fuzz.db'));
  const owner = (await handle.db.insert(users).values({ email: 'fuzz@example.co.uk', passwordHash: 'x', accountStatus: 'active', businessName: 'Fuzz Ltd' }).returning())[0]!;
  await handle.db.insert(phoneNumbers).values({ phoneNumber: DID, provider: 'static', providerSid: DID, userId: owner.id });
});
afterAll(async () => {
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const stamp = (ms: number) => new Date(ms).toISOString().replace('Z', '+0000');

/** ARI that accepts every request and knows nothing afterwards (as after a hang-up). */
const rest: AriRest = {
  answer: async () => {},
  play: async () => {},
  stopPlayback: async () => {},
  record: async () => {},
  hangup: async () => {},
  getChannel: async () => null,
  appChannelIds: async () => [],
  filterEvents: async () => {},
  setGlobalVariable: async () => {},
  getPlayback: async () => null,
  getLiveRecording: async () => null,
  storedRecordingExists: async () => false,
  fetchStoredRecording: async () => {
    throw new AriNotFoundError('Recording not found');
  },
  deleteStoredRecording: async () => {},
} as unknown as AriRest;

const quiet = { info() {}, warn() {}, error() {} };

let run = 0;

describe('ARI event handling', () => {
  it('never throws on arbitrary event sequences and finishes every call exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            type: fc.constantFrom(
              'StasisStart', 'StasisStart', 'ChannelStateChange', 'PlaybackStarted', 'PlaybackFinished', 'RecordingStarted',
              'RecordingFinished', 'RecordingFailed', 'ChannelDtmfReceived', 'ChannelTalkingStarted', 'ChannelTalkingFinished',
              'ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed', 'SomethingNew',
            ),
            channel: fc.constantFrom('a', 'b', 'c'),
            app: fc.constantFrom(APP, APP, APP, 'other-app'),
            did: fc.constantFrom(DID, DID, '+447700900000'),
            state: fc.constantFrom('done', 'failed', 'canceled'),
          }),
          { maxLength: 30 },
        ),
        async (script) => {
          run++;
          const id = (c: string) => `fuzz-${run}-${c}`;
          const announced: number[] = [];
          const callPath = createCallPath(handle.db, quiet);
          const app = new StasisApp({
            app: APP,
            rest,
            callPath,
            prompts: { get: async () => ({ mediaUri: 'sound:appliance/x', file: '/dev/null', durationMs: 1000 }) },
            log: quiet,
            recordingsDir: path.join(dir, 'recordings'),
            disk: localDisk,
            now: () => new Date(),
            callFinished: [(callId) => announced.push(callId)],
            // Never started: a failed store is only queued here, as the PBX does before Asterisk is reachable.
            recordingRetries: createRecordingRetries({ callPath, rest, log: quiet, recordingsDir: path.join(dir, 'recordings'), disk: localDisk, callFinished: [] }),
            limits: { maxDurationSeconds: 30, maxSilenceSeconds: 3 },
          });
          const dids = new Map<string, Set<string>>(); // channel → DIDs of its StasisStarts to this app
          const t0 = Date.now();
          const channel = (c: string): ChannelSnapshot => ({
            id: id(c),
            name: `PJSIP/trunk-${c}`,
            state: 'Ring',
            caller: { name: '', number: '+447700900123' },
            dialplan: { context: 'from-trunk', exten: DID, app_name: 'Stasis', app_data: `${APP},${DID}` },
            creationtime: stamp(t0),
          });
          const send = (e: Omit<AriEvent, 'timestamp'>) => expect(() => app.onEvent({ timestamp: stamp(Date.now()), ...e })).not.toThrow();
          for (const step of script) {
            const ch = channel(step.channel);
            if (step.type === 'StasisStart' && step.app === APP) dids.set(step.channel, (dids.get(step.channel) ?? new Set()).add(step.did));
            send({
              type: step.type,
              application: step.app,
              channel: ch,
              args: step.type === 'StasisStart' ? [step.did] : undefined,
              playback: { id: `pb-${ch.id}-1`, media_uri: 'sound:beep', target_uri: `channel:${ch.id}`, state: step.state } as AriEvent['playback'],
              recording: { name: `call-x`, target_uri: `channel:${ch.id}`, state: step.state, format: 'wav' } as AriEvent['recording'],
              digit: '#',
              duration: 1200,
            });
            await new Promise((r) => setImmediate(r));
          }
          // Every channel leaves, whatever happened before (a duplicate of any of these is harmless).
          for (const c of ['a', 'b', 'c']) {
            for (const type of ['ChannelHangupRequest', 'StasisEnd', 'ChannelDestroyed']) send({ type, application: APP, channel: channel(c), cause: 16 });
          }
          await app.drain(15_000);

          for (const c of ['a', 'b', 'c']) {
            const rows = (await handle.db.select().from(calls)).filter((r) => r.channelId === id(c));
            const seen = dids.get(c) ?? new Set<string>();
            // A channel that re-enters Stasis keeps its one row; one that only ever reached an
            // unknown number has none; one that reached the business always has one.
            expect(rows.length).toBeLessThanOrEqual(1);
            if (!seen.has(DID)) expect(rows).toHaveLength(0);
            if (seen.size === 1 && seen.has(DID)) expect(rows).toHaveLength(1);
            if (rows.length) {
              expect(rows[0]!.endedAt).not.toBeNull();
              expect(announced.filter((n) => n === rows[0]!.id)).toHaveLength(1);
            }
          }
          expect(app.activeCalls).toBe(0);
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);
});
