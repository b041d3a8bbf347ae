import { loadConfig, ConfigError } from '../../src/config';

// CHAIN_<id>_CONFIRMATIONS defaults per chain, from each chain's finality (docs/chain.md, "Confirmation depths"): a
// confirmation depth that is safe on one chain is a reorg away from a double spend on another.

const KEY = `0x${'11'.repeat(32)}`;
const chainsEnv = (ids: number[], extra: Record<string, string> = {}) => ({
  CHAINS: ids.join(','),
  ...Object.fromEntries(
    ids.flatMap((id) => [
      [`CHAIN_${id}_RPC_URL`, `https://rpc.example/${id}`],
      [`CHAIN_${id}_RELAYER_KEYS`, KEY],
      [`CHAIN_${id}_MAX_FEE_PER_GAS_WEI`, '2000000000'],
    ]),
  ),
  ...extra,
});
const depths = (env: Record<string, string>) => Object.fromEntries(loadConfig(env).chains.map((c) => [c.chainId, c.confirmations]));

describe('chain confirmation depths', () => {
  it('default per chain from its finality; an unknown chain gets the conservative default', () => {
    expect(depths(chainsEnv([1, 137, 10, 8453, 42161, 999_999]))).toEqual({
      1: 64, // Ethereum: finalized after two epochs
      137: 256, // Polygon PoS: probabilistic between checkpoints
      10: 60, // OP Mainnet, 2 s blocks
      8453: 60, // Base, 2 s blocks
      42161: 480, // Arbitrum One, 0.25 s blocks
      999_999: 64,
    });
  });

  it('CHAIN_<id>_CONFIRMATIONS overrides the default, within 1 to 1000', () => {
    expect(depths(chainsEnv([137, 8453], { CHAIN_137_CONFIRMATIONS: '512', CHAIN_8453_CONFIRMATIONS: '3' }))).toEqual({
      137: 512,
      8453: 3,
    });
    expect(() => loadConfig(chainsEnv([1], { CHAIN_1_CONFIRMATIONS: '0' }))).toThrow(ConfigError);
    expect(() => loadConfig(chainsEnv([1], { CHAIN_1_CONFIRMATIONS: '1001' }))).toThrow(/CHAIN_1_CONFIRMATIONS must be between 1 and 1000/);
  });

  it('the rest of the chain settings are parsed as before', () => {
    const [c] = loadConfig(chainsEnv([8453])).chains;
    expect(c).toEqual({
      chainId: 8453,
      caip2: 'eip155:8453',
      rpcUrl: 'https://rpc.example/8453',
      relayerKeys: [KEY],
      retiredRelayerKeys: [],
      confirmations: 60,
      maxFeePerGasWei: 2_000_000_000n,
      relayerBalanceFloorWei: 10n ** 16n,
      mode: 'live',
      native: null,
    });
    expect(loadConfig({}).chains).toEqual([]);
    // Development (no NODE_ENV, `make start`): 3 blocks deep, an empty block every 2 s until then; else 1 and none.
    expect(loadConfig({ NODE_ENV: 'test' }).devnet).toMatchObject({ confirmations: 1, depthMiningS: 0 });
    expect(loadConfig({ DEVNET_CONFIRMATIONS: '5', DEVNET_DEPTH_MINING_S: '1' }).devnet).toMatchObject({
      confirmations: 5,
      depthMiningS: 1,
    });
    expect(loadConfig({}).devnet).toMatchObject({
      confirmations: 3,
      depthMiningS: 2,
      chains: [
        { chainId: 31337, rpcUrl: null, port: 8545 },
        { chainId: 31338, rpcUrl: null, port: 8546 },
      ],
    });
    expect(loadConfig({ DEVNET_PORT: '9000', DEVNET2_PORT: '9100' }).devnet?.chains.map((c) => c.port)).toEqual([9000, 9100]);
    // Attached to running chains: only those given a URL (no anvil is started beside chains someone else runs).
    const a = 'http://127.0.0.1:7001';
    const b = 'http://127.0.0.1:7002';
    expect(loadConfig({ DEVNET_RPC_URL: a }).devnet?.chains).toEqual([{ chainId: 31337, rpcUrl: a, port: 8545 }]);
    expect(loadConfig({ DEVNET_RPC_URL: a, DEVNET2_RPC_URL: b }).devnet?.chains.map((c) => c.rpcUrl)).toEqual([a, b]);
    expect(() => loadConfig({ DEVNET2_RPC_URL: 'ws://x' })).toThrow(/DEVNET2_RPC_URL must be an http\(s\) URL/);
    // Beside configured chains the development chains run for test mode only (tests/unit/testModeChains.test.ts).
    expect(loadConfig(chainsEnv([8453], { TEST_MODE: 'off' })).devnet).toBeNull();
    expect(() => loadConfig({ CHAINS: 'base' })).toThrow(/CHAINS must list numeric EVM chain ids/);
    expect(() => loadConfig({ CHAINS: '8453' })).toThrow(/CHAIN_8453_RPC_URL/);
    expect(() => loadConfig({ CHAINS: '8453', CHAIN_8453_RPC_URL: 'https://x' })).toThrow(/CHAIN_8453_RELAYER_KEYS is required/);
    expect(() => loadConfig(chainsEnv([8453], { CHAIN_8453_RELAYER_KEYS: '0xabc' }))).toThrow(/0x-prefixed 32-byte hex/);
    expect(() => loadConfig(chainsEnv([8453], { CHAIN_8453_MAX_FEE_PER_GAS_WEI: '' }))).toThrow(
      /CHAIN_8453_MAX_FEE_PER_GAS_WEI is required/,
    );
    expect(() => loadConfig(chainsEnv([8453], { CHAIN_8453_MAX_FEE_PER_GAS_WEI: '0' }))).toThrow(/must be above 0/);
  });
});

describe('retired relayer keys', () => {
  const OLD = `0x${'22'.repeat(32)}`;

  it('are validated like the relayer keys and may name no key in use', () => {
    expect(loadConfig(chainsEnv([8453], { CHAIN_8453_RETIRED_RELAYER_KEYS: ` ${OLD} ` })).chains[0].retiredRelayerKeys).toEqual([OLD]);
    expect(loadConfig({ DEVNET_RELAYER_KEYS: KEY, DEVNET_RETIRED_RELAYER_KEYS: OLD }).devnet?.retiredRelayerKeys).toEqual([OLD]);
    expect(loadConfig({}).devnet?.retiredRelayerKeys).toEqual([]);
    expect(() => loadConfig(chainsEnv([8453], { CHAIN_8453_RETIRED_RELAYER_KEYS: '0xabc' }))).toThrow(
      /CHAIN_8453_RETIRED_RELAYER_KEYS must be a comma-separated list of 0x-prefixed 32-byte hex/,
    );
    expect(() => loadConfig(chainsEnv([8453], { CHAIN_8453_RETIRED_RELAYER_KEYS: `${OLD},${KEY}` }))).toThrow(
      /CHAIN_8453_RETIRED_RELAYER_KEYS lists a key of CHAIN_8453_RELAYER_KEYS/,
    );
    expect(() => loadConfig({ DEVNET_RELAYER_KEYS: KEY, DEVNET_RETIRED_RELAYER_KEYS: KEY })).toThrow(
      /DEVNET_RETIRED_RELAYER_KEYS lists a key/,
    );
  });
});

describe("a configured chain's own coin (CHAIN_<id>_NATIVE_*)", () => {
  const ROUTER = '0x' + 'ab'.repeat(20);
  const FEED = '0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419';
  const native = (extra: Record<string, string>) => loadConfig(chainsEnv([1], extra)).chains[0].native;

  it('is offered only with a router and at least one feed: currency, feed and heartbeat per entry', () => {
    expect(native({})).toBeNull();
    expect(native({ CHAIN_1_NATIVE_ROUTER: ROUTER, CHAIN_1_NATIVE_FEEDS: `USD:${FEED}:3600, EUR:${FEED}:86400` })).toEqual({
      router: ROUTER,
      feeds: { USD: { address: FEED, heartbeatS: 3600 }, EUR: { address: FEED, heartbeatS: 86400 } },
      toleranceBps: 100,
      symbol: 'ETH',
    });
    expect(
      native({
        CHAIN_1_NATIVE_ROUTER: ROUTER,
        CHAIN_1_NATIVE_FEEDS: `USD:${FEED}:60`,
        CHAIN_1_NATIVE_TOLERANCE_BPS: '50',
        CHAIN_1_NATIVE_SYMBOL: 'POL',
      }),
    ).toMatchObject({ toleranceBps: 50, symbol: 'POL' });
  });

  it.each([
    [{ CHAIN_1_NATIVE_FEEDS: `USD:${FEED}:3600` }, /without CHAIN_1_NATIVE_ROUTER/],
    [{ CHAIN_1_NATIVE_ROUTER: ROUTER }, /CHAIN_1_NATIVE_FEEDS is required/],
    [{ CHAIN_1_NATIVE_ROUTER: '0x12', CHAIN_1_NATIVE_FEEDS: `USD:${FEED}:3600` }, /NATIVE_ROUTER must be/],
    [{ CHAIN_1_NATIVE_ROUTER: ROUTER, CHAIN_1_NATIVE_FEEDS: `usd:${FEED}:3600` }, /entries are CURRENCY/],
    [{ CHAIN_1_NATIVE_ROUTER: ROUTER, CHAIN_1_NATIVE_FEEDS: `USD:${FEED}` }, /entries are CURRENCY/],
    [{ CHAIN_1_NATIVE_ROUTER: ROUTER, CHAIN_1_NATIVE_FEEDS: `USD:${FEED}:0` }, /entries are CURRENCY/],
    [{ CHAIN_1_NATIVE_ROUTER: ROUTER, CHAIN_1_NATIVE_FEEDS: `USD:${FEED}:1,USD:${FEED}:2` }, /names USD twice/],
    [{ CHAIN_1_NATIVE_ROUTER: ROUTER, CHAIN_1_NATIVE_FEEDS: `USD:${FEED}:1`, CHAIN_1_NATIVE_TOLERANCE_BPS: '1.5' }, /basis points/],
  ])('refuses %p', (extra, message) => {
    expect(() => loadConfig(chainsEnv([1], extra))).toThrow(message);
  });
});
