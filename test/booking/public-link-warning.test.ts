import { describe, expect, it } from 'vitest';
import { createLogger } from '../../core/logging/logger.js';
import { startTestServer } from '../helpers/server.js';

/** Issue 57 item 7: booking texts would carry links callers cannot open; the operator is told once, at start-up. */
async function startupWarnings(env: Record<string, string>): Promise<string[]> {
  const lines: string[] = [];
  const log = createLogger({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
  const server = await startTestServer({ env, log, background: { booking: true } });
  await server.close();
  return lines.map((l) => (JSON.parse(l) as { msg: string }).msg).filter((m) => m.startsWith('Booking texts carry links'));
}

describe('the start-up warning about booking links', () => {
  it('is logged once when PUBLIC_URL is unset', async () => {
    const [warning, ...more] = await startupWarnings({});
    expect(warning).toMatch(/^Booking texts carry links to http:\/\/localhost:\d+\/?, which callers cannot open: set PUBLIC_URL to the address this box is reached at \(docs\/configuration\.md\)\.$/);
    expect(more).toEqual([]);
  });

  it('is not logged when PUBLIC_URL is an address callers reach', async () => {
    expect(await startupWarnings({ PUBLIC_URL: 'https://calls.example.co.uk' })).toEqual([]);
  });
});
