// HTTP Range for one resource (RFC 9110 §14): what a browser's <audio> sends to seek.

export type ByteRange =
  /** Serve the whole file with 200 (no Range, a syntax we ignore, or several ranges). */
  | { kind: 'full' }
  /** Serve bytes start..end inclusive with 206. */
  | { kind: 'partial'; start: number; end: number }
  /** 416 with `Content-Range: bytes *\/size`. */
  | { kind: 'unsatisfiable' };

const SINGLE = /^bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i;

/**
 * Reads a Range header against a resource of `size` bytes. A header we cannot read is
 * ignored (RFC 9110 lets a server do so), as is a multi-range request: players never
 * need multipart/byteranges, and the full body is always a correct answer.
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange {
  if (!header) return { kind: 'full' };
  const m = SINGLE.exec(header);
  if (!m) return { kind: 'full' };
  const [, first = '', last = ''] = m;
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    // bytes=-n: the last n bytes.
    const n = Number(last);
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Number.MAX_SAFE_INTEGER : Number(last);
  // first > last is a malformed range (ignored); a start at or past the end is unsatisfiable.
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}

/** The Content-Range value for a 206 or (with no range) a 416. */
export function contentRange(size: number, range?: { start: number; end: number }): string {
  return range ? `bytes ${range.start}-${range.end}/${size}` : `bytes */${size}`;
}
