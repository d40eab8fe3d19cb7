import fs from 'node:fs';
import type { Sample } from './soak-summary.js';

/** The samples written so far (a line being written at this moment is left for the next read). */
export function readSamples(file: string): Sample[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const lines = text.split('\n');
  lines.pop();
  return lines.map((line) => JSON.parse(line) as Sample);
}

/** Resolves once the sampler has written `count` samples; fails after `timeoutMs`. */
export async function waitForSamples(file: string, count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (readSamples(file).length < count) {
    if (Date.now() > deadline) throw new Error(`the sampler wrote fewer than ${count} samples to ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
