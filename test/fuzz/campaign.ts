import fc from 'fast-check';
import type { FuzzTarget } from './fuzz-target.js';
import { invariantViolation } from './invariants.js';
import { sendRaw } from '../helpers/raw-http.js';
import type { FuzzRequest } from './request-arbitrary.js';
import { pathOf, renderRequest } from './render-request.js';

/**
 * Sends generated requests to a target and checks every answer. Requests are
 * drawn in blocks of `blockSize` from a seed of `seed + block`, so the
 * request at `block:index` can be drawn again alone (`--replay block:index`)
 * without generating everything before it.
 */

export interface CampaignOptions {
  target: FuzzTarget;
  arbitrary: fc.Arbitrary<FuzzRequest>;
  seed: number;
  requests: number;
  concurrency: number;
  /** Only this request, e.g. from a failure report. */
  replay?: { block: number; index: number };
  timeoutMs?: number;
  onProgress?: (sent: number) => void;
}

export interface Failure {
  replay: string;
  operation: string;
  request: string;
  reason: string;
  body: string;
}

export interface CampaignResult {
  sent: number;
  durationMs: number;
  /**
   * Responses by status; `none` counts requests without an answer, `reset` those whose over-limit
   * body was cut off by the server's close before its answer could be read.
   */
  byStatus: Record<string, number>;
  /** Answers below 300 by operation: shows the fuzzer got past validation on every route. */
  successesByOperation: Record<string, number>;
  /** Every answer that broke the invariant; the first 50 are kept in `failures`. */
  violations: number;
  failures: Failure[];
  /** Set when the server process ended during the run. */
  crashed: string | null;
}

export const blockSize = 500;
const keptFailures = 50;

export function drawBlock(arbitrary: fc.Arbitrary<FuzzRequest>, seed: number, block: number): FuzzRequest[] {
  return fc.sample(arbitrary, { seed: seed + block, numRuns: blockSize });
}

function describe(request: FuzzRequest, target: FuzzTarget): string {
  const path = pathOf(request, target);
  const body = request.body
    ? ` body ${request.body.length} bytes: ${request.body.subarray(0, 200).toString('utf8')}`
    : '';
  const headers = [
    ...request.contentTypes.map((type) => `content-type: ${type.slice(0, 80)}`),
    ...request.headers.map(([name, value]) => `${name}: ${String(value).slice(0, 80)}`),
  ];
  return `${request.method.slice(0, 20)} ${path.slice(0, 300)} [${headers.join('; ')}; framing ${request.framing}]${body}`;
}

export async function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const { target, arbitrary, seed } = options;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const byStatus: Record<string, number> = {};
  const successesByOperation: Record<string, number> = {};
  const failures: Failure[] = [];
  let crashed: string | null = null;
  let sent = 0;
  let violations = 0;
  const started = Date.now();
  void target.server.exited.then(({ code, signal }) => {
    crashed ??= `the server exited (${code ?? signal})\n${target.server.output().slice(-4_000)}`;
  });

  const plan: Array<{ block: number; index: number }> = options.replay
    ? [options.replay]
    : Array.from({ length: options.requests }, (_, position) => ({
        block: Math.floor(position / blockSize),
        index: position % blockSize,
      }));
  const blocks = new Map<number, FuzzRequest[]>();
  const requestAt = (block: number, index: number): FuzzRequest => {
    let drawn = blocks.get(block);
    if (!drawn) {
      drawn = drawBlock(arbitrary, seed, block);
      blocks.set(block, drawn);
      // Blocks are taken in order; what lies two behind is done with.
      blocks.delete(block - 2);
    }
    return drawn[index] as FuzzRequest;
  };

  let next = 0;
  const worker = async () => {
    while (next < plan.length && crashed === null) {
      const { block, index } = plan[next++] as { block: number; index: number };
      const request = requestAt(block, index);
      const outcome = await sendRaw(target.server.port, renderRequest(request, target), timeoutMs);
      sent += 1;
      options.onProgress?.(sent);
      // A server that refuses an over-limit body closes while the client is still sending it; the
      // reset that follows can destroy the answer before it is read (Node does not linger on close,
      // RFC 9112 section 9.6). Counted apart: a transport race, not an answer that broke the contract.
      const resetWhileSending =
        outcome.kind === 'no-response' &&
        /EPIPE|ECONNRESET/.test(outcome.reason) &&
        (request.body?.length ?? 0) > target.bodyLimitBytes;
      const status =
        outcome.kind === 'response' ? String(outcome.response.status) : resetWhileSending ? 'reset' : 'none';
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      if (outcome.kind === 'response' && outcome.response.status < 300) {
        successesByOperation[request.operation] = (successesByOperation[request.operation] ?? 0) + 1;
      }
      const violation = resetWhileSending ? null : invariantViolation(request.method, outcome, request.operation);
      if (violation) violations += 1;
      if (violation && failures.length < keptFailures) {
        failures.push({
          replay: `--seed ${seed} --replay ${block}:${index}`,
          operation: request.operation,
          request: describe(request, target),
          reason: violation,
          body: outcome.kind === 'response' ? outcome.response.body.subarray(0, 300).toString('utf8') : '',
        });
      }
      if (
        outcome.kind === 'response' &&
        outcome.response.status === 200 &&
        request.method === 'DELETE' &&
        request.operation === 'DELETE /v1/agents/{agentId}'
      ) {
        const deletedId = /"id":"([^"]+)"/.exec(outcome.response.body.toString('utf8'))?.[1];
        if (deletedId) await target.replaceAgent(deletedId);
      }
      // A webhook deleted or changed (disabled, moved) is restored, so later redeliveries have one to go to.
      if (
        outcome.kind === 'response' &&
        outcome.response.status === 200 &&
        (request.operation === 'DELETE /v1/webhooks/{webhookId}' ||
          request.operation === 'PATCH /v1/webhooks/{webhookId}')
      ) {
        const changedId = /"id":"([^"]+)"/.exec(outcome.response.body.toString('utf8'))?.[1];
        if (changedId) await target.restoreWebhook(changedId, request.method === 'DELETE');
      }
      if (outcome.kind === 'response' && outcome.response.status === 200 && request.method === 'DELETE') {
        const deletedId = /"id":"([^"]+)"/.exec(outcome.response.body.toString('utf8'))?.[1];
        if (deletedId && request.operation === 'DELETE /v1/knowledge-bases/{knowledgeBaseId}')
          await target.replaceKnowledgeBase(deletedId);
        if (deletedId && request.operation === 'DELETE /v1/knowledge-bases/{knowledgeBaseId}/documents/{documentId}')
          await target.replaceDocument(deletedId);
        if (deletedId && request.operation === 'DELETE /v1/agents/{agentId}/tasks/{taskId}')
          await target.replaceTask(deletedId);
        if (deletedId && request.operation === 'DELETE /v1/eval-datasets/{datasetId}')
          await target.replaceEvalDataset(deletedId);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  return { sent, durationMs: Date.now() - started, byStatus, successesByOperation, violations, failures, crashed };
}
