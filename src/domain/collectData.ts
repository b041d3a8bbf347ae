import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Issue } from './errors';

// Buyer data collected at or above an account's threshold (docs/decisions.md, seed §2.9): the form fields, the JSON Schema
// (draft 2020-12) the data must satisfy, and the two wire forms it may arrive in.

export const DEFAULT_COLLECT_THRESHOLD_MINOR = 100_000n; // USD 1,000.00

export const COLLECT_FIELDS = [
  { id: 'fullName', name: 'Full name', required: true, type: 'text' },
  { id: 'dob', name: 'Date of birth', required: true, type: 'date' },
  { id: 'pobCountry', name: 'Country of birth', required: false, type: 'text' },
  { id: 'pobAddress', name: 'Place of birth', required: false, type: 'text' },
  { id: 'porCountry', name: 'Country of residence', required: false, type: 'text' },
  { id: 'porAddress', name: 'Address of residence', required: false, type: 'text' },
  { id: 'tosConfirmed', name: 'I accept the terms of service', required: true, type: 'checkbox' },
];

export const COLLECT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  required: ['fullName', 'dob', 'tosConfirmed'],
  properties: {
    fullName: { type: 'string', minLength: 1 },
    dob: { type: 'string', format: 'date' },
    pobCountry: { type: 'string', pattern: '^[A-Z]{2}$' },
    pobAddress: { type: 'string', maxLength: 200 },
    porCountry: { type: 'string', pattern: '^[A-Z]{2}$' },
    porAddress: { type: 'string', maxLength: 200 },
    tosConfirmed: { type: 'boolean', const: true },
  },
  anyOf: [{ required: ['pobCountry', 'pobAddress'] }, { required: ['porCountry', 'porAddress'] }],
};

// Compiled on first use, not when the module loads: every process loads it, and most never see collected data.
// strictRequired would reject the anyOf branches, whose required properties are defined one level up.
let compiled: ValidateFunction | undefined;
function validator(): ValidateFunction {
  if (!compiled) {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
    addFormats(ajv);
    compiled = ajv.compile(COLLECT_SCHEMA);
  }
  return compiled;
}

/** `token`: the caller's collect link token (src/domain/collectLink.ts). */
export function collectDataFor(publicBaseUrl: string, paymentId: string, accounts: string[], token: string) {
  const q = new URLSearchParams({ pid: paymentId, accounts: accounts.join(','), token });
  return { fields: COLLECT_FIELDS, schema: COLLECT_SCHEMA, url: `${publicBaseUrl}/collect?${q}` };
}

const FIELD_TYPES: ReadonlyMap<string, string> = new Map(COLLECT_FIELDS.map((f) => [f.id, f.type]));
const KNOWN_IDS = COLLECT_FIELDS.map((f) => f.id).join(', ');

// RFC 3339 date or date-time: the date as written (a date of birth has no time zone of its own).
const DATE_STRING = /^(\d{4}-\d{2}-\d{2})(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The `{fields: [{id, value}]}` form types every value as a string (the hosted contract sends
 * `{"id": "tosConfirmed", "value": "true"}`): a checkbox's "true"/"false" becomes the boolean and a
 * date-time keeps its date, so the schema sees the values the flat form would carry.
 */
function fromStringForm(id: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const type = FIELD_TYPES.get(id);
  const v = value.trim();
  if (type === 'checkbox' && (v === 'true' || v === 'false')) return v === 'true';
  if (type === 'date') return DATE_STRING.exec(v)?.[1] ?? value;
  return value;
}

export type Collected = { ok: true; json: string; data: Record<string, unknown> } | { ok: false; issues: Issue[] };

/**
 * `{fields: [{id, value}]}` or the flat object -> the JSON text to store and the object the schema checked
 * (parsed back from that text: `JSON.stringify(data) === json`, so what is sealed is exactly what was
 * validated). Only known field ids are taken, into a record without a prototype: an id like `__proto__`
 * must never reach an object's prototype, where Ajv would still see its properties but JSON would not.
 */
export function collectedJson(input: unknown, base = '/collectedData'): Collected {
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, issues: [{ field: base, message: 'must be {fields: [{id, value}]} or an object keyed by field id' }] };
  }
  const record: Record<string, unknown> = Object.create(null);
  const issues: Issue[] = [];
  const take = (id: string, value: unknown, field: string) => {
    if (!FIELD_TYPES.has(id)) issues.push({ field, message: `is not a known field (${KNOWN_IDS})` });
    else if (Object.prototype.hasOwnProperty.call(record, id)) issues.push({ field, message: `gives ${id} a second time` });
    else if (value === undefined) issues.push({ field, message: 'has no value' });
    else record[id] = value;
  };
  const fields = (input as { fields?: unknown }).fields;
  if (Array.isArray(fields) && Object.keys(input).length === 1) {
    fields.forEach((f: unknown, i) => {
      const id = f && typeof f === 'object' && !Array.isArray(f) ? (f as { id?: unknown }).id : undefined;
      if (typeof id !== 'string')
        return void issues.push({ field: `${base}/fields/${i}`, message: 'must be {id, value} with a string id' });
      const value = (f as { value?: unknown }).value;
      take(id, fromStringForm(id, value), value === undefined ? `${base}/fields/${i}/value` : `${base}/fields/${i}/id`);
    });
  } else {
    for (const [id, value] of Object.entries(input)) take(id, value, `${base}/${pointerToken(id)}`);
  }
  if (issues.length) return { ok: false, issues };
  const json = JSON.stringify(record);
  const data = JSON.parse(json) as Record<string, unknown>;
  const schemaIssues = collectedIssues(data, base);
  return schemaIssues.length ? { ok: false, issues: schemaIssues } : { ok: true, json, data };
}

const pointerToken = (s: string) => s.slice(0, 100).replace(/~/g, '~0').replace(/\//g, '~1');

/** Issues against the schema (fields as JSON pointers under `base`); empty when valid. */
export function collectedIssues(data: Record<string, unknown>, base = '/collectedData'): Issue[] {
  const validate = validator();
  if (validate(data)) return [];
  const out: Issue[] = [];
  for (const e of validate.errors ?? []) {
    if (e.keyword === 'anyOf') {
      out.push({ field: base, message: 'must give a place of birth (pobCountry, pobAddress) or of residence (porCountry, porAddress)' });
      continue;
    }
    if (e.schemaPath.startsWith('#/anyOf/')) continue;
    const p = e.params as { missingProperty?: string; additionalProperty?: string };
    const name = p.missingProperty ?? p.additionalProperty;
    out.push({
      field: `${base}${e.instancePath}${name ? `/${name}` : ''}`,
      message: p.additionalProperty ? 'is not a known field' : (e.message ?? 'is invalid'),
    });
  }
  return out;
}
