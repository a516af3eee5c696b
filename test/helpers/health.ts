import { ADMIN } from './accounts.js';
import { ApiClient } from './client.js';

export interface HealthReport {
  status: 'ok' | 'unavailable';
  components: Record<string, { ok: boolean; detail?: string }>;
}

/**
 * /healthz as an administrator reads it: each component's report (PBX link, agent media...),
 * which a signed-out request no longer gets. Signs in once; the returned function asks again
 * on that session, so a test can poll it.
 */
export async function adminHealth(baseUrl: string, admin: { email: string; password: string } = ADMIN): Promise<() => Promise<HealthReport>> {
  const client = new ApiClient(baseUrl);
  const login = await client.post('/api/auth/login', admin);
  if (login.status !== 200) throw new Error(`admin login for /healthz failed: ${login.status} ${login.text}`);
  return async () => {
    const res = await client.get<HealthReport>('/healthz');
    if (!res.body?.components) throw new Error(`/healthz gave no components: ${res.status} ${res.text}`);
    return res.body;
  };
}
