import assert from 'node:assert/strict';

export interface JsonAnswer {
  status: number;
  headers: Headers;
  /** The parsed body, null when there was none. */
  body: any;
}

/**
 * A request to a running agentd (a `ServerProcess`'s `url`) with the Bearer
 * key `key` and, when given, a JSON body: its status, headers and parsed
 * body. `secrets` are strings the test gave the service (a bot token, an app
 * password) that must never appear in an answer: the test fails if one does.
 */
export async function callJson(
  origin: string,
  key: string,
  method: string,
  url: string,
  body?: unknown,
  secrets: readonly string[] = [],
): Promise<JsonAnswer> {
  const response = await fetch(`${origin}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  for (const secret of secrets) assert.ok(!text.includes(secret), 'a secret appears in a response');
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}
