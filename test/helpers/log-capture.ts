import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createLogger } from '../../src/logger.js';
import { suiteLogDestination } from './suite-log.js';

export interface CapturedLog {
  logger: Logger;
  /** Every line written so far, parsed. */
  entries(): Array<Record<string, unknown> & { level: number; msg: string }>;
  /** Everything written so far, as text (to look for leaked secrets). */
  text(): string;
}

/**
 * A logger that keeps its lines in memory, with the same redaction as the real
 * one; during a test run they also go to the run's log for the secrets check.
 */
export function captureLog(): CapturedLog {
  const chunks: string[] = [];
  const suite = suiteLogDestination();
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(String(chunk));
      suite?.write(String(chunk));
      callback();
    },
  });
  const logger = createLogger('debug', destination);
  return {
    logger,
    entries: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line)),
    text: () => chunks.join(''),
  };
}
