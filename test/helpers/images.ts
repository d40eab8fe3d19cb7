import zlib from 'node:zlib';

/**
 * Real, tiny images made in code: a PNG is its signature, an IHDR chunk with
 * the size, an IDAT chunk of deflated scanlines and an IEND chunk, each with
 * its CRC-32 (RFC 2083), so any decoder and image-size library reads it.
 */

const crcTable = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (crcTable[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** An RGB PNG of `width`×`height` pixels, all of one colour. */
export function tinyPng(width = 3, height = 2, rgb: [number, number, number] = [200, 30, 30]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A PNG of about `bytes` bytes: random pixels do not compress, so the size is
 * chosen by the pixel count (for size caps and the attachment benchmark).
 */
export function pngOfAbout(bytes: number): Buffer {
  const width = 512;
  const height = Math.max(1, Math.ceil(bytes / (width * 3 + 1)));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let index = 0; index < raw.length; index += 1) raw[index] = (index * 2654435761) >>> 24;
  for (let line = 0; line < height; line += 1) raw[line * (width * 3 + 1)] = 0;
  const pixels = zlib.deflateSync(raw, { level: 0 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The first bytes of a BMP: an image, but of a type agentd does not take. */
export function bmpHeader(): Buffer {
  const bytes = Buffer.alloc(64);
  bytes.write('BM', 0, 'ascii');
  bytes.writeUInt32LE(64, 2);
  return bytes;
}
