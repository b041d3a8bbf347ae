import fs from 'node:fs';
import path from 'node:path';
import OpenAPIBackend, { Document, Operation } from 'openapi-backend';
import Ajv2020 from 'ajv/dist/2020';
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

function loadDocument(version: ApiVersion): Document {
  const file = path.join(projectRoot, 'generated', version, 'openapi.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Document;
}

async function createBackend(version: ApiVersion): Promise<OpenAPIBackend> {
  const backend = new OpenAPI31Backend({
    definition: loadDocument(version),
    strict: true,
    coerceTypes: true,
    validate: true,
    ajvOpts: { strict: false, useDefaults: true },
    customizeAjv: (_ajv, opts) => {
      const ajv = new Ajv2020({ ...opts, strict: false, allErrors: true });
      addPaygateFormats(ajv as never);
      return ajv as unknown as typeof _ajv;
    },
  });
  await backend.init();
  return backend;
}

export type Backends = Record<ApiVersion, OpenAPIBackend>;

export async function createBackends(): Promise<Backends> {
  const entries = await Promise.all(VERSIONS.map(async (v) => [v, await createBackend(v)] as const));
  return Object.fromEntries(entries) as Backends;
}

export type { Operation };
