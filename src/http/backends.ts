import fs from 'node:fs';
import path from 'node:path';
import OpenAPIBackend, { Document, OpenAPIValidator, Operation, type AjvCustomizer } from 'openapi-backend';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { addPaygateFormats } from './formats';
import { projectRoot } from '../paths';
import { ApiVersion, VERSIONS } from '../domain/versions';

// openapi-backend 5.21 checks definitions against OpenAPI 3.0 only and compiles with draft-07 Ajv. Our
// documents are 3.1 / JSON Schema 2020-12 (linted by Redocly in CI), so we skip its check and hand it
// an Ajv2020 with formats.
class OpenAPI31Backend extends OpenAPIBackend {
  override validateDefinition(): Document {
    return this.document;
  }
}

/** A bundled document of generated/: an API version's, or an internal one's (`internal/hosted.json`). */
function loadDocument(file: string): Document {
  return JSON.parse(fs.readFileSync(path.join(projectRoot, 'generated', file), 'utf8')) as Document;
}

// openapi-backend asks for an Ajv per validator (hundreds). Checking each schema against the 2020-12 meta-schema
// compiled that meta-schema in every one of them, seconds of CPU at every start. The documents are checked
// once, where they are made (Redocly lint in make test and CI). So one Ajv per set of options, which compiles
// each distinct schema once: most recur, across operations and between the versions, which are mostly alike.
const ajvs = new Map<string, Ajv2020>();
const customizeAjv: AjvCustomizer = (_ajv, opts) => {
  const options = JSON.stringify(opts);
  let ajv = ajvs.get(options);
  if (!ajv) {
    const shared = new Ajv2020({ ...opts, strict: false, allErrors: true, validateSchema: false });
    addPaygateFormats(shared as never);
    const compiled = new Map<string, ValidateFunction>();
    const compile = shared.compile.bind(shared);
    shared.compile = ((schema: object) => {
      const key = JSON.stringify(schema);
      const known = compiled.get(key);
      if (known) return known;
      const fn = compile(schema);
      compiled.set(key, fn);
      return fn;
    }) as typeof shared.compile;
    ajvs.set(options, shared);
    ajv = shared;
  }
  return ajv as unknown as typeof _ajv;
};
const ajvOpts = { strict: false, useDefaults: true };

/**
 * One version's router and validator. The request validators are compiled at start (the first request of each
 * operation pays nothing), or, with `precompile` false (PRECOMPILE_VALIDATORS), each on its operation's first
 * request: a process that serves few operations (a test's service) skips the rest. The response validators are
 * compiled on first use, and only where replies are checked (VALIDATE_RESPONSES: development and tests); the
 * response-header validators, which nothing here uses, never. openapi-backend compiled all three at start.
 */
async function createBackend(file: string, precompile: boolean): Promise<OpenAPIBackend> {
  const backend = new OpenAPI31Backend({ definition: loadDocument(file), strict: true, coerceTypes: true, validate: false });
  await backend.init();
  backend.validator = new OpenAPIValidator({
    definition: backend.definition,
    ajvOpts,
    customizeAjv,
    router: backend.router,
    lazyCompileValidators: true,
    coerceTypes: true,
  });
  if (precompile) backend.validator.preCompileRequestValidators();
  return backend;
}

export type Backends = Record<ApiVersion, OpenAPIBackend>;

export async function createBackends(precompile = true): Promise<Backends> {
  const entries = await Promise.all(VERSIONS.map(async (v) => [v, await createBackend(`${v}/openapi.json`, precompile)] as const));
  return Object.fromEntries(entries) as Backends;
}

/**
 * The hosted pages' JSON routes (spec/internal/hosted.yaml): not an API version, so no router of the API's
 * serves them, but their requests are validated by the same validator, with the same Ajv and its settings.
 */
export function createHostedBackend(precompile = true): Promise<OpenAPIBackend> {
  return createBackend('internal/hosted.json', precompile);
}

export type { Operation };
