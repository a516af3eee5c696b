/**
 * Retries `check` until it returns without throwing, for up to `timeoutMs`; then throws its
 * last error. Like vitest's vi.waitFor, but usable outside the test runner (the benches
 * drive the same harnesses).
 */
export async function waitUntil<T>(check: () => T | Promise<T>, timeoutMs: number, intervalMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() >= end) throw err;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}
