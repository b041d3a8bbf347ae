import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/knex';
import { enabledAssetsOn, type Asset } from '../db/assetsRepo';
import type { ChainWork } from '../domain/chain';

// The rendered reference's getting-started names an asset to settle and pay in. The page holds placeholders there
// (scripts/build-docs.mjs writes them, and in dist/docs/examples.json what the spec says in their place); each
// instance fills them with an asset it serves itself, so that every example of the page can be run against the
// instance that serves it (tests/integration/docsExamples.test.ts): a live chain's asset (the key of step 1 is a
// live key), USD-pegged first (the example payment is in USD), paid without an approve first (EIP-3009), as
// `admin devnet info` lists the development chains' assets. An instance that serves none shows the spec's example.

/** Placeholder -> what the page shows there. */
export type DocExamples = Record<string, string>;

/** What a value may hold: it lands in the page's HTML and in its inline JSON unescaped. */
const SAFE = /^[A-Za-z0-9 .,()/:_-]{1,200}$/;

function fill(a: Asset): DocExamples {
  return {
    '@@EXAMPLE_ASSET@@': a.id,
    '@@EXAMPLE_CHAIN@@': a.chainId,
    '@@EXAMPLE_ASSET_LABEL@@': a.networkName ? `${a.symbol} on ${a.networkName}` : a.symbol,
    '@@EXAMPLE_CURRENCY@@': a.pegCurrency ?? '',
  };
}

/** The asset the examples use: by the instance's chain order, then USD-pegged, then EIP-3009, then by symbol. */
export function exampleAsset(assets: Asset[], chainOrder: string[]): Asset | null {
  const rank = (a: Asset) => [chainOrder.indexOf(a.chainId), a.pegCurrency === 'USD' ? 0 : 1, a.transferMethod === 'eip3009' ? 0 : 1];
  const sorted = [...assets].sort((x, y) => {
    const [rx, ry] = [rank(x), rank(y)];
    const i = rx.findIndex((v, k) => v !== ry[k]);
    return i >= 0 ? rx[i] - ry[i] : x.symbol.localeCompare(y.symbol);
  });
  return sorted[0] ?? null;
}

/** This instance's examples, read again at most every `ttlMs` (an operator may add assets while it runs). */
export function docExamples(root: string, db: Db, chainWork: ChainWork, ttlMs = 30_000): () => Promise<DocExamples> {
  let cached: { at: number; value: Promise<DocExamples> } | null = null;
  const written = (): DocExamples => {
    const file = path.join(root, 'dist', 'docs', 'examples.json');
    return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as DocExamples) : {};
  };
  const compute = async (): Promise<DocExamples> => {
    const base = written();
    const chains = chainWork.settlingChains('live').map((c) => c.chainId);
    const asset = exampleAsset(await enabledAssetsOn(db, chains), chains);
    if (!asset) return base;
    const ours = fill(asset);
    return Object.fromEntries(Object.keys({ ...base, ...ours }).map((k) => [k, ours[k] && SAFE.test(ours[k]) ? ours[k] : base[k]]));
  };
  return () => {
    if (!cached || Date.now() - cached.at > ttlMs) {
      const value = compute();
      cached = { at: Date.now(), value };
      value.catch(() => (cached = null)); // a database that did not answer: ask again on the next request
    }
    return cached.value;
  };
}
