import fs from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { createLogger } from '../../src/logger.js';

/**
 * Where every log line of a test run goes, so that scripts/run-tests.mjs can
 * check the whole suite's logs for secrets afterwards. Set by the runner; a
 * test file run on its own writes nothing.
 */
export const suiteLogDirectory: string | null = process.env.AGENTD_TEST_LOG_DIR || null;

let destination: pino.DestinationStream | null = null;

/** One file per test process, written asynchronously and flushed when the process exits. */
export function suiteLogDestination(): pino.DestinationStream | null {
  if (suiteLogDirectory === null) return null;
  if (destination === null) {
    const file = pino.destination({
      dest: path.join(suiteLogDirectory, `tests-${process.pid}.log`),
      sync: false,
      mkdir: true,
    });
    process.on('exit', () => file.flushSync());
    destination = file;
  }
  return destination;
}

/**
 * A test app's logger during a run: at debug level, so the check sees every
 * line agentd could write (LOG_LEVEL=silent would hide a leak), with the
 * application's own redaction.
 */
export function suiteLogger(): Logger | null {
  const target = suiteLogDestination();
  return target === null ? null : createLogger('debug', target);
}

/** A file for one server process's output, or null outside a run. */
export function serverLogFile(pid: number | undefined): fs.WriteStream | null {
  if (suiteLogDirectory === null) return null;
  fs.mkdirSync(suiteLogDirectory, { recursive: true });
  return fs.createWriteStream(path.join(suiteLogDirectory, `server-${process.pid}-${pid ?? 'unknown'}.log`));
}
