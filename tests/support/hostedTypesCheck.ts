import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';
import { addPaygateFormats } from '../../src/http/formats';

// Types and constraints of the hosted contract (contract-tests/hosted-contract/types.json, taken from the
// seed and our decisions, both in docs/decisions.md) against each bundled document. Requests and parameters must accept every value
// the hosted type allows; responses must stay within what it promises; nullability must match; enum values
// the seed shows must be accepted or emitted. Deliberate differences are listed, with their reasons, in the
// data file's `differences`; each must still be real (no stale entry).

type Schema = Record<string, any>;
export interface Hosted {
  type: string;
  nullable?: boolean;
  enum?: unknown[];
  shown?: unknown[];
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
  examples?: unknown[];
  invalid?: unknown[];
  source: string;
  of?: string;
  omit?: string[];
  form?: string;
  notInFacts?: string;
}
export type Part = 'param' | 'request' | 'response';
interface Entry {
  key: string;
  op: string;
  part: Part;
  where: string;
  path: string[];
  spec: Hosted;
  aliases: string[];
}
export interface Problem {
  key: string;
  aliases: string[];
  check: string;
  detail: string;
}
interface Difference {
  at: string | string[];
  check: string | string[];
  reason: string;
}
export interface HostedOp {
  method: string;
  path: string;
  success: string[];
  params: { in: string; name: string }[];
  request: Shape | null;
  response: Shape | null;
}
export interface Shape {
  properties?: Record<string, Shape | null>;
  items?: Shape | null;
  variants?: Shape[];
}

export const root = path.resolve(__dirname, '../..');
export const VERSIONS = ['2026-02-18', '2026-02-19.preview'];
export const data = JSON.parse(fs.readFileSync(path.join(root, 'contract-tests/hosted-contract/types.json'), 'utf8'));
export const differences: Difference[] = data.differences;
const SECURITY_HEADERS = new Set(['api-key', 'app-id', 'client-id']);

/** Every typed field, shared objects and parameter sets expanded where they are used. */
export function entries(): Entry[] {
  const out = new Map<string, Entry>();
  const add = (op: string, part: Part, where: string, at: string, raw: Hosted, aliases: string[], source?: string) => {
    const spec: Hosted = {
      ...(raw.form ? data.forms[raw.form] : {}),
      ...raw,
      source: raw.source ?? source ?? data.objects[raw.of ?? '']?.source,
    };
    if (!spec.source) throw new Error(`${op} ${where}${at}: no source`);
    const names = raw.form ? [...aliases, `form:${raw.form}`] : aliases;
    out.set(`${op} ${part} ${where}${at}`, {
      key: `${op} ${part} ${where}${at}`,
      op,
      part,
      where,
      path: at.split('/').filter(Boolean),
      spec,
      aliases: names,
    });
    if (!spec.of) return;
    const obj = data.objects[spec.of];
    if (!obj) throw new Error(`unknown object ${spec.of}`);
    for (const [p, f] of Object.entries<Hosted>(obj.fields)) {
      if (!spec.omit?.includes(p)) add(op, part, where, at + p, f, [...aliases.map((a) => a + p), spec.of + p], obj.source);
    }
  };
  for (const [op, o] of Object.entries<any>(data.operations)) {
    for (const set of o.paramSets ?? []) {
      const s = data.paramSets[set];
      for (const [k, f] of Object.entries<Hosted>(s.params)) {
        const [where, ...rest] = k.split('/');
        add(op, 'param', where, rest.length ? `/${rest.join('/')}` : '', f, [k], s.source);
      }
    }
    for (const [k, f] of Object.entries<Hosted>(o.params ?? {})) {
      const [where, ...rest] = k.split('/');
      add(op, 'param', where, rest.length ? `/${rest.join('/')}` : '', f, [k]);
    }
    for (const part of ['request', 'response'] as const) {
      for (const [k, f] of Object.entries<Hosted>(o[part] ?? {})) add(op, part, '', k, f, []);
    }
  }
  return [...out.values()];
}

const KINDS: Record<string, string[]> = {
  integer: ['integer'],
  number: ['integer', 'fraction'],
  string: ['string'],
  boolean: ['boolean'],
  object: ['object'],
  array: ['array'],
  null: ['null'],
};
const ALL_KINDS = Object.keys(KINDS)
  .filter((k) => k !== 'number')
  .concat('fraction');
const kindOf = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'fraction') : typeof v;

/** One alternative of a schema: the constraints of all its parts together (allOf), summarised. */
interface Alt {
  parts: Schema[];
  kinds: Set<string>;
  enum?: unknown[];
  patterns: string[];
  formats: string[];
  num: Record<string, number | undefined>;
  default?: unknown;
}

function summarize(parts: Schema[]): Alt {
  let kinds = new Set(ALL_KINDS);
  let values: unknown[] | undefined;
  const num: Record<string, number | undefined> = {};
  const tighten = (k: string, v: number | undefined, pick: (a: number, b: number) => number) => {
    if (v !== undefined) num[k] = num[k] === undefined ? v : pick(num[k]!, v);
  };
  const alt: Alt = { parts, kinds, patterns: [], formats: [], num };
  for (const p of parts) {
    if (p.type !== undefined) {
      const allowed = new Set([p.type].flat().flatMap((t: string) => KINDS[t]));
      kinds = new Set([...kinds].filter((k) => allowed.has(k)));
    }
    const listed = 'const' in p ? [p.const] : p.enum;
    if (listed) values = values ? values.filter((v) => listed.includes(v)) : [...listed];
    if (p.pattern) alt.patterns.push(p.pattern);
    if (p.format) alt.formats.push(p.format);
    if (p.default !== undefined) alt.default = p.default;
    for (const k of ['minLength', 'minimum', 'minItems']) tighten(k, p[k], Math.max);
    for (const k of ['maxLength', 'maximum', 'maxItems']) tighten(k, p[k], Math.min);
    tighten('minimum', p.exclusiveMinimum, Math.max);
    tighten('maximum', p.exclusiveMaximum, Math.min);
  }
  if (values) kinds = new Set([...kinds].filter((k) => values!.some((v) => kindOf(v) === k)));
  return { ...alt, kinds, enum: values };
}

export function resolver(doc: Schema) {
  const pointer = (ref: string) =>
    ref
      .slice(2)
      .split('/')
      .reduce((o: Schema, k: string) => o[k], doc);
  const cross = (a: Schema[][], b: Schema[][]) => a.flatMap((x) => b.map((y) => [...x, ...y]));
  /** The alternatives (oneOf/anyOf) of a schema, each the list of its parts (allOf, $ref and siblings). */
  const alternatives = (s: Schema | undefined): Schema[][] => {
    if (!s) return [[]];
    const { $ref, allOf, oneOf, anyOf, ...base } = s;
    let out: Schema[][] = [[base]];
    if ($ref) out = cross(out, alternatives(pointer($ref)));
    for (const p of allOf ?? []) out = cross(out, alternatives(p));
    const variants = oneOf ?? anyOf;
    if (variants) out = cross(out, variants.flatMap(alternatives));
    return out;
  };
  /** The alternatives at a path; only those that declare each step (another variant is not this field). */
  const at = (s: Schema | undefined, steps: string[]): Schema[][] =>
    steps.reduce(
      (alts, step) =>
        alts.flatMap((parts) => {
          const subs = parts.map((p) => (step === '[]' ? p.items : p.properties?.[step])).filter(Boolean);
          return subs.length ? subs.map(alternatives).reduce(cross) : [];
        }),
      alternatives(s),
    );
  const deref = (s: Schema | undefined) => (s?.$ref ? pointer(s.$ref) : s);
  return { at, deref };
}

const DOC_ID = 'https://paygate.invalid/bundle';

export function checker(doc: Schema) {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addPaygateFormats(ajv as never);
  ajv.addSchema({ $id: DOC_ID, components: doc.components });
  const compile = (schema: Schema): ValidateFunction =>
    ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, `"$ref":"${DOC_ID}#/`)));
  return { compile };
}

/** The hosted type as a JSON Schema, to check the data file's own examples. */
export function hostedSchema(h: Hosted): Schema {
  const s: Schema = { type: h.nullable ? [h.type, 'null'] : h.type };
  if (h.enum) s.enum = h.nullable ? [...h.enum, null] : h.enum;
  for (const k of ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems', 'pattern'] as const)
    if (h[k] !== undefined) s[k] = h[k];
  if (h.format && h.type === 'string') s.format = h.format;
  return s;
}

export function check(doc: Schema, version: string): { problems: Problem[]; count: number } {
  const hosted: { operations: HostedOp[] } = JSON.parse(
    fs.readFileSync(path.join(root, 'contract-tests/hosted-contract', `${version}.json`), 'utf8'),
  );
  const { at, deref } = resolver(doc);
  const { compile } = checker(doc);
  const problems: Problem[] = [];
  const list = entries();

  for (const e of list) {
    const problem = (check: string, detail: string) => problems.push({ key: e.key, aliases: e.aliases, check, detail });
    const [method, p] = e.op.split(' ');
    const item = doc.paths[p];
    const op = item?.[method.toLowerCase()];
    const facts = hosted.operations.find((o) => o.method === method && o.path === p);
    if (!op || !facts) {
      problem('missing', 'operation not found');
      continue;
    }

    let rootSchema: Schema | undefined;
    if (e.part === 'param') {
      const [where, name] = e.where.split(/:(.*)/s);
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map(deref);
      const found = params.find((x?: Schema) => x?.in === where && x.name.toLowerCase() === name.toLowerCase());
      if (found) rootSchema = found.schema;
      else if (where === 'header' && SECURITY_HEADERS.has(name.toLowerCase())) rootSchema = { type: 'string' };
      else {
        problem('missing', 'parameter not accepted');
        continue;
      }
      if (e.spec.nullable && found?.required && e.path.length === 0) problem('nullable', 'optional in the seed, required here');
    } else {
      const holder = e.part === 'request' ? deref(op.requestBody) : deref(op.responses[facts.success[0]]);
      rootSchema = holder?.content?.['application/json']?.schema;
    }
    const alts = at(rootSchema, e.path);
    if (!alts.length) {
      problem('missing', 'field not found');
      continue;
    }

    // A path parameter is never empty: an empty segment is another URL.
    compare(compile, e.part, e.where.startsWith('path:') ? { minLength: 1, ...e.spec } : e.spec, alts, problem);
  }
  return { problems, count: list.length };
}

/** One hosted type against the alternatives of ours at its place: requests and parameters not stricter, responses within. */
export function compare(
  compile: (schema: Schema) => ValidateFunction,
  part: Part,
  h: Hosted,
  alts: Schema[][],
  problem: (check: string, detail: string) => void,
  within = false, // responses need only stay within the hosted type, not also emit each value or null it allows
): void {
  const summaries = alts.map(summarize);
  const accepts = compile({ anyOf: alts.map((parts) => ({ allOf: parts })) });
  const hostedKinds = KINDS[h.type];
  const union = new Set(summaries.flatMap((s) => [...s.kinds]));
  const shown = [...(h.enum ?? []), ...(h.shown ?? [])];

  if (part === 'response') {
    const extra = [...union].filter((k) => !hostedKinds.includes(k) && !(k === 'null' && h.nullable));
    if (extra.some((k) => k !== 'null')) problem('type', `ours may be ${extra.join(', ')}; hosted: ${h.type}`);
    if (!!h.nullable !== accepts(null) && !(within && h.nullable))
      problem('nullable', h.nullable ? 'hosted may be null, ours never is' : 'ours may be null, hosted never is');
    for (const v of within ? [] : shown) if (!accepts(v)) problem('enum', `hosted value ${JSON.stringify(v)} not in ours`);
    for (const v of h.invalid ?? []) if (accepts(v)) problem('invalid', `ours allows ${JSON.stringify(v)}, outside the hosted type`);
    for (const s of summaries.filter((x) => hostedKinds.some((k) => x.kinds.has(k)))) {
      if (h.enum && !(s.enum ?? [undefined]).every((v) => h.enum!.includes(v) || (v === null && h.nullable)))
        problem('enum', `ours allows ${s.enum ? JSON.stringify(s.enum) : 'any value'}; hosted: ${JSON.stringify(h.enum)}`);
      const samePattern = h.pattern !== undefined && s.patterns.includes(h.pattern); // the same language, the same lengths
      const nonEmpty = s.patterns.some((x) => !new RegExp(x, 'u').test('')); // a pattern no empty string matches
      for (const k of ['minLength', 'minimum', 'minItems'] as const)
        if (
          h[k] !== undefined &&
          !((s.num[k] ?? -Infinity) >= h[k]!) &&
          !(samePattern && k === 'minLength') &&
          !(nonEmpty && k === 'minLength' && h[k] === 1)
        )
          problem(k, `ours ${s.num[k] ?? 'none'}, hosted ${h[k]}`);
      for (const k of ['maxLength', 'maximum', 'maxItems'] as const)
        if (h[k] !== undefined && !((s.num[k] ?? Infinity) <= h[k]!) && !(samePattern && k === 'maxLength'))
          problem(k, `ours ${s.num[k] ?? 'none'}, hosted ${h[k]}`);
      const bounded = s.enum !== undefined || s.patterns.length > 0;
      if (h.pattern && !bounded) problem('pattern', `hosted form ${h.pattern}; ours has no pattern`);
      if (h.format && h.type === 'string' && !s.formats.includes(h.format) && !bounded)
        problem('format', `hosted format ${h.format}; ours ${s.formats.join(', ') || 'none'}`);
    }
  } else {
    if (!hostedKinds.every((k) => union.has(k))) problem('type', `hosted ${h.type}; ours ${[...union].join(', ')}`);
    if (h.nullable && part === 'request' && !accepts(null)) problem('nullable', 'hosted may send null, ours refuses it');
    for (const v of shown) if (!accepts(v)) problem('enum', `hosted value ${JSON.stringify(v)} refused`);
    for (const v of h.examples ?? []) if (v !== null && !accepts(v)) problem('examples', `hosted value ${JSON.stringify(v)} refused`);
    // The least strict alternative of the hosted kind: what it adds to the hosted type is a stricter request.
    const stricter =
      summaries
        .filter((s) => hostedKinds.some((k) => s.kinds.has(k)))
        .map((s) => {
          const out: [string, string][] = [];
          for (const k of ['minLength', 'minimum', 'minItems'] as const)
            if ((s.num[k] ?? -Infinity) > (h[k] ?? (k === 'minimum' ? -Infinity : 0)))
              out.push([k, `ours ${s.num[k]}, hosted ${h[k] ?? 'none'}`]);
          for (const k of ['maxLength', 'maximum', 'maxItems'] as const)
            if ((s.num[k] ?? Infinity) < (h[k] ?? Infinity)) out.push([k, `ours ${s.num[k]}, hosted ${h[k] ?? 'none'}`]);
          for (const x of s.patterns) if (x !== h.pattern) out.push(['pattern', `ours ${x}, hosted ${h.pattern ?? 'none'}`]);
          for (const x of s.formats)
            if (x !== h.format && h.type === 'string') out.push(['format', `ours ${x}, hosted ${h.format ?? 'none'}`]);
          if (s.enum && !(h.enum && h.enum.every((v) => s.enum!.includes(v))))
            out.push(['enum', `ours only ${JSON.stringify(s.enum)}, hosted ${h.enum ? JSON.stringify(h.enum) : 'any value'}`]);
          return out;
        })
        .sort((a, b) => a.length - b.length)[0] ?? [];
    for (const [k, detail] of stricter) problem(k, detail);
    if (h.default !== undefined && !summaries.some((s) => s.default === h.default))
      problem('default', `hosted default ${JSON.stringify(h.default)}, ours ${JSON.stringify(summaries.map((s) => s.default))}`);
  }
}

export const documented = (p: Problem) =>
  differences.find((d) => [d.check].flat().includes(p.check) && [d.at].flat().some((at) => at === p.key || p.aliases.includes(at)));
export const show = (p: Problem) => `${p.key}: ${p.check}: ${p.detail}`;
export const bundle = (version: string): Schema =>
  JSON.parse(fs.readFileSync(path.join(root, 'generated', version, 'openapi.json'), 'utf8'));
