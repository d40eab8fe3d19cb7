import pino, { type Logger } from 'pino';
import type { LogLevel } from './config.js';

/** Structured logs; credentials are redacted wherever they might appear. */
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
    destination,
  );
}
