import fs from 'node:fs';
import path from 'node:path';

// Each bundled document must be a compatible superset of the hosted service's public contract
// (contract-tests/hosted-contract/, a copy of shared/hosted-contract/): same operations and success
// statuses, every always-returned response field, every accepted request field and parameter, and no
// request field required that the hosted contract leaves optional.

type Schema = Record<string, any>;
interface Shape {
  required?: string[];
  properties?: Record<string, Shape | null>;
  items?: Shape | null;
  variants?: Shape[];
}
interface HostedOp {
  method: string;
  path: string;
  success: string[];
  params: { in: string; name: string; required: boolean }[];
  request: Shape | null;
  response: Shape | null;
}

const root = path.resolve(__dirname, '../..');
const SECURITY_HEADERS: Record<string, string> = { 'api-key': 'ApiKey', 'app-id': 'AppId', 'client-id': 'ClientId' };

function resolver(doc: Schema) {
  const deref = (s: Schema | undefined): Schema | undefined => {
    let x = s;
    while (x && x.$ref)
      x = x.$ref
        .slice(2)
        .split('/')
        .reduce((o: Schema, k: string) => o[k], doc);
    return x;
  };
  /** Merges allOf and collects properties/required of a schema (oneOf/anyOf variants: every variant). */
  const flatten = (s: Schema | undefined): Schema[] => {
    const x = deref(s);
    if (!x) return [];
    const variants = x.oneOf ?? x.anyOf;
    if (variants) {
      return variants.flatMap((v: Schema) =>
        flatten(v).map((f) => ({
          ...f,
          properties: { ...(x.properties ?? {}), ...f.properties },
          required: [...(x.required ?? []), ...(f.required ?? [])],
        })),
      );
    }
    const parts = [x, ...(x.allOf ?? []).flatMap((p: Schema) => flatten(p))];
    return [
      {
        properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
        required: parts.flatMap((p) => p.required ?? []),
        items: x.items,
      },
    ];
  };
  return { deref, flatten };
}

function check(version: string): string[] {
  const doc: Schema = JSON.parse(fs.readFileSync(path.join(root, 'generated', version, 'openapi.json'), 'utf8'));
  const hosted: { operations: HostedOp[] } = JSON.parse(
    fs.readFileSync(path.join(root, 'contract-tests/hosted-contract', `${version}.json`), 'utf8'),
  );
  const { deref, flatten } = resolver(doc);
  const problems: string[] = [];

  const responseCovers = (ours: Schema | undefined, theirs: Shape | null | undefined, at: string) => {
    if (!theirs) return;
    const flats = flatten(ours).filter((f) => f.properties && Object.keys(f.properties).length);
    const forms = flats.length ? flats : flatten(ours);
    for (const f of forms) {
      for (const req of theirs.required ?? [])
        if (!(f.required ?? []).includes(req)) problems.push(`${at}: response field ${req} is not always returned`);
      for (const [name, sub] of Object.entries(theirs.properties ?? {})) {
        if (!f.properties?.[name]) {
          problems.push(`${at}: response lacks field ${name}`);
          continue;
        }
        responseCovers(f.properties[name], sub, `${at}.${name}`);
      }
      if (theirs.items) responseCovers(f.items, theirs.items, `${at}[]`);
    }
  };
  /** Problems of a request schema against the hosted fields; with variants, one accepting variant is enough. */
  const requestProblems = (ours: Schema | undefined, theirs: Shape | null | undefined, at: string): string[] => {
    if (!theirs) return [];
    const perVariant = flatten(ours).map((f) => {
      const out: string[] = [];
      for (const req of f.required ?? []) if (!(theirs.required ?? []).includes(req)) out.push(`${at}: we require ${req}, hosted does not`);
      for (const [name, sub] of Object.entries(theirs.properties ?? {})) {
        if (!f.properties?.[name]) out.push(`${at}: request field ${name} not accepted`);
        else out.push(...requestProblems(f.properties[name], sub, `${at}.${name}`));
      }
      if (theirs.items) out.push(...requestProblems(f.items, theirs.items, `${at}[]`));
      return out;
    });
    return perVariant.find((p) => p.length === 0) ?? perVariant[0] ?? [];
  };

  for (const op of hosted.operations) {
    const at = `${op.method} ${op.path}`;
    const ours = doc.paths[op.path]?.[op.method.toLowerCase()];
    if (!ours) {
      problems.push(`${at}: missing`);
      continue;
    }
    for (const s of op.success) if (!ours.responses[s]) problems.push(`${at}: no ${s} response`);
    const params = [...(doc.paths[op.path].parameters ?? []), ...(ours.parameters ?? [])].map((p: Schema) => deref(p)!);
    const security = (ours.security ?? doc.security ?? []).flatMap((r: Schema) => Object.keys(r));
    for (const p of op.params) {
      const found = params.find((x: Schema) => x.in === p.in && x.name.toLowerCase() === p.name.toLowerCase());
      const viaSecurity = p.in === 'header' && security.includes(SECURITY_HEADERS[p.name.toLowerCase()]);
      if (!found && !viaSecurity) problems.push(`${at}: parameter ${p.in}:${p.name} not accepted`);
      if (found?.required && !p.required && p.in !== 'path') problems.push(`${at}: we require ${p.name}, hosted does not`);
    }
    const success = ours.responses[op.success[0]];
    responseCovers(deref(success)?.content?.['application/json']?.schema, op.response, at);
    problems.push(...requestProblems(deref(ours.requestBody)?.content?.['application/json']?.schema, op.request, `${at} body`));
  }
  return problems;
}

describe.each(['2026-02-18', '2026-02-19.preview'])('bundled %s', (version) => {
  it('is a compatible superset of the hosted contract', () => {
    expect(check(version)).toEqual([]);
  });
});
