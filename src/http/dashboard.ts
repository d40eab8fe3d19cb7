import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../package-root.js';

/**
 * The web dashboard at `/`: the static files `npm run build` writes to
 * dist/web (web/ holds their sources).
 */
export const dashboardDirectory = path.join(packageRoot, 'dist', 'web');

/**
 * The dashboard's pages load only their own scripts, styles and API: no
 * inline script or style element, no other origin, never framed (its pages
 * hold an API key in session storage, so clickjacking and injected scripts are
 * what this guards against). uPlot styles its canvas through the CSSOM, which
 * style-src does not govern.
 */
export const dashboardContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Everything under assets/ is written by Vite with a hash of its content in
 * its name (web/vite.config.ts has no public directory): such a file never
 * changes, so browsers keep it a year. index.html is checked on every load.
 */
function dashboardHeaders(directory: string) {
  const assets = `${path.join(directory, 'assets')}${path.sep}`;
  return (response: { setHeader(name: string, value: string): unknown }, filePath: string): void => {
    const hashed = path.resolve(filePath).startsWith(assets);
    response.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    // The body depends on Accept-Encoding (a .br, .gz or plain copy): caches must keep them apart.
    response.setHeader('vary', 'accept-encoding');
    response.setHeader('content-security-policy', dashboardContentSecurityPolicy);
    response.setHeader('x-content-type-options', 'nosniff');
    response.setHeader('referrer-policy', 'no-referrer');
    response.setHeader('x-frame-options', 'DENY');
    response.setHeader('cross-origin-opener-policy', 'same-origin');
  };
}

/**
 * Serves the built dashboard, or nothing when it was not built (running from
 * src/ without `npm run build`): the API does not depend on it. One route per
 * file (no wildcard), so every other path keeps the API's not-found problem;
 * the .br and .gz copies written at build time are sent to browsers that
 * accept them instead of compressing on every request.
 */
export async function registerDashboard(app: FastifyInstance, directory = dashboardDirectory): Promise<boolean> {
  if (!fs.existsSync(path.join(directory, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root: directory,
    prefix: '/',
    wildcard: false,
    preCompressed: true,
    globIgnore: ['**/*.br', '**/*.gz'],
    decorateReply: false,
    index: ['index.html'],
    // The cache headers are set by dashboardHeaders alone, per file.
    cacheControl: false,
    etag: true,
    lastModified: false,
    setHeaders: dashboardHeaders(path.resolve(directory)),
  });
  return true;
}
