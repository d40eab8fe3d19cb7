/**
 * What masking a plugin entry's secrets costs per tool result.
 *
 *   node --import tsx bench/redact-secrets.ts
 *   ROUNDS=5 node --import tsx bench/redact-secrets.ts     # fewer rounds
 *
 * Every result of a tool of an entry with secrets goes through the mask
 * before the model sees it (src/plugins/redact-secrets.ts). This times, in
 * this process, one masking of typical results: an http plugin result
 * (`{ status, url, contentType, text, truncated }`) whose text is compact JSON
 * of 0.2, 4, 16 (the default tool output cap) and 64 KiB, with 1, 3 or 5
 * secrets, nearly always found nowhere, and once with the text echoing a
 * secret. Two implementations, in interleaved rounds so a noisy moment of the
 * machine falls on both alike:
 *
 * - before: the masking as it was until the forms of a secret were masked
 *   (copied below): each secret as given, searched for in the JSON of the
 *   whole result;
 * - after: `SecretMask.value`, each form of each secret (worked out once, when
 *   the entry is opened) searched for in each string of the result.
 *
 * Also: what working out the forms costs (once per plugin entry opened), how
 * many there are, and how far past maxResponseBytes the http plugin reads.
 */
import os from 'node:os';
import { SecretMask, secretForms } from '../src/plugins/redact-secrets.js';

const rounds = Number(process.env.ROUNDS ?? 15);
const targetMsPerSample = 40;

// ---- before: the masking as it was (src/plugins/redact-secrets.ts at 6df01a4) ----
const baselineMask = '••••';
const baselineShortest = 6;
function baselineText(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets.filter((value) => value.length >= baselineShortest))
    if (result.includes(secret)) result = result.replaceAll(secret, baselineMask);
  return result;
}
function baselineValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return baselineText(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  const text = JSON.stringify(value);
  if (text === undefined || !secrets.some((secret) => text.includes(secret))) return value;
  return JSON.parse(
    baselineText(
      text,
      secrets.map((secret) => JSON.stringify(secret).slice(1, -1)),
    ),
  );
}
// ----

/** Secrets as entries hold them: a bearer token, an API key, Basic credentials, an OAuth 1.0a header, a hex key. */
const allSecrets = [
  'Bearer tok_live_8f3a61c0d94e27b5a1c3e9f04d2b7a6c',
  'sk-proj-4c2e9a17b08d53f6e1a9c7d2b4f08e31',
  `Basic ${Buffer.from('billing-service:Vq7#pR2m!xL9s@Tz').toString('base64')}`,
  'OAuth oauth_consumer_key="ck_5e1f9a2b7c3d", oauth_token="at_91c4e7b2a0f8", oauth_signature_method="HMAC-SHA1", oauth_signature="bWFza2luZy1iZW5jaA%3D%3D"',
  '9b1f6e0c4a8d2e7f3b5a9c1d0e6f4a2b8c7d5e3f1a0b9c8d',
];

/** Compact JSON of about `bytes` bytes, as an API answers: records of words, numbers and addresses. */
function jsonText(bytes: number): string {
  const records: unknown[] = [];
  let length = 2;
  for (let index = 0; length < bytes; index += 1) {
    const record = {
      id: 100_000 + index,
      name: `Item number ${index} of the catalogue`,
      url: `https://api.example.com/v2/items/${100_000 + index}?expand=owner`,
      price: (index * 7.31) % 1000,
      tags: ['alpha', 'beta', index % 2 === 0 ? 'even' : 'odd'],
      updatedAt: '2026-11-28T12:00:00.000Z',
    };
    const text = JSON.stringify(record);
    records.push(record);
    length += text.length + 1;
  }
  return JSON.stringify(records).slice(0, bytes);
}

function resultOf(text: string) {
  return {
    status: 200,
    url: 'https://api.example.com/v2/items?page=1',
    contentType: 'application/json',
    text,
    truncated: false,
  };
}

/** Nanoseconds per call of `run`, over enough calls for one sample to take about targetMsPerSample. */
function nsPerCall(run: () => unknown, calls: number): number {
  const started = process.hrtime.bigint();
  for (let index = 0; index < calls; index += 1) run();
  return Number(process.hrtime.bigint() - started) / calls;
}

function callsFor(run: () => unknown): number {
  let calls = 1;
  for (;;) {
    const started = process.hrtime.bigint();
    for (let index = 0; index < calls; index += 1) run();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (ms >= targetMsPerSample / 4) return Math.max(1, Math.round((calls * targetMsPerSample) / ms));
    calls *= 2;
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const format = (ns: number) => (ns < 1000 ? `${Math.round(ns)} ns` : `${(ns / 1000).toFixed(ns < 10_000 ? 2 : 1)} µs`);

interface Case {
  label: string;
  secrets: string[];
  result: unknown;
}

const cases: Case[] = [];
for (const count of [1, 3, 5]) {
  for (const kib of [0.2, 4, 16, 64]) {
    cases.push({
      label: `${kib} KiB, ${count} secret${count === 1 ? '' : 's'}, none found`,
      secrets: allSecrets.slice(0, count),
      result: resultOf(jsonText(Math.round(kib * 1024))),
    });
  }
}
for (const count of [1, 5]) {
  const text = jsonText(16 * 1024);
  // An API that echoes the credential it was sent, in the middle of its answer.
  const echoed = `${text.slice(0, 8000)}"auth":"${allSecrets[0]}",${text.slice(8000)}`;
  cases.push({
    label: `16 KiB, ${count} secret${count === 1 ? '' : 's'}, one echoed`,
    secrets: allSecrets.slice(0, count),
    result: resultOf(echoed),
  });
}

console.log(
  `redact-secrets: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}, ${os.platform()}, load ${os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`,
);
console.log(`${rounds} interleaved rounds, ~${targetMsPerSample} ms per sample; medians of the rounds\n`);

for (const count of [1, 3, 5]) {
  const secrets = allSecrets.slice(0, count);
  const mask = new SecretMask(secrets);
  const build = nsPerCall(() => new SecretMask(secrets), 2_000);
  console.log(
    `${count} secret${count === 1 ? '' : 's'}: ${secretForms(secrets).length} forms, worked out in ${format(build)} ` +
      `(once per entry opened); the http plugin reads ${mask.marginBytes} bytes past maxResponseBytes`,
  );
}
console.log('');

const table: string[] = ['| result | before | after | after − before |', '|---|---|---|---|'];
for (const { label, secrets, result } of cases) {
  const mask = new SecretMask(secrets);
  const before = () => baselineValue(result, secrets);
  const after = () => mask.value(result);
  // The two agree on what they mask where the old one masked at all.
  const expected = JSON.stringify(before());
  if (JSON.stringify(after()) !== expected && !label.includes('echoed')) throw new Error(`the two differ on ${label}`);
  const beforeCalls = callsFor(before);
  const afterCalls = callsFor(after);
  const beforeNs: number[] = [];
  const afterNs: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    beforeNs.push(nsPerCall(before, beforeCalls));
    afterNs.push(nsPerCall(after, afterCalls));
  }
  const [b, a] = [median(beforeNs), median(afterNs)];
  table.push(`| ${label} | ${format(b)} | ${format(a)} | ${a >= b ? '+' : '−'}${format(Math.abs(a - b))} |`);
}
console.log(table.join('\n'));
