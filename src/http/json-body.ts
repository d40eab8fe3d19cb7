import type { FastifyInstance } from 'fastify';
import { validationError } from '../errors.js';

/**
 * JSON bodies, with a bound on nesting. Free-form fields (a message's
 * `context`, platform settings, plugin config) accept any JSON, and a 1 MiB
 * body can nest half a million levels deep: every recursive walk after
 * parsing (JSON.stringify when storing, canonical forms for idempotency,
 * serializers) would then overflow the stack and answer 500. No real
 * payload needs more than a few levels; the bound leaves ample room.
 */
export const maxJsonDepth = 64;

/** Whether `text` opens more than `limit` arrays or objects inside one another, strings aside. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index += 1; // a backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}

/** application/json and (for PATCH) application/merge-patch+json, both through the bounded parser. */
export function registerJsonBodyParsers(app: FastifyInstance, bodyLimitBytes: number): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const boundedParser: typeof parseJson = (request, body, done) => {
    if (typeof body === 'string' && nestsDeeperThan(body, maxJsonDepth)) {
      done(
        validationError('/body', `must not nest arrays and objects more than ${maxJsonDepth} levels deep`),
        undefined,
      );
      return;
    }
    parseJson(request, body, done);
  };
  app.removeContentTypeParser('application/json');
  for (const type of ['application/json', 'application/merge-patch+json']) {
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: bodyLimitBytes }, boundedParser);
  }
}
