import { loadConfig } from '../config';
import { connect } from '../db/connect';
import { migrateLatest } from '../db/migrate';
import { projectRoot } from '../paths';

// `make migrate`: apply pending migrations to DATABASE_URL, or to the embedded database.
async function main() {
  const database = await connect(loadConfig(process.env, projectRoot));
  try {
    const applied = await migrateLatest(database.db);
    process.stdout.write(JSON.stringify({ applied }) + '\n');
  } finally {
    await database.stop();
  }
}

main().catch((e) => {
  process.stderr.write(`migrate failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
