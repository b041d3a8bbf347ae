/** Browser tests (make test-browser): Debian's Chromium through playwright-core against the real service. */
const base = require('./jest.config');
module.exports = { ...base, roots: ['<rootDir>/tests/browser'], testPathIgnorePatterns: ['/node_modules/'], testTimeout: 60000 };
