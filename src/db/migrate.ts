import path from 'node:path';
import type { Knex } from 'knex';
import { projectRoot } from '../paths';

// Forward-only, timestamped migrations in migrations/ (plain CommonJS so every entry point, built or
// under test, loads the same files). Several processes may start at once: knex takes a lock table.
export const migrationsDir = path.join(projectRoot, 'migrations');

export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, applied] = await db.migrate.latest({ directory: migrationsDir, loadExtensions: ['.js'] });
  return applied as string[];
}
