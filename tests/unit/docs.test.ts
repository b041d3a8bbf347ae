import fs from 'node:fs';
import path from 'node:path';
import { ERRORS } from '../../src/domain/errors';
import { RETENTION_HOURS } from '../../src/db/idempotencyRepo';
import { PAYMENT_STATUSES, TRANSITIONS } from '../../src/domain/payment';

// The rendered reference (/docs/<version>) is built from the spec's info.description and the Error
// schema. These tables are written by hand for readability; the tests keep them from drifting from code.

const root = path.resolve(__dirname, '../..');
const read = (p: string) => fs.readFileSync(path.join(root, p), 'utf8');
const description = read('spec/shared/info-description.md');

/** Rows `| `code` | 400 | meaning |` of the markdown table that follows `heading`. */
function errorRows(text: string): [string, number, string][] {
  return [...text.matchAll(/^\s*\| `([a-z_]+)` \| (\d{3}) \| (.+) \|$/gm)].map((m) => [m[1], Number(m[2]), m[3]]);
}

describe('the error catalogue in the docs', () => {
  const catalogue = Object.entries(ERRORS).map(([code, e]) => [code, e.status]);

  it('info.description lists every code of src/domain/errors.ts with its HTTP status, and nothing else', () => {
    const section = description.slice(description.indexOf('## Errors'), description.indexOf('## Idempotency'));
    expect(
      errorRows(section)
        .map(([c, s]) => [c, s])
        .sort(),
    ).toEqual([...catalogue].sort());
  });

  it('the Error schema description carries the same table, meanings included', () => {
    const schemaRows = errorRows(read('spec/components/schemas/Error.yaml'));
    const section = description.slice(description.indexOf('## Errors'), description.indexOf('## Idempotency'));
    expect(schemaRows.sort()).toEqual(errorRows(section).sort());
  });

  it('reaches both bundled documents (make generate ran)', () => {
    for (const v of ['2026-02-18', '2026-02-19.preview']) {
      const doc = JSON.parse(read(`generated/${v}/openapi.json`));
      expect(doc.info.description).toBe(description);
    }
  });
});

describe('the payment state diagram in the docs', () => {
  const section = description.slice(description.indexOf('## Payment states'), description.indexOf('## Versioning'));

  it('its transition table is exactly TRANSITIONS of src/domain/payment.ts', () => {
    const rows = [...section.matchAll(/^\| `([a-z_]+)` \| `([a-z_]+)`[^|]*\| `([a-z_]+)` \|$/gm)].map((m) => `${m[1]} -${m[2]}-> ${m[3]}`);
    const want = Object.entries(TRANSITIONS).flatMap(([t, d]) => d.from.map((f) => `${f} -${t}-> ${d.to}`));
    expect(rows.sort()).toEqual(want.sort());
  });

  it('the diagram names every state and every transition', () => {
    const diagram = section.slice(section.indexOf('```text'), section.indexOf('```\n', section.indexOf('```text') + 7));
    for (const s of PAYMENT_STATUSES) expect(diagram).toContain(s);
    for (const t of Object.keys(TRANSITIONS)) expect(diagram).toContain(t);
  });
});

describe('the idempotency section', () => {
  it('states the retention the code applies (24 hours)', () => {
    expect(description).toContain(`retained for **${RETENTION_HOURS} hours**`);
    expect(description).toContain(`After ${RETENTION_HOURS} hours a key is forgotten`);
  });
});
