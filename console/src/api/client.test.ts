import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, createQueryClient, getQuery } from './client';

const fetchMock = vi.fn();
vi.stubGlobal('fetch', fetchMock);
afterEach(() => fetchMock.mockReset());

const respond = (status: number, body: string, statusText = '') => fetchMock.mockResolvedValueOnce(new Response(body || null, { status, statusText }));

describe('api client (SPEC.md §7 general behaviour)', () => {
  it('sends the cookie, and JSON with its Content-Type only when there is a body', async () => {
    respond(200, '{"ok":true}');
    await apiRequest('POST', '/api/auth/login', { email: 'a@b.co', password: 'x' });
    expect(fetchMock).toHaveBeenLastCalledWith('/api/auth/login', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: '{"email":"a@b.co","password":"x"}',
    });
    respond(200, '');
    await apiRequest('POST', '/api/phone-numbers/purchase');
    expect(fetchMock).toHaveBeenLastCalledWith('/api/phone-numbers/purchase', { method: 'POST', credentials: 'include', headers: undefined, body: undefined });
  });

  it('fails with "{status}: {body}", or the status text when the body is empty', async () => {
    respond(400, '{"message":"Bad"}');
    await expect(apiRequest('GET', '/x')).rejects.toThrow('400: {"message":"Bad"}');
    respond(502, '', 'Bad Gateway');
    await expect(apiRequest('GET', '/x')).rejects.toThrow(/^Bad Gateway$/);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('turns 401 into null only for reads that opt in', async () => {
    respond(401, '{"message":"Not signed in."}');
    expect(await getQuery('/api/auth/me', { on401: 'returnNull' })({} as never)).toBeNull();
    respond(401, '{"message":"Not signed in."}');
    await expect(getQuery('/api/call-logs')({} as never)).rejects.toBeInstanceOf(ApiError);
  });

  it('never retries, never refetches on focus, never goes stale on its own', () => {
    const d = createQueryClient().getDefaultOptions();
    expect(d.queries).toMatchObject({ retry: false, refetchOnWindowFocus: false, staleTime: Infinity });
    expect(d.mutations).toMatchObject({ retry: false });
  });
});
