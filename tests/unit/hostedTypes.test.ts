import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { addPaygateFormats } from '../../src/http/formats';
import { COLLECT_SCHEMA } from '../../src/domain/collectData';
import {
  HostedOp,
  Shape,
  VERSIONS,
  bundle,
  check,
  data,
  differences,
  documented,
  entries,
  hostedSchema,
  root,
  show,
} from '../support/hostedTypesCheck';
import { checkFacts } from '../support/hostedFactsCheck';

// The hosted contract's types and constraints against each bundled document (how: tests/support/hostedTypesCheck.ts).

describe('hosted types data', () => {
  it('has valid examples: each allowed by its hosted type, each `invalid` excluded by it', () => {
    const ajv = new Ajv2020({ strict: false });
    addPaygateFormats(ajv as never);
    const bad: string[] = [];
    for (const e of entries()) {
      const v = ajv.compile(hostedSchema(e.spec));
      for (const x of e.spec.examples ?? []) if (!v(x)) bad.push(`${e.key}: example ${JSON.stringify(x)}`);
      for (const x of e.spec.invalid ?? []) if (v(x)) bad.push(`${e.key}: invalid ${JSON.stringify(x)} is allowed`);
    }
    expect(bad).toEqual([]);
  });

  it.each(VERSIONS)('types only fields and parameters of the hosted contract facts (%s)', (version) => {
    const hosted: { operations: HostedOp[] } = JSON.parse(
      fs.readFileSync(path.join(root, 'contract-tests/hosted-contract', `${version}.json`), 'utf8'),
    );
    const walk = (s: Shape | null | undefined, steps: string[]): boolean => {
      if (!steps.length || s === null) return true; // null: the facts do not go deeper here
      if (!s) return false;
      const [step, ...rest] = steps;
      if (s.variants) return s.variants.some((v) => walk(v, steps));
      return step === '[]'
        ? s.items !== undefined && walk(s.items, rest)
        : s.properties !== undefined && step in s.properties && walk(s.properties[step], rest);
    };
    const unknown = entries()
      .filter((e) => {
        const facts = hosted.operations.find((o) => `${o.method} ${o.path}` === e.op);
        if (!facts) return true;
        if (e.spec.notInFacts) return false;
        if (e.part !== 'param') return !walk(facts[e.part], e.path);
        const [where, name] = e.where.split(/:(.*)/s);
        return !facts.params.some((x) => x.in === where && x.name.toLowerCase() === name.toLowerCase());
      })
      .map((e) => e.key);
    expect(unknown).toEqual([]);
  });

  it('gives every difference a reason', () => {
    expect(differences.filter((d) => !d.at || !d.check || !(d.reason?.length > 20))).toEqual([]);
  });
});

describe.each(VERSIONS)('bundled %s against the hosted types', (version) => {
  const { problems, count } = check(bundle(version), version);

  it('matches every hosted type, or the difference is documented', () => {
    const kept = problems.filter(documented);
    const used = differences.filter((d) => kept.some((p) => documented(p) === d)).length;
    process.stdout.write(
      `hosted types ${version}: ${count} typed entries checked; ${kept.length} findings fall under ${used} documented differences (contract-tests/hosted-contract/types.json)\n`,
    );
    expect(problems.filter((p) => !documented(p)).map(show)).toEqual([]);
  });
});

it('documents no difference that is not there (in either version, here or in the hosted type facts)', () => {
  const all = VERSIONS.flatMap((v) => [...check(bundle(v), v).problems, ...checkFacts(bundle(v), v).problems]);
  expect(differences.filter((d) => !all.some((p) => documented(p) === d))).toEqual([]);
});

describe('the hosted types check', () => {
  it('fails on a changed type, nullability, enum or constraint', () => {
    const doc = bundle('2026-02-18');
    const s = doc.components.schemas;
    s.MerchantStatus = { type: 'string', enum: ['active', 'inactive', 'suspended', 'closed'] };
    s.Merchant.properties.email = { type: 'string' };
    s.PollInMs = { type: ['number', 'null'], minimum: 0 };
    doc.components.parameters.MerchantsLimit.schema.maximum = 50;
    const found = check(doc, '2026-02-18')
      .problems.filter((p) => !documented(p))
      .map((p) => `${p.key} ${p.check}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'GET /v1/merchants response /merchants/[]/status enum',
        'GET /v1/merchants response /merchants/[]/email nullable',
        'GET /v1/payments/{id}/status response /pollInMs type',
        'GET /v1/merchants param query:limit maximum',
      ]),
    );
  });
});

describe('the collect-data schema the options carry', () => {
  it("is the seed's (§2.9 constraints, §8 address lengths)", () => {
    const { source: _source, ...seed } = data.collectDataSchema;
    const { $schema: _s, ...ours } = COLLECT_SCHEMA;
    expect(ours).toEqual(seed);
  });
});
