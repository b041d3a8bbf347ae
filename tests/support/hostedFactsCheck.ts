import fs from 'node:fs';
import path from 'node:path';
import { Hosted, Part, Problem, checker, compare, resolver, root } from './hostedTypesCheck';

// The hosted service's own type facts (contract-tests/hosted-contract/hosted-types-<version>.json, copied from
// the hosted documents) against each bundled document, entry by entry: parameters and request fields accept all
// the hosted type allows (type, format, enum, bounds, array items, query arrays exploded in form style) and
// require nothing it leaves optional; success-response fields stay within what it promises (type, nullability,
// enum) and are always there where it always returns them; and per error status, the codes our document gives
// (its examples) are codes the hosted document lists for that status. The comparison of one type is the one of
// hostedTypesCheck.ts; deliberate differences are the `differences` of types.json.

type Schema = Record<string, any>;
interface FactSchema extends Schema {
  type?: string;
  nullable?: boolean;
  items?: FactSchema;
  oneOf?: FactSchema[];
}
interface FactField extends FactSchema {
  required: boolean;
}
interface FactOp {
  method: string;
  path: string;
  params: { in: string; name: string; required: boolean; schema: FactSchema }[];
  request: Record<string, FactField>;
  responses: Record<string, { body?: Record<string, FactField>; codes?: string[] | null }>;
}

const SECURITY_HEADERS = new Set(['api-key', 'app-id', 'client-id']);
const HOSTED_KEYS = ['type', 'nullable', 'enum', 'default', 'format', 'pattern', 'examples'];
const BOUNDS = ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems'];

export const facts = (version: string): { operations: FactOp[] } =>
  JSON.parse(fs.readFileSync(path.join(root, 'contract-tests/hosted-contract', `hosted-types-${version}.json`), 'utf8'));

/** The hosted facts of one schema in the form hostedTypesCheck.ts compares; none when it names no single type. */
function hostedOf(s: FactSchema): Hosted | undefined {
  const types = s.type ? [s.type] : [...new Set((s.oneOf ?? []).map((v) => v.type))];
  if (types.length !== 1 || !types[0]) return undefined;
  const h: Record<string, unknown> = { type: types[0], source: 'hosted facts' };
  for (const k of [...HOSTED_KEYS, ...BOUNDS]) if (s[k] !== undefined && k !== 'type') h[k] = s[k];
  return h as unknown as Hosted;
}

/** "/a/b[]/c" -> ["a", "b", "[]", "c"]. */
const steps = (pointer: string) =>
  pointer
    .split('/')
    .filter(Boolean)
    .flatMap((s) => (s.endsWith('[]') ? [s.slice(0, -2), '[]'] : [s]));

/** The codes an error response documents: the `code` of each of its examples. */
function documentedCodes(r: Schema, deref: (s: Schema | undefined) => Schema | undefined): string[] {
  const examples = deref(r)?.content?.['application/json']?.examples ?? {};
  return Object.values<Schema>(examples).map((e) => deref(e)?.value?.code);
}

export function checkFacts(doc: Schema, version: string): { problems: Problem[]; count: number } {
  const { at, deref } = resolver(doc);
  const { compile } = checker(doc);
  const problems: Problem[] = [];
  let count = 0;
  let op = '';
  // Every finding is also named by its operation (`op:GET /v1/payments`), for a difference of a whole operation.
  const reporter = (key: string, aliases: string[]) => (check: string, detail: string) =>
    problems.push({ key, aliases: [...aliases, `op:${op}`], check, detail });

  /** One typed entry and its array items, against ours under `rootSchema`. */
  const typed = (part: Part, key: string, aliases: string[], rootSchema: Schema | undefined, at0: string[], s: FactSchema) => {
    const problem = reporter(key, aliases);
    const alts = at(rootSchema, at0);
    const h = hostedOf(s);
    count++;
    if (!alts.length) return problem('missing', 'not found here');
    if (h) compare(compile, part, at0.length === 0 && key.includes(' param path:') ? { minLength: 1, ...h } : h, alts, problem, true);
    const variants = s.oneOf ?? [s];
    for (const v of variants.filter((x) => x.type === 'array' && x.items && hostedOf(x.items)))
      typed(
        part,
        `${key}/[]`,
        aliases.map((a) => `${a}/[]`),
        rootSchema,
        [...at0, '[]'],
        v.items!,
      );
  };
  /** Whether every alternative of the object holding the field lists it in `required`. */
  const required = (rootSchema: Schema | undefined, fieldPath: string[]) => {
    const name = fieldPath[fieldPath.length - 1];
    // Only the alternatives that have the field (another variant, or null, is not this object).
    const parents = at(rootSchema, fieldPath.slice(0, -1)).filter((parts) => parts.some((p) => p.properties?.[name]));
    return parents.length > 0 && parents.every((parts) => parts.some((p) => (p.required ?? []).includes(name)));
  };

  for (const f of facts(version).operations) {
    op = `${f.method} ${f.path}`;
    const item = doc.paths[f.path];
    const ours = item?.[f.method.toLowerCase()];
    if (!ours) {
      reporter(op, [])('missing', 'operation not found');
      continue;
    }

    const params = [...(item.parameters ?? []), ...(ours.parameters ?? [])].map(deref);
    for (const p of f.params) {
      const key = `${op} param ${p.in}:${p.name}`;
      const aliases = [`${p.in}:${p.name}`];
      const problem = reporter(key, aliases);
      const found = params.find((x?: Schema) => x?.in === p.in && x.name.toLowerCase() === p.name.toLowerCase());
      if (!found && !(p.in === 'header' && SECURITY_HEADERS.has(p.name.toLowerCase()))) {
        problem('missing', 'parameter not accepted');
        continue;
      }
      if (!p.required && found?.required) problem('required', 'optional there, required here');
      const isArray = p.schema.type === 'array' || p.schema.oneOf?.some((v) => v.type === 'array');
      if (found && p.in === 'query' && isArray && ((found.style ?? 'form') !== 'form' || found.explode === false))
        problem(
          'explode',
          `a hosted client repeats the parameter (form, exploded); ours: ${found.style ?? 'form'}, explode ${found.explode}`,
        );
      typed('param', key, aliases, found ? found.schema : { type: 'string' }, [], p.schema);
    }

    const body = (part: 'request' | 'response', rootSchema: Schema | undefined, fields: Record<string, FactField>) => {
      for (const [pointer, field] of Object.entries(fields)) {
        const at0 = steps(pointer);
        const key = `${op} ${part} /${at0.join('/')}`;
        const aliases = [`${part}:/${at0.join('/')}`]; // the same field of every operation
        const problem = reporter(key, aliases);
        if (!at(rootSchema, at0).length) {
          if (part === 'request' || field.required) problem('missing', 'field not found');
          continue;
        }
        typed(part, key, aliases, rootSchema, at0, field);
        const ourRequired = required(rootSchema, at0);
        if (part === 'request' && !field.required && ourRequired) problem('required', 'optional there, required here');
        if (part === 'response' && field.required && !ourRequired) problem('required', 'always returned there; ours may leave it out');
      }
    };
    const requestSchema = deref(ours.requestBody)?.content?.['application/json']?.schema;
    if (Object.keys(f.request).length) body('request', requestSchema, f.request);
    const success = Object.keys(f.responses).find((s) => s.startsWith('2'))!;
    if (!ours.responses[success]) reporter(`${op} status ${success}`, [])('missing', 'success status not documented');
    else body('response', deref(ours.responses[success])?.content?.['application/json']?.schema, f.responses[success].body ?? {});

    // Errors: per status, our documented codes within the hosted list for it.
    const hostedErrors = Object.entries(f.responses).filter(([s]) => !s.startsWith('2'));
    const lists = hostedErrors.map(([, r]) => JSON.stringify(r.codes));
    const specific = new Set(lists).size > 1; // one list under every status names codes, not their statuses
    for (const [status, r] of Object.entries<Schema>(ours.responses)) {
      if (status.startsWith('2') || status === 'default') continue;
      const hosted = f.responses[status];
      count++;
      if (!hosted) reporter(`${op} status ${status}`, [`status:${status}`])('status', 'a status the hosted document does not list');
      for (const code of documentedCodes(r, deref)) {
        const problem = reporter(`${op} status ${status} code ${code}`, [`code:${code}`, `status:${status} code:${code}`]);
        if (hosted?.codes && !hosted.codes.includes(code)) problem('code', `hosted ${status} codes: ${hosted.codes.join(', ')}`);
        const elsewhere = hostedErrors.filter(([s, x]) => s !== status && x.codes?.includes(code)).map(([s]) => s);
        if (!hosted && specific && elsewhere.length) problem('code', `the hosted document answers ${code} with ${elsewhere.join(', ')}`);
      }
    }
  }
  return { problems, count };
}
