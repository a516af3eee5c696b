// RTP fixed header (RFC 3550 §5.1): V=2, P, X, CC, M, PT, sequence, timestamp, SSRC,
// then CSRCs and an optional header extension before the payload.

export interface RtpPacket {
  payloadType: number;
  marker: boolean;
  sequence: number;
  timestamp: number;
  ssrc: number;
  payload: Buffer;
}

export function parseRtp(buf: Buffer): RtpPacket | null {
  if (buf.length < 12) return null;
  const b0 = buf[0]!;
  if (b0 >> 6 !== 2) return null; // not RTP version 2 (e.g. a stray STUN or RTCP packet)
  const padding = (b0 & 0x20) !== 0;
  const extension = (b0 & 0x10) !== 0;
  const csrcCount = b0 & 0x0f;
  const b1 = buf[1]!;
  const payloadType = b1 & 0x7f;
  if (payloadType >= 72 && payloadType <= 76) return null; // RTCP sent to the RTP port (RFC 5761)
  let offset = 12 + csrcCount * 4;
  if (extension) {
    if (buf.length < offset + 4) return null;
    offset += 4 + buf.readUInt16BE(offset + 2) * 4;
  }
  let end = buf.length;
  if (padding) end -= buf[buf.length - 1]!;
  if (offset > end) return null;
  return {
    payloadType,
    marker: (b1 & 0x80) !== 0,
    sequence: buf.readUInt16BE(2),
    timestamp: buf.readUInt32BE(4),
    ssrc: buf.readUInt32BE(8),
    payload: buf.subarray(offset, end),
  };
}

export function buildRtp(p: RtpPacket): Buffer {
  const header = Buffer.alloc(12);
  header[0] = 0x80;
  header[1] = (p.marker ? 0x80 : 0) | (p.payloadType & 0x7f);
  header.writeUInt16BE(p.sequence & 0xffff, 2);
  header.writeUInt32BE(p.timestamp >>> 0, 4);
  header.writeUInt32BE(p.ssrc >>> 0, 8);
  return Buffer.concat([header, p.payload]);
}

/** Signed distance a → b on the 16-bit sequence circle (wraps at 65536). */
export function seqDelta(a: number, b: number): number {
  const d = (b - a) & 0xffff;
  return d >= 0x8000 ? d - 0x10000 : d;
}
