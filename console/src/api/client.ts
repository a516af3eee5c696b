// The one place the console talks HTTP (SPEC.md §7, general behaviour of every call).
import { QueryClient, type QueryFunction } from '@tanstack/react-query';

/** A non-OK response. `message` is "{status}: {body text}", or the status text when the body is empty. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly bodyText: string,
    statusText: string,
  ) {
    super(bodyText ? `${status}: ${bodyText}` : statusText || String(status));
    this.name = 'ApiError';
  }
}

/**
 * Sends the session cookie, and a JSON body (with its Content-Type) only when there is one.
 * Never retried: a failed write must not be repeated behind the user's back. Gives the status
 * too, for the few answers whose meaning is in it (201 created versus 200 already there).
 */
export async function apiSend<T = unknown>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<{ status: number; body: T }> {
  const res = await fetch(path, {
    method,
    signal,
    credentials: 'include',
    headers: body !== undefined ? { 'Content-Type': 'application/json' } : undefined,
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new ApiError(res.status, await res.text(), res.statusText);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

export async function apiRequest<T = unknown>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  return (await apiSend<T>(method, path, body, signal)).body;
}

export const apiGet = <T>(path: string, signal?: AbortSignal) => apiRequest<T>('GET', path, undefined, signal);

/** A read that treats 401 as "no data" (signed out) when it opts in; by default 401 is an error. */
export function getQuery<T>(path: string, opts: { on401?: 'returnNull' | 'throw' } = {}): QueryFunction<T | null> {
  // The query's signal lets a cancelled read (sign-out) abort its request instead of landing a 401.
  return async ({ signal }) => {
    try {
      return await apiGet<T>(path, signal);
    } catch (e) {
      if (opts.on401 === 'returnNull' && e instanceof ApiError && e.status === 401) return null;
      throw e;
    }
  };
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Data changes only by explicit invalidation, the Refresh/Retry buttons, or an interval a screen sets.
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: Infinity, refetchInterval: false },
      mutations: { retry: false },
    },
  });
}

/** Sends a WAV recording as the body (an owner's greeting line); the answer is JSON as any other. */
export async function apiSendWav<T = unknown>(method: string, path: string, wav: Blob): Promise<T> {
  const res = await fetch(path, { method, credentials: 'include', headers: { 'Content-Type': 'audio/wav' }, body: wav });
  if (!res.ok) throw new ApiError(res.status, await res.text(), res.statusText);
  return (await res.json()) as T;
}
