// Runs before each test file (jest setupFiles): the file's services, commands and helpers use its worker's own
// database (created by globalSetup as a copy of the migrated one), so test files in parallel workers never
// share a job queue. Without PAYGATE_TEST_WORKER_DATABASES (an external database or service) nothing changes.
const prefix = process.env.PAYGATE_TEST_WORKER_DATABASES;
if (prefix && process.env.DATABASE_URL) {
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${prefix}${process.env.JEST_WORKER_ID ?? '1'}`;
  process.env.DATABASE_URL = url.toString();
}
