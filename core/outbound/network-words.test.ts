import { describe, expect, it } from 'vitest';
import { networkErrorWords } from './network-words.js';

const failed = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe('a failed connection in plain words', () => {
  it('says what a known code means, keeping the code at the end', () => {
    expect(networkErrorWords(failed('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED'))).toBe('nothing answered at that address (the connection was refused) (ECONNREFUSED)');
    expect(networkErrorWords(failed('getaddrinfo ENOTFOUND hooks.example', 'ENOTFOUND'))).toBe('that name was not found: check the address is spelt right (ENOTFOUND)');
  });

  it('keeps the message of an error it has no words for', () => {
    expect(networkErrorWords(failed('socket hang up', 'EWHATEVER'))).toBe('socket hang up (EWHATEVER)');
    expect(networkErrorWords(failed('something odd'))).toBe('something odd');
  });
});
