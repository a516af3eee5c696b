// After an upgrade a page still holding the old index.html asks for chunks the server no
// longer has (404). The cure is one reload, which fetches the new index.html; a failure soon
// after that reload is not cured by another, so the user gets a card instead of a loop.

const KEY = 'chunk-reload-at';
/** Long enough for a slow phone to reload and fail again; short enough that the next upgrade gets its reload. */
export const RELOAD_WINDOW_MS = 60_000;

/** The messages browsers give a failed dynamic import or a failed chunk stylesheet. */
const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading (CSS )?chunk .* failed/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_ERROR.test(error.message);
}

type Store = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * Whether a chunk failure should reload the app: yes unless the app was reloaded for the
 * same reason within the window. Records the reload when it says yes. The mark lives in
 * sessionStorage: one tab, surviving the reload.
 */
export function claimReload(now: number = Date.now(), store: Store = sessionStorage): boolean {
  const last = Number(store.getItem(KEY));
  if (Number.isFinite(last) && last > 0 && now - last < RELOAD_WINDOW_MS) return false;
  store.setItem(KEY, String(now));
  return true;
}
