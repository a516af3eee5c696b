import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const TEXT = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;

/** The bytes a browser receives for a file: brotli at maximum quality, gzip at level 9 (done once, at build time). */
export function compressForWire(data: Buffer | string): { br: Buffer; gz: Buffer } {
  const buf = typeof data === 'string' ? Buffer.from(data) : data;
  return {
    br: brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: buf.length } }),
    gz: gzipSync(buf, { level: 9 }),
  };
}

/**
 * Writes `file.br` and `file.gz` beside every text file of the build. The core serves them
 * by Accept-Encoding (@fastify/static `preCompressed`), so no request pays for compression
 * and the maximum levels cost nothing at run time.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      const walk = (dir: string): string[] =>
        fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
      for (const file of walk(outDir).filter((f) => TEXT.test(f))) {
        const { br, gz } = compressForWire(fs.readFileSync(file));
        fs.writeFileSync(`${file}.br`, br);
        fs.writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}
