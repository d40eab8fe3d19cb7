#!/usr/bin/env node
// Writes a brotli (.br) and a gzip (.gz) copy next to every text asset of the
// built dashboard (dist/web), so the server sends them as they are instead of
// compressing on each request (@fastify/static's preCompressed option).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'web');
const compressible = /\.(?:html|js|css|svg|json|txt|map)$/;

function filesUnder(directory) {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

let originalBytes = 0;
let brotliBytes = 0;
for (const file of filesUnder(root).filter((name) => compressible.test(name))) {
  const content = fs.readFileSync(file);
  const brotli = zlib.brotliCompressSync(content, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  });
  fs.writeFileSync(`${file}.br`, brotli);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: zlib.constants.Z_BEST_COMPRESSION }));
  originalBytes += content.length;
  brotliBytes += brotli.length;
}
console.log(
  `dashboard assets: ${Math.ceil(originalBytes / 1024)} KiB, ${Math.ceil(brotliBytes / 1024)} KiB with brotli (dist/web)`,
);
