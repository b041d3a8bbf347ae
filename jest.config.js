/**
 * The jest tests of make test (scripts/test-jest.mjs runs them in parts): integration (real Koa + real PostgreSQL
 * over HTTP), faults and the soak. One PostgreSQL and one anvil for each run (globalSetup). Unit tests run
 * without them (jest.unit.config.js).
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  // tests/browser need Chromium: make test-browser runs them (jest.browser.config.js) after this suite.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/tests/browser/'],
  // SWC strips the types and emits CommonJS for ES2022, as tsc does with this tsconfig (isolatedModules: each file
  // alone); the types are checked by make typecheck. Without a warm transform cache (a fresh machine, a clone in
  // another folder) it costs a jest worker a fraction of what ts-jest's TypeScript transpiler does (docs/testing.md).
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  globalSetup: '<rootDir>/tests/support/globalSetup.mjs',
  globalTeardown: '<rootDir>/tests/support/globalTeardown.mjs',
  setupFiles: ['<rootDir>/tests/support/workerDatabase.ts'],
  // Hooks too: a beforeAll that starts a service and an admin command takes tens of seconds on a loaded 2-core machine.
  testTimeout: 60000,
};
