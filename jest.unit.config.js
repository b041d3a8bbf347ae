/**
 * Unit tests alone (make test-unit, and make test's part unit): tests/unit, no PostgreSQL, no chain, no build.
 * The global setup of jest.config.js (a throwaway PostgreSQL and anvil) is left out.
 */
const { globalSetup, globalTeardown, ...base } = require('./jest.config');
module.exports = { ...base, roots: ['<rootDir>/tests/unit'], testPathIgnorePatterns: ['/node_modules/'], testTimeout: 20000 };
