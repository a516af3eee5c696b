import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { UserResponse } from '../../contract/schemas/users.js';
import type { App } from '../../core/http/fastify-types.js';
import { requireResponseSchemas } from '../../core/http/response-schemas.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer } from '../helpers/server.js';

// Issue 15 item 4: every /api route declares its answer, and what the schema does not list never leaves.

const scope = () => {
  const app = Fastify().withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
  requireResponseSchemas(app);
  return app;
};

describe('response schemas', () => {
  it('stop the server from starting when an /api route declares no answer', async () => {
    const app = scope();
    await expect(
      app.register(async (api: App) => {
        api.get('/api/forgotten', async () => ({ ok: true }));
      }),
    ).rejects.toThrow('GET /api/forgotten declares no response schema');
  });

  it('let a route that answers audio or TwiML say so instead', async () => {
    const app = scope();
    app.get('/api/audio', { config: { rawReply: true } }, async (_req, reply) => reply.type('audio/wav').send(Buffer.from('RIFF')));
    await app.ready();
    expect((await app.inject('/api/audio')).headers['content-type']).toBe('audio/wav');
    await app.close();
  });

  it('drop fields the schema does not list, such as a password hash', async () => {
    const app = scope();
    const server = await startTestServer();
    try {
      const owner = await activeCustomer(server);
      const me = (await owner.client.get('/api/auth/me')).body.user as Record<string, unknown>;
      app.get('/api/me', { schema: { response: { 200: UserResponse } } }, async () => ({ user: { ...me, passwordHash: '$argon2id$secret' } }) as never);
      const sent = (await app.inject('/api/me')).json() as { user: Record<string, unknown> };
      expect(sent.user.email).toBe(owner.email);
      expect(sent.user).not.toHaveProperty('passwordHash');
      expect(Object.keys(sent.user).sort()).toEqual(Object.keys(me).sort());
    } finally {
      await app.close();
      await server.close();
    }
  });
});
