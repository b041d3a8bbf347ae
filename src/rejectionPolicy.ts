import { isDatabaseUnavailable } from './db/unavailable';
import type { Logger } from './logger';

// pg-boss 10.4.2 marks a job completed or failed without awaiting it (manager.js, onFetch): with the database
// unreachable at that moment, the rejection reaches no handler and Node ends the process. The job stays active
// and pg-boss retries it when it expires, so such a rejection is logged and the process keeps running; any other
// unhandled rejection still ends it (tests/unit/rejectionPolicy.test.ts).

/** Installs the process's policy for promise rejections nothing handled. */
export function installRejectionPolicy(log: Logger): void {
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseUnavailable(reason)) {
      log.error({ err: reason }, 'a database call outside any request failed while the database was unreachable; kept running');
      return;
    }
    log.fatal({ err: reason }, 'unhandled rejection');
    process.exit(1);
  });
}
