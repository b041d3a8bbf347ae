import { loadConfig } from '../../src/config';
import { chainModes } from '../../src/config/chains';

// Test chains (docs/testmode.md): each configured chain takes one mode's payments; the development chains serve
// both modes alone, test mode only beside configured chains (in production too), and not at all beside a
// configured test chain or with TEST_MODE=off.

const KEY = `0x${'11'.repeat(32)}`;
const chain = (id: number, mode?: string) => ({
  [`CHAIN_${id}_RPC_URL`]: `https://rpc.example/${id}`,
  [`CHAIN_${id}_RELAYER_KEYS`]: KEY,
  [`CHAIN_${id}_MAX_FEE_PER_GAS_WEI`]: '2000000000',
  ...(mode === undefined ? {} : { [`CHAIN_${id}_MODE`]: mode }),
});
const PROD = { NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y', DATA_ENCRYPTION_KEY: 'ab'.repeat(32), METRICS_PUBLIC: 'true' };

describe('test chains', () => {
  it('CHAIN_<id>_MODE is live by default, or test; anything else is refused', () => {
    const config = loadConfig({ CHAINS: '8453,84532', ...chain(8453), ...chain(84532, 'test') });
    expect(config.chains.map((c) => [c.chainId, c.mode])).toEqual([
      [8453, 'live'],
      [84532, 'test'],
    ]);
    expect(() => loadConfig({ CHAINS: '8453', ...chain(8453, 'sandbox') })).toThrow(/CHAIN_8453_MODE must be live or test/);
    expect(() => loadConfig({ TEST_MODE: 'no' })).toThrow(/TEST_MODE must be on or off/);
  });

  it('beside live chains the development chains run for test mode, in production too, unless TEST_MODE=off', () => {
    const live = { CHAINS: '8453', ...chain(8453) };
    expect(loadConfig({ ...PROD, ...live }).devnet?.chains.map((c) => c.chainId)).toEqual([31337, 31338]);
    expect(loadConfig({ ...live }).devnet).not.toBeNull();
    expect(loadConfig({ ...PROD, ...live, TEST_MODE: 'off' }).devnet).toBeNull();
    expect(loadConfig({ ...PROD, CHAINS: '8453,84532', ...chain(8453), ...chain(84532, 'test') }).devnet).toBeNull();
    // Alone in production, a development chain would take live payments: none runs.
    expect(loadConfig(PROD).devnet).toBeNull();
  });

  it('a development chain id that CHAINS configures is the configured chain: no embedded chain runs beside it', () => {
    expect(loadConfig({ ...PROD, CHAINS: '31338', ...chain(31338) }).devnet?.chains.map((c) => c.chainId)).toEqual([31337]);
    expect(loadConfig({ ...PROD, CHAINS: '31337,31338', ...chain(31337), ...chain(31338) }).devnet).toBeNull();
    expect(loadConfig({ CHAINS: '31337', ...chain(31337), DEVNET_RPC_URL: 'http://127.0.0.1:8545' }).devnet).toBeNull();
  });

  it('each chain serves its modes: a configured one its own, a development one test beside configured chains, both alone', () => {
    const chains = loadConfig({ CHAINS: '8453,84532', ...chain(8453), ...chain(84532, 'test') }).chains;
    expect(chainModes(chains, 'eip155:8453')).toEqual(['live']);
    expect(chainModes(chains, 'eip155:84532')).toEqual(['test']);
    expect(chainModes(chains, 'eip155:31337')).toEqual(['test']);
    expect(chainModes([], 'eip155:31337')).toEqual(['live', 'test']);
  });
});
