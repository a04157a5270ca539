// One gzip member (RFC 1952) made of parts compressed apart, so a response whose first part is kept (the counters of
// GET /metrics, megabytes) compresses only what is new on each request. A part other than the last ends on a full
// flush: byte-aligned, with no back-reference into it from what follows, so the next part's raw deflate stream can
// follow it as it is; the last part ends the stream. The trailer's CRC-32 runs on from the previous parts' value.
import zlib from 'node:zlib';

export interface GzipPart {
  /** Raw deflate blocks of the part. */
  deflated: Buffer;
  /** CRC-32 of the text up to and including this part (the previous part's value continued). */
  crc: number;
  /** Bytes of text up to and including this part. */
  length: number;
}

/** `text` compressed after `previous` (none: it starts the member); `last`: it ends the member. */
export function gzipPart(text: Buffer, previous: GzipPart | null, last: boolean): GzipPart {
  const { Z_FINISH, Z_FULL_FLUSH } = zlib.constants;
  return {
    deflated: zlib.deflateRawSync(text, { finishFlush: last ? Z_FINISH : Z_FULL_FLUSH }),
    crc: zlib.crc32(text, previous?.crc ?? 0),
    length: (previous?.length ?? 0) + text.length,
  };
}

/** No file name, no time, no extra fields; OS 255: unknown. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);

/** The member's bytes: header, every part's blocks in order, trailer (the last part's CRC and length). */
export function gzipMember(parts: readonly GzipPart[]): Buffer[] {
  const end = parts[parts.length - 1]!;
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(end.crc >>> 0, 0);
  trailer.writeUInt32LE(end.length % 2 ** 32, 4);
  return [HEADER, ...parts.map((p) => p.deflated), trailer];
}

/** Whether the request's Accept-Encoding takes gzip (a q of 0 refuses it). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  for (const item of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [coding, ...params] = item.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== 'x-gzip') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}
