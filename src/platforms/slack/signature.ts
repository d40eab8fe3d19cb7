import { isValidSlackRequest } from '@slack/bolt/dist/receivers/verify-request.js';
import type { PlatformInboundRequest } from '../platform.js';

/** Slack's replay window: requests signed longer ago (or further ahead) than this are refused. */
const replayWindowSeconds = 5 * 60;

function header(request: PlatformInboundRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Checks Slack's request signature (v0 HMAC-SHA256 of `v0:<timestamp>:<raw body>`
 * with the signing secret) with Bolt's own verifier, over the bytes as received.
 * https://api.slack.com/authentication/verifying-requests-from-slack
 */
export function verifySlackSignature(
  request: PlatformInboundRequest,
  signingSecret: string,
  nowMs: number,
): { ok: true } | { ok: false; reason: string } {
  const signature = header(request, 'x-slack-signature');
  const timestampText = header(request, 'x-slack-request-timestamp');
  if (!signature || !timestampText) {
    return { ok: false, reason: 'The X-Slack-Signature and X-Slack-Request-Timestamp headers are required.' };
  }
  const timestamp = Number(timestampText);
  if (!/^\d{1,12}$/.test(timestampText) || Math.abs(nowMs / 1000 - timestamp) > replayWindowSeconds) {
    // Bolt refuses only timestamps in the past; one far in the future is as much a replay risk.
    return { ok: false, reason: 'The request timestamp is more than 5 minutes away from now.' };
  }
  const valid = isValidSlackRequest({
    signingSecret,
    body: request.rawBody.toString('utf8'),
    headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': timestamp },
    nowMilliseconds: nowMs,
  });
  return valid ? { ok: true } : { ok: false, reason: 'The request signature does not match.' };
}
