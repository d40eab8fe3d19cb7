import type { FuzzTarget } from './fuzz-target.js';
import { knownDatasetPlaceholder, type FuzzRequest, type IdChoice } from './request-arbitrary.js';

/** The bytes of a generated request against one running target. */

function idText(choice: IdChoice, target: FuzzTarget): string {
  if ('literal' in choice) return choice.literal;
  const pool = target.pools[choice.pool];
  return pool[choice.index % pool.length] as string;
}

export function pathOf(request: FuzzRequest, target: FuzzTarget): string {
  // The pools pair own webhooks and own deliveries by position (delivery i belongs to webhook i): a delivery
  // named under an own webhook is taken from the same position, so such paths can name a delivery that exists.
  // Runs, tasks and approvals pair with own agents the same way.
  let webhookIndex: number | null = null;
  let agentIndex: number | null = null;
  const path = request.path
    .map((part) => {
      if (typeof part === 'string') return part;
      if ('pool' in part && part.pool === 'ownWebhook') webhookIndex = part.index;
      if ('pool' in part && part.pool === 'ownAgent') agentIndex = part.index;
      if ('pool' in part && part.pool === 'ownDelivery' && webhookIndex !== null) {
        return idText({ pool: part.pool, index: webhookIndex }, target);
      }
      if (
        'pool' in part &&
        (part.pool === 'ownRun' || part.pool === 'ownTask' || part.pool === 'ownApproval' || part.pool === 'ownEval') &&
        agentIndex !== null
      ) {
        return idText({ pool: part.pool, index: agentIndex }, target);
      }
      return idText(part, target);
    })
    .join('');
  return request.query ? `${path}?${request.query}` : path;
}

function authorizationHeaders(request: FuzzRequest, target: FuzzTarget): string[] {
  const choice = request.authorization;
  if ('key' in choice) return [`Bearer ${target.keys[choice.key]}`];
  if ('duplicated' in choice) return [`Bearer ${target.keys.owner}`, `Bearer ${target.keys.otherAccount}`];
  return choice.header === null ? [] : [choice.header];
}

/** A body naming the known dataset (request-arbitrary.ts) names the target's, an id of the same length. */
function withKnownDataset(body: Buffer, target: FuzzTarget): Buffer {
  const at = body.indexOf(knownDatasetPlaceholder);
  const own = target.pools.knownEvalDataset[0];
  if (at < 0 || own === undefined || own.length !== knownDatasetPlaceholder.length) return body;
  const copy = Buffer.from(body);
  copy.write(own, at, 'utf8');
  return copy;
}

function chunked(body: Buffer): Buffer {
  const pieces: Buffer[] = [];
  for (let offset = 0; offset < body.length; offset += 4096) {
    const piece = body.subarray(offset, offset + 4096);
    pieces.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(pieces);
}

export function renderRequest(request: FuzzRequest, target: FuzzTarget): Buffer {
  const lines: Array<string | Buffer> = [`${request.method} ${pathOf(request, target)} HTTP/1.1`];
  lines.push(`Host: 127.0.0.1:${target.server.port}`);
  for (const value of authorizationHeaders(request, target)) lines.push(`Authorization: ${value}`);
  for (const type of request.contentTypes) lines.push(`Content-Type: ${type}`);
  for (const [name, value] of request.headers) {
    lines.push(Buffer.concat([Buffer.from(`${name}: `, 'latin1'), Buffer.from(value)]));
  }
  lines.push('Connection: close');
  const body = withKnownDataset(request.body ?? Buffer.alloc(0), target);
  let payload = body;
  if (request.body !== null) {
    if (request.framing === 'content-length') lines.push(`Content-Length: ${body.length}`);
    if (request.framing === 'short-length') lines.push(`Content-Length: ${Math.max(0, body.length - 1)}`);
    if (request.framing === 'chunked' || request.framing === 'both') {
      lines.push('Transfer-Encoding: chunked');
      payload = chunked(body);
    }
    if (request.framing === 'both') lines.push(`Content-Length: ${body.length}`);
  }
  const head = lines.map((line) => (typeof line === 'string' ? Buffer.from(line, 'latin1') : line));
  return Buffer.concat([...head.flatMap((line) => [line, Buffer.from('\r\n')]), Buffer.from('\r\n'), payload]);
}
