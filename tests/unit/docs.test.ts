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
  return [...text.matchAll(/^\s*\| `([a-z][a-z0-9_]*)` \| (\d{3}) \| (.+) \|$/gm)].map((m) => [m[1], Number(m[2]), m[3]]);
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

// The README is a map, and the pages it points at hold the rest: a link that leads nowhere, or a README that
// grows back into a notebook, fails here.
describe('the markdown pages', () => {
  const pages = [
    'README.md',
    'CONTRIBUTING.md',
    'CHANGELOG.md',
    'bench/README.md',
    'contract-tests/README.md',
    'migrations/README.md',
    ...fs.readdirSync(path.join(root, 'docs')).map((f) => `docs/${f}`),
  ].filter((p) => p.endsWith('.md'));
  const withoutCode = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
  const slug = (heading: string) =>
    heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
  const anchors = (page: string) =>
    new Set(
      [
        ...read(page)
          .replace(/^```[\s\S]*?^```/gm, '')
          .matchAll(/^#{1,6} (.+)$/gm),
      ].map((m) => slug(m[1].trim())),
    );

  it('README.md stays a map: at most 200 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(200);
  });

  it.each(pages)('every relative link of %s leads to an existing file and heading', (page) => {
    const links = [...withoutCode(read(page)).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/i.test(l));
    const broken = links.filter((link) => {
      const [file, anchor] = link.split('#');
      const target = file ? path.normalize(path.join(path.dirname(page), file)) : page;
      if (!fs.existsSync(path.join(root, target))) return true;
      return anchor !== undefined && target.endsWith('.md') && !anchors(target).has(anchor);
    });
    expect(broken).toEqual([]);
  });

  it.each(pages)('every repository path %s names in backticks exists (or is a git-ignored output)', (page) => {
    const ignored = new Set(read('.gitignore').split('\n'));
    const named = [
      ...read(page).matchAll(
        /`((?:src|tests|handlers|scripts|bench|migrations|contract-tests|examples|clients|sdk-tests|spec|public|generated)\/[^`\s<*]*)`/g,
      ),
    ];
    expect(named.map((m) => m[1]).filter((p) => !ignored.has(p) && !fs.existsSync(path.join(root, p)))).toEqual([]);
  });

  it('lists every SHIM marker of the code in docs/upgrading.md, and no other', () => {
    const files = (dir: string): string[] =>
      fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
        const p = `${dir}/${e.name}`;
        return e.isDirectory() ? files(p) : /\.(ts|mjs|js)$/.test(e.name) ? [p] : [];
      });
    const inCode = new Set(
      ['src', 'handlers', 'scripts'].flatMap(files).flatMap((f) => [...read(f).matchAll(/SHIM\(([a-z0-9-]+)\)/g)].map((m) => m[1])),
    );
    const upgrading = read('docs/upgrading.md');
    const listed = new Set([...upgrading.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]));
    expect([...inCode].sort()).toEqual([...listed].sort());
    expect(inCode.size).toBeGreaterThan(0);
  });
});
