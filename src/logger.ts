import pino, { type Logger } from 'pino';
import type { LogLevel } from './config.js';

/**
 * Structured logs; credentials are redacted wherever they might appear.
 * Standard output is written asynchronously (sonic-boom): lines logged while a
 * write is in progress go out together in the next one, so a busy instance
 * does not make one system call per request line, and a quiet one still
 * writes each line at once. What is buffered is flushed when the process exits.
 */
export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'agentd' },
      redact: {
        paths: [
          'req.headers.authorization',
          'headers.authorization',
          'authorization',
          '*.apiKey',
          '*.secrets',
          '*.key',
          'key',
        ],
        censor: '[redacted]',
      },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
