import pino from 'pino';
import { loggablePaymentId } from './domain/gatewayId';

// Secrets (API keys, app credentials) never reach the logs: request headers are not logged at all, and
// the redaction list catches them should a log call include them by mistake. A payment id is a bearer
// capability on the gateway: a `paymentId` field is logged as its prefix, enough to find the row.
/** On stdout; `stderr` for a command line whose stdout is its answer. */
export function createLogger(level: string, to: 'stdout' | 'stderr' = 'stdout') {
  const stream = to === 'stderr' ? pino.destination({ fd: 2, sync: true }) : undefined;
  return pino(
    {
      level,
      base: { service: 'paygate', pid: process.pid }, // the pid tells apart the processes of PROCESSES > 1
      redact: {
        paths: [
          'apiKey',
          '*.apiKey',
          'headers["api-key"]',
          '*.headers["api-key"]',
          'headers["client-id"]',
          '*.headers["client-id"]',
          'password',
          '*.password',
          'databaseUrl',
          '*.databaseUrl',
          'paymentId',
          '*.paymentId',
        ],
        censor: (value: unknown, path: string[]) =>
          path[path.length - 1] === 'paymentId' && typeof value === 'string' ? loggablePaymentId(value) : '[redacted]',
      },
    },
    stream,
  );
}
export type Logger = ReturnType<typeof createLogger>;
