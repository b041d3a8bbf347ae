import { issueKey, parseKey, secretMatches } from '../../src/domain/apiKeys';
import { decodeCursor, encodeCursor } from '../../src/domain/cursor';
import { AppError } from '../../src/domain/errors';
import { newId } from '../../src/domain/ids';
import { illFormedTextAt, mayEscapeSurrogates } from '../../src/domain/text';
import { isMerchantCursor } from '../../src/domain/merchant';
import { versionFromHeaders } from '../../src/domain/versions';
import { canonicalJson } from '../../src/http/canonicalJson';
import { loadConfig, ConfigError } from '../../src/config';

const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as AppError).code;
  }
  return 'no error';
};

describe('API version resolution', () => {
  it('takes PAY-Version, WCP-Version or Api-Version as synonyms', () => {
    expect(versionFromHeaders({ 'pay-version': '2026-02-18' })).toBe('2026-02-18');
    expect(versionFromHeaders({ 'wcp-version': '2026-02-19.preview' })).toBe('2026-02-19.preview');
    expect(versionFromHeaders({ 'api-version': '2026-02-18', 'pay-version': '2026-02-18' })).toBe('2026-02-18');
    expect(versionFromHeaders({})).toBeNull();
  });
  it('refuses unknown, malformed and conflicting versions', () => {
    expect(codeOf(() => versionFromHeaders({ 'pay-version': '2025-01-01' }))).toBe('unknown_api_version');
    expect(codeOf(() => versionFromHeaders({ 'pay-version': 'latest' }))).toBe('invalid_api_version');
    expect(codeOf(() => versionFromHeaders({ 'pay-version': '2026-13-01' }))).toBe('invalid_api_version');
    expect(codeOf(() => versionFromHeaders({ 'pay-version': '2026-02-18', 'wcp-version': '2026-02-19.preview' }))).toBe(
      'conflicting_api_versions',
    );
  });
});

describe('API keys', () => {
  it('are high-entropy, parse back to their id, and match only their own hash', () => {
    const a = issueKey('live');
    const b = issueKey('live');
    expect(a.apiKey).not.toBe(b.apiKey);
    const parsed = parseKey(a.apiKey)!;
    expect(parsed.keyId).toBe(a.keyId);
    expect(secretMatches(parsed.secret, a.secretHash)).toBe(true);
    expect(secretMatches(parsed.secret, b.secretHash)).toBe(false);
    expect(a.secretHash.toString('hex')).not.toContain(parsed.secret);
    expect(parsed.mode).toBe('live');
  });
  it('say their mode in their prefix: pgk_test_ for test keys, pgk_ for live ones as before', () => {
    const t = issueKey('test');
    expect(t.apiKey).toMatch(/^pgk_test_[0-9A-Za-z]{16}_[0-9A-Za-z]{43}$/);
    expect(issueKey('live').apiKey).toMatch(/^pgk_[0-9A-Za-z]{16}_[0-9A-Za-z]{43}$/);
    expect(parseKey(t.apiKey)).toMatchObject({ keyId: t.keyId, mode: 'test' });
  });
  it('rejects anything that is not one of ours', () => {
    expect(parseKey('')).toBeNull();
    expect(parseKey('pgk_short_x')).toBeNull();
    expect(parseKey(issueKey('live').apiKey + 'x')).toBeNull();
    expect(parseKey(issueKey('test').apiKey.replace('pgk_test_', 'pgk_tst_'))).toBeNull();
  });
});

describe('ids', () => {
  it('carry their prefix and are not sequential', () => {
    const ids = Array.from({ length: 1000 }, () => newId('mrch'));
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^mrch_[0-9A-Za-z]{22}$/);
  });
});

describe('cursors', () => {
  it('round-trip and refuse tampering', () => {
    const c = encodeCursor({ t: '2026-01-01T00:00:00.000Z', i: 'mrch_x' });
    expect(decodeCursor(c, isMerchantCursor)).toEqual({ t: '2026-01-01T00:00:00.000Z', i: 'mrch_x' });
    expect(decodeCursor('not a cursor!', isMerchantCursor)).toBeNull();
    expect(decodeCursor(encodeCursor({ t: 'yesterday', i: 'x' }), isMerchantCursor)).toBeNull();
    expect(decodeCursor(Buffer.from('{"t":').toString('base64url'), isMerchantCursor)).toBeNull();
  });
});

describe('well-formed text', () => {
  it('finds the first lone surrogate in any string or key of parsed JSON, by its JSON pointer', () => {
    const parse = (json: string) => illFormedTextAt(JSON.parse(json));
    expect(parse('{"a":"\\ud83d\\ude00","b":["\\uD7FF","\\uE000"],"c":1}')).toBeNull(); // a pair, and the code points around them
    expect(parse('"\\ud800"')).toBe('');
    expect(parse('{"a":{"b/c~":["x","y\\udc00"]}}')).toBe('/a/b~1c~0/1');
    expect(parse('{"ok":"x","k\\udbff":1}')).toBe('/k\ufffd');
    expect(parse('["\\ude00\\ud83d"]')).toBe('/0'); // low before high: two lone halves
    expect(decodeCursor(Buffer.from('{"t":"2026-01-01T00:00:00.000Z","i":"m\\ud800"}').toString('base64url'), isMerchantCursor)).toBeNull();
    // Only a JSON text with an escape of U+D800 to U+DFFF can parse to a lone half: the others are not walked.
    expect(['{"a":"\u{1F600} \\u00e9 \\\\"}', '{"a":"\\uDC00"}', '"\\ud8ff"'].map(mayEscapeSurrogates)).toEqual([false, true, true]);
  });
});

describe('canonical JSON', () => {
  it('does not depend on key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 1, x: 2 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [1, { x: 2, y: 1 }] }, b: 1 }),
    );
  });
});

describe('configuration', () => {
  it('has defaults that run locally', () => {
    const c = loadConfig({}, '/srv/paygate');
    expect(c.port).toBe(8080);
    expect(c.databaseUrl).toBeNull();
    expect(c.publicBaseUrl).toBe('http://localhost:8080');
    expect(c.embeddedDataDir).toBe('/srv/paygate/.data/pg');
  });
  it('fails loudly on bad values', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'ftp://x' })).toThrow(ConfigError);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in it, sixteen+' })).toThrow(ConfigError);
    expect(() => loadConfig({ DB_POOL_MAX: '1' })).toThrow(ConfigError); // migrations hold one connection for their lock
    expect(() => loadConfig({ DB_ACQUIRE_TIMEOUT_MS: '50' })).toThrow(ConfigError);
    expect(() => loadConfig({ DB_STATEMENT_TIMEOUT_MS: '-1' })).toThrow(ConfigError);
    expect(loadConfig({})).toMatchObject({ dbAcquireTimeoutMs: 5000, dbStatementTimeoutMs: 15_000 });
    expect(loadConfig({ DB_STATEMENT_TIMEOUT_MS: '0' }).dbStatementTimeoutMs).toBe(0);
    expect(() => loadConfig({ ROLE: 'web' })).toThrow(/ROLE must be one of all, api, worker/);
    expect([loadConfig({}).role, loadConfig({ ROLE: 'api' }).role, loadConfig({ ROLE: 'worker' }).role]).toEqual(['all', 'api', 'worker']);
    expect([loadConfig({}).limits.trustedProxyHops, loadConfig({ TRUSTED_PROXY_HOPS: '2' }).limits.trustedProxyHops]).toEqual([0, 2]);
    expect(() => loadConfig({ TRUSTED_PROXY_HOPS: 'all' })).toThrow(/TRUSTED_PROXY_HOPS must be an integer/);
    expect(() => loadConfig({ TRUSTED_PROXY_HOPS: '17' })).toThrow(ConfigError);
  });
  it('a configured chain needs a fee ceiling; the development chain has one by default', () => {
    const base = { CHAINS: '84532', CHAIN_84532_RPC_URL: 'https://node.example', CHAIN_84532_RELAYER_KEYS: `0x${'11'.repeat(32)}` };
    expect(() => loadConfig(base)).toThrow(ConfigError);
    expect(() => loadConfig(base)).toThrow(/CHAIN_84532_MAX_FEE_PER_GAS_WEI is required/);
    expect(() => loadConfig({ ...base, CHAIN_84532_MAX_FEE_PER_GAS_WEI: '0' })).toThrow(/must be above 0/);
    expect(loadConfig({ ...base, CHAIN_84532_MAX_FEE_PER_GAS_WEI: '2000000000' }).chains[0].maxFeePerGasWei).toBe(2_000_000_000n);
    expect(loadConfig({}).devnet?.maxFeePerGasWei).toBe(100_000_000_000n);
    expect(loadConfig({ DEVNET_MAX_FEE_PER_GAS_WEI: '5' }).devnet?.maxFeePerGasWei).toBe(5n);
    expect([loadConfig({}).chainMaxFeeBumps, loadConfig({ CHAIN_MAX_FEE_BUMPS: '0' }).chainMaxFeeBumps]).toEqual([10, 0]);
  });
  it('contract wallets: on by default, off, or an allow-list that must be given with allowlist only; revert budgets', () => {
    const a = '0x52908400098527886E0F7030069857D2E4169EE7';
    expect(loadConfig({}).contractWallets).toEqual({ mode: 'on', allowlist: [] });
    expect(loadConfig({ CONTRACT_WALLETS: 'off' }).contractWallets.mode).toBe('off');
    expect(loadConfig({ CONTRACT_WALLETS: 'allowlist', CONTRACT_WALLETS_ALLOWLIST: ` ${a} ` }).contractWallets).toEqual({
      mode: 'allowlist',
      allowlist: [a.toLowerCase()],
    });
    expect(() => loadConfig({ CONTRACT_WALLETS: 'some' })).toThrow(/CONTRACT_WALLETS must be one of on, off, allowlist/);
    expect(() => loadConfig({ CONTRACT_WALLETS: 'allowlist' })).toThrow(/needs CONTRACT_WALLETS_ALLOWLIST/);
    expect(() => loadConfig({ CONTRACT_WALLETS_ALLOWLIST: a })).toThrow(/CONTRACT_WALLETS is on/);
    expect(() => loadConfig({ CONTRACT_WALLETS: 'allowlist', CONTRACT_WALLETS_ALLOWLIST: '0x12' })).toThrow(ConfigError);
    expect(loadConfig({}).revertBudget).toEqual({ perAccount: 10, perBuyer: 3, perCredential: 10 });
    expect(loadConfig({ REVERT_BUDGET_PER_CREDENTIAL: '4' }).revertBudget.perCredential).toBe(4);
    expect(() => loadConfig({ REVERT_BUDGET_PER_BUYER: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ REVERT_BUDGET_PER_CREDENTIAL: '0' })).toThrow(ConfigError);
  });
  it('production needs a shared database and a real data key', () => {
    const key = 'ab'.repeat(32);
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_ENCRYPTION_KEY: key })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/paygate' })).toThrow(/DATA_ENCRYPTION_KEY/);
    const c = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db/paygate',
      DATA_ENCRYPTION_KEY: key,
      METRICS_TOKEN: 'x'.repeat(32),
    });
    expect(c).toMatchObject({
      metricsToken: 'x'.repeat(32),
      dbPoolMax: 10,
      shutdownDelayMs: 0,
      metricsDbCacheMs: 5000,
      validateResponses: false,
    });
  });
  it('production needs METRICS_TOKEN unless METRICS_PUBLIC=true says /metrics is open on purpose', () => {
    const prod = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/paygate', DATA_ENCRYPTION_KEY: 'ab'.repeat(32) };
    expect(() => loadConfig(prod)).toThrow(ConfigError);
    expect(() => loadConfig(prod)).toThrow(/METRICS_TOKEN is required in production.*METRICS_PUBLIC=true/);
    expect(() => loadConfig({ ...prod, METRICS_PUBLIC: 'false' })).toThrow(/METRICS_TOKEN is required/);
    expect(() => loadConfig({ ...prod, METRICS_PUBLIC: 'yes' })).toThrow(/METRICS_PUBLIC must be true or false/);
    expect(() => loadConfig({ ...prod, METRICS_PUBLIC: 'true', METRICS_TOKEN: 'x'.repeat(32) })).toThrow(/contradict/);
    expect(loadConfig({ ...prod, METRICS_PUBLIC: 'true' }).metricsToken).toBeNull();
    expect(loadConfig({ ...prod, METRICS_TOKEN: 'x'.repeat(32) }).metricsToken).toBe('x'.repeat(32));
    // Outside production /metrics stays open by default.
    expect(loadConfig({}).metricsToken).toBeNull();
  });
  it('data keys: DATA_ENCRYPTION_KEYS (first seals, all open) or DATA_ENCRYPTION_KEY (derived id), never the public key in production', () => {
    const a = 'ab'.repeat(32);
    const b = Buffer.alloc(32, 2).toString('base64');
    const ring = loadConfig({ DATA_ENCRYPTION_KEYS: ` new:${b} , old:${a}` }).dataKeys;
    expect(ring.keys.map((k) => k.id)).toEqual(['new', 'old', 'dev']); // outside production the development key still opens
    expect(ring.primary.key).toEqual(Buffer.alloc(32, 2));
    const single = loadConfig({ DATA_ENCRYPTION_KEY: a });
    expect(single.dataKeys.primary.id).toMatch(/^k[0-9a-f]{12}$/);
    expect(single.dataEncryptionKey).toBe(single.dataKeys.primary.key);
    const dev = loadConfig({}).dataKeys;
    expect({ id: dev.primary.id, warn: dev.sealsWithDevelopmentKey, ids: dev.keys.map((k) => k.id) }).toEqual({
      id: 'dev',
      warn: true,
      ids: ['dev'],
    });
    expect(single.dataKeys.sealsWithDevelopmentKey).toBe(false);
    const prod = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/paygate', METRICS_PUBLIC: 'true' };
    expect(loadConfig({ ...prod, DATA_ENCRYPTION_KEYS: `new:${b},old:${a}` }).dataKeys.keys.map((k) => k.id)).toEqual(['new', 'old']);
    expect(() => loadConfig({ ...prod, DATA_ENCRYPTION_KEY: '07'.repeat(32) })).toThrow(/public development key/);
    expect(() => loadConfig({ ...prod, DATA_ENCRYPTION_KEYS: `dev:${'07'.repeat(32)}` })).toThrow(/public development key/);
    for (const bad of [`new:${b},new:${a}`, `one:${a},two:${a}`, `x:${a.slice(2)}`, a, `dev:${a}`, `bad id:${a}`, `:${a}`]) {
      expect(() => loadConfig({ DATA_ENCRYPTION_KEYS: bad })).toThrow(ConfigError);
    }
    expect(() => loadConfig({ DATA_ENCRYPTION_KEYS: `x:${a.slice(2)}` })).toThrow(/must be 32 bytes/);
    expect(() => loadConfig({ DATA_ENCRYPTION_KEYS: `x:${a}`, DATA_ENCRYPTION_KEY: a })).toThrow(/not both/);
    // A key is never echoed back in an error.
    try {
      loadConfig({ DATA_ENCRYPTION_KEYS: `x:${'cd'.repeat(31)}` });
    } catch (e) {
      expect((e as Error).message).not.toContain('cdcd');
    }
  });
});
