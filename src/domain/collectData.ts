import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Issue } from './errors';

// Buyer data collected at or above an account's threshold (seed 2.9): the form fields, the JSON Schema
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

// strictRequired would reject the anyOf branches, whose required properties are defined one level up.
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
addFormats(ajv);
const validate = ajv.compile(COLLECT_SCHEMA);

export function collectDataFor(publicBaseUrl: string, paymentId: string, accounts: string[]) {
  const q = new URLSearchParams({ pid: paymentId, accounts: accounts.join(',') });
  return { fields: COLLECT_FIELDS, schema: COLLECT_SCHEMA, url: `${publicBaseUrl}/collect?${q}` };
}

/** `{fields: [{id, value}]}` or the flat object -> the flat object; null when it is neither. */
export function normaliseCollected(input: unknown): Record<string, unknown> | null {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return null;
  const fields = (input as { fields?: unknown }).fields;
  if (Array.isArray(fields) && Object.keys(input).length === 1) {
    const out: Record<string, unknown> = {};
    for (const f of fields) {
      if (!f || typeof f !== 'object' || typeof (f as { id?: unknown }).id !== 'string') return null;
      out[(f as { id: string }).id] = (f as { value?: unknown }).value;
    }
    return out;
  }
  return input as Record<string, unknown>;
}

/** Issues against the schema (fields as JSON pointers under `base`); empty when valid. */
export function collectedIssues(data: Record<string, unknown>, base = '/collectedData'): Issue[] {
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
    out.push({ field: `${base}${e.instancePath}${name ? `/${name}` : ''}`, message: p.additionalProperty ? 'is not a known field' : e.message ?? 'is invalid' });
  }
  return out;
}
