// GET /api/meta tells the console whether the appliance can put calls through (OUTBOUND_ENDPOINT).
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/server.js';

async function metaWith(env: Record<string, string>) {
  const server = await startTestServer({ env });
  try {
    const res = await fetch(`${server.url}/api/meta`);
    expect(res.status).toBe(200);
    return (await res.json()) as { transfersAvailable: boolean };
  } finally {
    await server.close();
  }
}

describe('/api/meta', () => {
  it('says transfers are unavailable without OUTBOUND_ENDPOINT', async () => {
    expect((await metaWith({})).transfersAvailable).toBe(false);
  });

  it('says transfers are available with OUTBOUND_ENDPOINT', async () => {
    expect((await metaWith({ OUTBOUND_ENDPOINT: 'PJSIP/{number}@uk-did' })).transfersAvailable).toBe(true);
  });
});
