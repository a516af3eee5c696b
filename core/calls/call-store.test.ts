import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client.js';
import { users } from '../../test/helpers/tables.js';
import { findCallByChannel, finishCall, openCall, openCalls } from './call-store.js';

let handle: DatabaseHandle;
let userId: number;

beforeEach(async () => {
  handle = openDatabase(':memory:');
  userId = (await handle.db.insert(users).values({ email: 'o@example.co.uk', passwordHash: 'x' }).returning())[0]!.id;
});
afterEach(() => handle.close());

const call = (channelId = '1700000000.1') => ({
  userId,
  channelId,
  fromNumber: '+447700900999',
  toNumber: '+447700900001',
  mode: 'voicemail' as const,
  createdAt: new Date('2026-03-01T12:00:00.250Z'),
});

describe('call store', () => {
  it('opens a call as missed with no duration until it is finished', async () => {
    const { call: row, existing } = await openCall(handle.db, call());
    expect(existing).toBe(false);
    expect(row).toMatchObject({ status: 'missed', duration: 0, endedAt: null, createdAt: new Date('2026-03-01T12:00:00.250Z') });
    expect((await openCalls(handle.db, 'node-1')).map((c) => c.id)).toEqual([row.id]);
  });

  it("lists only its own node's open calls: another node's live calls are not this node's to finish", async () => {
    const here = (await openCall(handle.db, { ...call('a-1700000000.1'), node: 'a' })).call;
    const there = (await openCall(handle.db, { ...call('b-1700000000.1'), node: 'b' })).call;
    expect(here.node).toBe('a');
    expect((await openCalls(handle.db, 'a')).map((c) => c.id)).toEqual([here.id]);
    expect((await openCalls(handle.db, 'b')).map((c) => c.id)).toEqual([there.id]);
  });

  it('stores the caller and the dialled number in E.164 whatever spelling the trunk sent', async () => {
    const { call: row } = await openCall(handle.db, { ...call(), fromNumber: '07700 922222', toNumber: '447700900001' });
    expect(row).toMatchObject({ fromNumber: '+447700922222', toNumber: '+447700900001' });
    const withheld = (await openCall(handle.db, { ...call('1700000000.2'), fromNumber: 'anonymous' })).call;
    expect(withheld.fromNumber).toBe('anonymous');
  });

  it('returns the first row when the same channel is opened again, never a second row', async () => {
    const first = await openCall(handle.db, call());
    const again = await openCall(handle.db, { ...call(), mode: 'unavailable' });
    expect(again).toEqual({ call: first.call, existing: true });
    expect((await findCallByChannel(handle.db, '1700000000.1'))?.mode).toBe('voicemail');
  });

  it('finishes a call once; a second finish changes nothing', async () => {
    const { call: row } = await openCall(handle.db, call());
    const endedAt = new Date('2026-03-01T12:00:31Z');
    expect(await finishCall(handle.db, row.id, { status: 'voicemail', duration: 31, endedAt, recordingFile: `call-${row.id}.wav` })).toBe(true);
    expect(await finishCall(handle.db, row.id, { status: 'missed', duration: 0, endedAt, recordingFile: null })).toBe(false);
    expect(await findCallByChannel(handle.db, '1700000000.1')).toMatchObject({ status: 'voicemail', duration: 31, recordingFile: `call-${row.id}.wav` });
    expect(await openCalls(handle.db, 'node-1')).toEqual([]);
  });
});
