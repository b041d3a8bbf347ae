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
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  globalSetup: '<rootDir>/tests/support/globalSetup.mjs',
  globalTeardown: '<rootDir>/tests/support/globalTeardown.mjs',
  setupFiles: ['<rootDir>/tests/support/workerDatabase.ts'],
  // Hooks too: a beforeAll that starts a service and an admin command takes tens of seconds on a loaded 2-core machine.
  testTimeout: 60000,
};
