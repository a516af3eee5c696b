// Keyset paging over (created_at, id), the order of calls_user_created_idx: a page costs
// the same at call 100 000 as at call 1, unlike OFFSET.

export interface CallLogCursor {
  createdAtMs: number;
  id: number;
}

/** "<createdAt ms>-<id>": opaque to the console, which only hands back nextCursor. */
export function encodeCallLogCursor(c: CallLogCursor): string {
  return `${c.createdAtMs}-${c.id}`;
}

export function decodeCallLogCursor(raw: string): CallLogCursor | undefined {
  const m = /^(\d{1,15})-(\d{1,15})$/.exec(raw);
  if (!m) return undefined;
  return { createdAtMs: Number(m[1]), id: Number(m[2]) };
}
