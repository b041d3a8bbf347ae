// Database functions, one file each (<name>.sql, a CREATE OR REPLACE FUNCTION): a migration that creates or changes
// one calls createFunctions with its name after the file is edited (migrations/README.md). Migrations written before
// this folder carry the version of their time in their own text, frozen: they ran, and must keep their meaning.
const fs = require('node:fs');
const path = require('node:path');

/**
 * Creates or replaces each named function from its file.
 * @param {import('knex').Knex} knex
 * @param {string[]} names
 */
exports.createFunctions = async function createFunctions(knex, names) {
  for (const name of names) await knex.raw(fs.readFileSync(path.join(__dirname, `${name}.sql`), 'utf8'));
};
