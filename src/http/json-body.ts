import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, validationError } from '../errors.js';

/**
 * JSON bodies, with a bound on nesting. Free-form fields (a message's
 * `context`, platform settings, plugin config) accept any JSON, and a 1 MiB
 * body can nest half a million levels deep: every recursive walk after
 * parsing (JSON.stringify when storing, canonical forms for idempotency,
 * serializers) would then overflow the stack and answer 500. No real
 * payload needs more than a few levels; the bound leaves ample room.
 */
export const maxJsonDepth = 64;

/**
 * Whether `text` opens more than `limit` arrays or objects inside one another, strings aside.
 * A string is skipped with indexOf to its closing quote (native, and fast over a megabyte of
 * base64 image), a quote after an odd number of backslashes being escaped.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      let end = index;
      for (;;) {
        end = text.indexOf('"', end + 1);
        // Unterminated: not JSON, which the parser reports.
        if (end === -1) return false;
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes += 1;
        if (backslashes % 2 === 0) break;
      }
      index = end;
    } else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}

const hasOwn = (value: object, key: string) => Object.prototype.hasOwnProperty.call(value, key);

/**
 * Whether a parsed value holds what prototype poisoning needs: an own
 * `__proto__` key, or a `constructor` with a `prototype` (the keys
 * secure-json-parse refuses). Walking the parsed keys costs what the body has
 * keys, where that library's scan of the text costs what it has bytes (a
 * megabyte of base64 image); the depth was bounded before.
 */
export function holdsPrototypeKeys(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(holdsPrototypeKeys);
  if (hasOwn(value, '__proto__')) return true;
  const constructor = (value as { constructor?: unknown }).constructor;
  if (hasOwn(value, 'constructor') && constructor !== null && typeof constructor === 'object') {
    if (hasOwn(constructor, 'prototype')) return true;
  }
  for (const key in value) {
    if (holdsPrototypeKeys((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/** application/json and (for PATCH) application/merge-patch+json, both through the bounded parser. */
export function registerJsonBodyParsers(app: FastifyInstance, bodyLimitBytes: number): void {
  // Fastify's own parser (secure-json-parse) gives every refusal its error: bodies that are not plain JSON go to it.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const boundedParser: typeof parseJson = (request, body, done) => {
    if (typeof body !== 'string') {
      parseJson(request, body, done);
      return;
    }
    if (nestsDeeperThan(body, maxJsonDepth)) {
      done(
        validationError('/body', `must not nest arrays and objects more than ${maxJsonDepth} levels deep`),
        undefined,
      );
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      parseJson(request, body, done);
      return;
    }
    if (holdsPrototypeKeys(parsed)) {
      parseJson(request, body, done);
      return;
    }
    done(null, parsed);
  };
  app.removeContentTypeParser('application/json');
  for (const type of ['application/json', 'application/merge-patch+json']) {
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: bodyLimitBytes }, boundedParser);
  }
}

/**
 * For the routes that take JSON or multipart/form-data and give their body
 * schema per media type (messages, knowledge documents): a body of another
 * type the server can parse (application/merge-patch+json) would reach the
 * handler unchecked, so it is refused before it is read.
 */
export async function jsonOrMultipartOnly(request: FastifyRequest): Promise<void> {
  const type = request.headers['content-type'];
  if (type === undefined) return;
  const media = type.split(';', 1)[0]!.trim().toLowerCase();
  if (media === 'application/json' || media === 'multipart/form-data') return;
  throw new AppError('unsupported_media_type', 'Send the body as application/json or multipart/form-data.');
}
