import { describe, expect, it } from 'vitest';
import { maskUrl } from './mask-url.js';

describe('maskUrl', () => {
  it.each([
    ['smtp://mailer:s3cret-pw@mail.example.co.uk:587', 'smtp://mailer:***@mail.example.co.uk:587'],
    ['postgres://appliance:p%40ss@db:5432/appliance', 'postgres://appliance:***@db:5432/appliance'],
    // URLs a configuration check refuses: an unencoded "@", "/" or space in the password.
    ['http://ari:p@ss/word@asterisk:8088', 'http://ari:***@asterisk:8088'],
    ['htp://user:has space@ollama:11434', 'htp://user:***@ollama:11434'],
    ['turn:alice:turn-secret@box.example.co.uk:3478', 'turn:alice:***@box.example.co.uk:3478'],
    ['http://user:pw1@gpu-a:11434,http://gpu-b:11434,http://u:pw2@gpu-c:11434', 'http://user:***@gpu-a:11434,http://gpu-b:11434,http://u:***@gpu-c:11434'],
  ])('%s → %s', (raw, shown) => {
    expect(maskUrl(raw)).toBe(shown);
  });

  it.each(['http://ollama:11434', 'https://api.twilio.example/2010', 'smtp://mailer@mail.example.co.uk', 'turn:box.example.co.uk:3478', 'not a url'])(
    'leaves %s as it is (no password in it)',
    (raw) => {
      expect(maskUrl(raw)).toBe(raw);
    },
  );
});
