import { describe, expect, it } from 'vitest';
import { chooseEvictions, type FolderFile } from '../../models/tts/prompt-budget.js';

const key = (c: string) => `${c.repeat(64)}.wav`;
const file = (name: string, bytes: number, lastUsedMs: number): FolderFile => ({ name, bytes, lastUsedMs });

describe('the prompts folder budget (issue 24 item 3)', () => {
  it('deletes nothing while the folder is within its cap', () => {
    expect(chooseEvictions([file(key('a'), 100, 1), file(key('b'), 100, 2)], 200, new Set())).toEqual([]);
  });

  it('deletes the least recently used prompts first, only as many as bring it under the cap', () => {
    const files = [file(key('c'), 100, 30), file(key('a'), 100, 10), file(key('d'), 100, 40), file(key('b'), 100, 20)];
    expect(chooseEvictions(files, 250, new Set())).toEqual([key('a'), key('b')]);
  });

  it('counts files it may not delete (another writer\'s, a synthesis in progress) but deletes only prompts it can make again', () => {
    const files = [file('notes.txt', 500, 0), file(`.${key('e')}.123.abcd.wav`, 100, 1), file(key('a'), 100, 50), file(key('b'), 100, 60)];
    // 800 bytes against a cap of 650: the two prompts go, oldest first, though the odd files are older.
    expect(chooseEvictions(files, 650, new Set())).toEqual([key('a'), key('b')]);
  });

  it('never deletes a prompt a live call holds, even the least recently used: the next one goes instead', () => {
    const files = [file(key('a'), 100, 10), file(key('b'), 100, 20), file(key('c'), 100, 30)];
    expect(chooseEvictions(files, 200, new Set([key('a')]))).toEqual([key('b')]);
  });

  it('when what it may not delete is over the cap alone, deletes every other prompt and stops there', () => {
    const files = [file(key('a'), 300, 10), file(key('b'), 100, 20), file(key('c'), 100, 30)];
    expect(chooseEvictions(files, 200, new Set([key('a')]))).toEqual([key('b'), key('c')]);
  });
});
