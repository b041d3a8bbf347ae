import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';

// spec/internal/hosted.yaml describes the hosted pages' JSON routes for the service's validator only: it must stay
// out of the API's versions (their bundles feed the reference, the SDKs and the contract gate), and where its
// requests are the API's (options, confirm) they must be the API's schemas, not copies that drift.

const root = path.resolve(__dirname, '../..');
const read = (f: string) => JSON.parse(fs.readFileSync(path.join(root, 'generated', f), 'utf8'));
const hosted = read('internal/hosted.json');
const versions = ['2026-02-18', '2026-02-19.preview'].map((v) => read(`${v}/openapi.json`));

describe('the hosted pages internal document', () => {
  it('has only routes of the hosted pages, none of which is in an API version', () => {
    const paths = Object.keys(hosted.paths);
    expect(paths.sort()).toEqual(['/collect', '/pay/{id}/confirm', '/pay/{id}/fetch', '/pay/{id}/options', '/pay/{id}/status']);
    for (const doc of versions) {
      expect(Object.keys(doc.paths).filter((p) => paths.includes(p) || p.startsWith('/pay/'))).toEqual([]);
      expect(JSON.stringify(doc)).not.toContain('hostedPay');
    }
  });

  it('needs no credential, and its request bodies are the API versions’ own schemas', () => {
    expect(hosted.security).toEqual([]);
    const bodyOf = (doc: any, p: string) => {
      const schema = doc.paths[p].post.requestBody.content['application/json'].schema;
      return doc.components.schemas[schema.$ref.split('/').pop()];
    };
    for (const doc of versions) {
      expect(isDeepStrictEqual(bodyOf(hosted, '/pay/{id}/options'), bodyOf(doc, '/v1/gateway/payment/{id}/options'))).toBe(true);
      expect(isDeepStrictEqual(bodyOf(hosted, '/pay/{id}/confirm'), bodyOf(doc, '/v1/gateway/payment/{id}/confirm'))).toBe(true);
      expect(hosted.components.schemas.Error).toEqual(doc.components.schemas.Error);
    }
  });
});
