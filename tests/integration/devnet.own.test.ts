import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  hashDomain,
  http,
  maxUint256,
  parseAbi,
  type Address,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { devnetSetBalance } from '../../src/chain/anvil';
import { devnetAssetId, devnetChain, devnetTokenAddress } from '../../src/chain/devnet';
import { DEVNET_CHAIN_ID } from '../../src/chain/devnetChains';
import { devnetFeedAddress, readFeed } from '../../src/chain/priceFeed';
import { PERMIT2_ADDRESS as PERMIT2 } from '../../src/domain/permit2';
import { balanceOf, chainClient, DEVNET2_CHAIN_ID, freePort, fund, newWallet, rpcUrl } from '../support/chain';
import { admin, adminWith, startTestService, type TestService } from '../support/service';
import { spawnService } from '../support/serviceProcess';

// The development chains (issue 29): two anvils with their own chain ids and tokens, a USDT with Tether's
// behaviour, Permit2 at its canonical address with the right domain separator, and the admin commands that
// describe and fund them. Everything is read back from the chains themselves.

jest.setTimeout(120_000);

const USDT = devnetTokenAddress('USDT');
const CHAINS = [DEVNET_CHAIN_ID, DEVNET2_CHAIN_ID];
// Tether's own signatures: approve, transfer and transferFrom return nothing.
const TETHER_ABI = parseAbi([
  'function approve(address spender, uint256 value)',
  'function transfer(address to, uint256 value)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function decimals() view returns (uint256)',
  'function symbol() view returns (string)',
]);
const PERMIT2_ABI = parseAbi([
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'struct TokenPermissions { address token; uint256 amount; }',
  'struct PermitTransferFrom { TokenPermissions permitted; uint256 nonce; uint256 deadline; }',
  'struct SignatureTransferDetails { address to; uint256 requestedAmount; }',
  'function permitTransferFrom(PermitTransferFrom permit, SignatureTransferDetails transferDetails, address owner, bytes signature)',
]);

/** A key with gas on `chainId`. */
async function withGas(chainId: number): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  await devnetSetBalance(rpcUrl(chainId), account.address);
  return account;
}

/** Sends `data` to `to` from `account` with a fixed gas limit (a reverting call is mined, not refused); the receipt. */
async function send(chainId: number, account: PrivateKeyAccount, to: Address, data: Hex) {
  const wallet = createWalletClient({ chain: devnetChain(rpcUrl(chainId), chainId), transport: http(rpcUrl(chainId)), account });
  const hash = await wallet.sendTransaction({ to, data, gas: 200_000n });
  return chainClient(chainId).waitForTransactionReceipt({ hash, pollingInterval: 50 });
}

const approve = (spender: Address, value: bigint) =>
  encodeFunctionData({ abi: TETHER_ABI, functionName: 'approve', args: [spender, value] });
const allowance = (chainId: number, owner: Address, spender: Address) =>
  chainClient(chainId).readContract({ address: USDT, abi: TETHER_ABI, functionName: 'allowance', args: [owner, spender] });

describe('USDT on the development chains behaves as Tether', () => {
  it('approve and transfer return no data; approve from non-zero to non-zero reverts; no EIP-2612 or EIP-3009', async () => {
    const pub = chainClient();
    expect(await pub.readContract({ address: USDT, abi: TETHER_ABI, functionName: 'decimals' })).toBe(6n);
    expect(await pub.readContract({ address: USDT, abi: TETHER_ABI, functionName: 'symbol' })).toBe('USDT');
    const buyer = await withGas(DEVNET_CHAIN_ID);
    await fund(buyer.address, 1_000_000n, 'USDT');
    const spender = newWallet();
    // No return data at all (FiatToken returns a bool; code decoding one fails on Tether).
    expect((await pub.call({ account: buyer.address, to: USDT, data: approve(spender, 5n) })).data).toBeUndefined();
    const transfer = encodeFunctionData({ abi: TETHER_ABI, functionName: 'transfer', args: [spender, 1n] });
    expect((await pub.call({ account: buyer.address, to: USDT, data: transfer })).data).toBeUndefined();

    expect((await send(DEVNET_CHAIN_ID, buyer, USDT, approve(spender, 5n))).status).toBe('success');
    expect((await send(DEVNET_CHAIN_ID, buyer, USDT, approve(spender, 7n))).status).toBe('reverted');
    expect(await allowance(DEVNET_CHAIN_ID, buyer.address, spender)).toBe(5n);
    expect((await send(DEVNET_CHAIN_ID, buyer, USDT, approve(spender, 0n))).status).toBe('success');
    expect((await send(DEVNET_CHAIN_ID, buyer, USDT, approve(spender, 7n))).status).toBe('success');
    expect(await allowance(DEVNET_CHAIN_ID, buyer.address, spender)).toBe(7n);

    expect((await send(DEVNET_CHAIN_ID, buyer, USDT, transfer)).status).toBe('success');
    expect(await balanceOf(spender, 'USDT')).toBe(1n);
    expect(await balanceOf(buyer.address, 'USDT')).toBe(999_999n);

    // EIP-2612: nonces(address), DOMAIN_SEPARATOR(); EIP-3009: authorizationState(address,bytes32). None exists.
    const absent = parseAbi([
      'function nonces(address owner) view returns (uint256)',
      'function DOMAIN_SEPARATOR() view returns (bytes32)',
      'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
    ]);
    for (const data of [
      encodeFunctionData({ abi: absent, functionName: 'nonces', args: [buyer.address] }),
      encodeFunctionData({ abi: absent, functionName: 'DOMAIN_SEPARATOR' }),
      encodeFunctionData({ abi: absent, functionName: 'authorizationState', args: [buyer.address, `0x${'11'.repeat(32)}`] }),
    ])
      await expect(pub.call({ to: USDT, data })).rejects.toThrow(/revert/i);
  });
});

describe('Permit2 on both development chains', () => {
  it.each(CHAINS)('chain %i: DOMAIN_SEPARATOR() is the standard domain, and a signed permit moves USDT', async (chainId) => {
    expect(PERMIT2).toBe('0x000000000022D473030F116dDEE9F6B43aC78BA3');
    const pub = chainClient(chainId);
    const domain = { name: 'Permit2', chainId: BigInt(chainId), verifyingContract: PERMIT2 };
    const expected = hashDomain({
      domain,
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
      },
    });
    expect(await pub.readContract({ address: PERMIT2, abi: PERMIT2_ABI, functionName: 'DOMAIN_SEPARATOR' })).toBe(expected);

    // A buyer approves Permit2 once and signs; the spender it named submits; the tokens arrive.
    const buyer = await withGas(chainId);
    const relayer = await withGas(chainId);
    const to = newWallet();
    await fund(buyer.address, 2_000_000n, 'USDT', chainId);
    expect((await send(chainId, buyer, USDT, approve(PERMIT2, maxUint256))).status).toBe('success');
    const permit = {
      permitted: { token: USDT, amount: 1_500_000n },
      nonce: BigInt(Date.now()),
      deadline: BigInt(Math.floor(Date.now() / 1000) + 600),
    };
    const signature = await buyer.signTypedData({
      domain,
      primaryType: 'PermitTransferFrom',
      types: {
        PermitTransferFrom: [
          { name: 'permitted', type: 'TokenPermissions' },
          { name: 'spender', type: 'address' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
        TokenPermissions: [
          { name: 'token', type: 'address' },
          { name: 'amount', type: 'uint256' },
        ],
      },
      message: { ...permit, spender: relayer.address },
    });
    const data = encodeFunctionData({
      abi: PERMIT2_ABI,
      functionName: 'permitTransferFrom',
      args: [permit, { to, requestedAmount: 1_500_000n }, buyer.address, signature],
    });
    expect((await send(chainId, relayer, PERMIT2, data)).status).toBe('success');
    expect(await balanceOf(to, 'USDT', chainId)).toBe(1_500_000n);
    expect(await balanceOf(buyer.address, 'USDT', chainId)).toBe(500_000n);
    expect(await allowance(chainId, buyer.address, PERMIT2)).toBe(maxUint256); // Tether never spends an infinite allowance
    // The same permit again: its nonce is used, nothing moves.
    expect((await send(chainId, relayer, PERMIT2, data)).status).toBe('reverted');
    expect(await balanceOf(to, 'USDT', chainId)).toBe(1_500_000n);
  });
});

describe('admin devnet and the asset registry', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(); // registers the development assets and writes devnet.json
  });
  afterAll(() => svc?.close());

  it("devnet info keeps the first chain's fields and lists every development chain with its USDT", async () => {
    const info = (await admin('devnet', 'info')) as any;
    const usdt = (chainId: number) => ({ asset: devnetAssetId('USDT', chainId), symbol: 'USDT', decimals: 6, pegCurrency: 'USD' });
    expect(info).toMatchObject({ chainId: 'eip155:31337', rpcUrl: rpcUrl(), assets: expect.arrayContaining([usdt(31337)]) });
    expect(info.chains.map((c: any) => [c.chainId, c.rpcUrl])).toEqual([
      ['eip155:31337', rpcUrl(DEVNET_CHAIN_ID)],
      ['eip155:31338', rpcUrl(DEVNET2_CHAIN_ID)],
    ]);
    expect(info.chains[0].assets).toEqual(info.assets);
    expect(info.chains[1].assets.map((a: any) => a.symbol).sort()).toEqual(['EURC', 'USDC', 'USDT']);
    expect(info.chains[1].assets).toContainEqual(usdt(31338));
  });

  it('devnet fund mints any development token on its chain, and sends native coin', async () => {
    const holder = newWallet();
    const usdt2 = devnetAssetId('USDT', DEVNET2_CHAIN_ID);
    expect(await admin('devnet', 'fund', '--address', holder, '--asset', usdt2, '--amount', '2500000')).toEqual({
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(await balanceOf(holder, 'USDT', DEVNET2_CHAIN_ID)).toBe(2_500_000n);
    expect(await balanceOf(holder, 'USDT', DEVNET_CHAIN_ID)).toBe(0n);
    await admin('devnet', 'fund', '--address', holder, '--asset', devnetAssetId('EURC'), '--amount', '7');
    expect(await balanceOf(holder, 'EURC')).toBe(7n);
    await admin('devnet', 'fund', '--address', holder, '--asset', 'eip155:31338/slip44:60', '--amount', '123456789');
    expect(await chainClient(DEVNET2_CHAIN_ID).getBalance({ address: holder })).toBe(123_456_789n);
    expect(await chainClient(DEVNET_CHAIN_ID).getBalance({ address: holder })).toBe(0n);

    for (const asset of ['eip155:1/slip44:60', 'eip155:1/erc20:0xdAC17F958D2ee523a2206206994597C13D831ec7', 'nope']) {
      const r = await adminWith({}, 'devnet', 'fund', '--address', holder, '--asset', asset, '--amount', '1');
      expect(r).toMatchObject({ code: 2, stderr: expect.stringContaining('--asset must be one of') });
    }
  });

  it("devnet set-price moves a development ETH feed's price, on one chain or on every chain", async () => {
    const eur = devnetFeedAddress('EUR')!;
    const answerOn = async (chainId: number) => (await readFeed(chainClient(chainId), eur)).answer;
    try {
      const one = await admin('devnet', 'set-price', '--currency', 'eur', '--price', '2801.25', '--chain', 'eip155:31338');
      expect(one).toEqual({
        currency: 'EUR',
        answer: '280125000000',
        chains: [{ chainId: 'eip155:31338', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) }],
      });
      expect(await answerOn(DEVNET2_CHAIN_ID)).toBe(2801_25000000n);
      expect(await admin('devnet', 'set-price', '--currency', 'EUR', '--price', '0.00000001', '--chain', 'eip155:31338')).toMatchObject({
        answer: '1',
      });
      expect(await answerOn(DEVNET2_CHAIN_ID)).toBe(1n);

      for (const [flags, message] of [
        [['--price', '1.123456789'], 'at most 8 decimals'],
        [['--price', '0.00000000'], 'more than 0'],
        [['--price=-5'], 'must be a decimal number'], // (`--price -5` is refused by the argument parser already)
        [['--price', '3e3'], 'must be a decimal number'],
        [['--price', '1,5'], 'must be a decimal number'],
        [['--price', '3000', '--currency', 'GBP'], '--currency must be one of USD, EUR'],
        [['--price', '3000', '--chain', 'eip155:1'], '--chain must be one of eip155:31337, eip155:31338'],
      ] as const) {
        const r = await adminWith({}, 'devnet', 'set-price', '--currency', 'EUR', ...flags);
        expect(r).toMatchObject({ code: 2, stderr: expect.stringContaining(message) });
      }
    } finally {
      // Every chain back at the deployed price (other test files read it).
      const all = await admin('devnet', 'set-price', '--currency', 'EUR', '--price', '2750');
      expect((all as any).chains.map((c: any) => c.chainId)).toEqual(['eip155:31337', 'eip155:31338']);
    }
    for (const chainId of CHAINS) expect(await answerOn(chainId)).toBe(2750_00000000n);
  });

  it('the registry says how each token is paid; assets add takes --transfer-method', async () => {
    const listed = (await admin('assets', 'list')) as unknown as { id: string; transferMethod: string; networkName: string }[];
    for (const chainId of CHAINS) {
      expect(listed).toContainEqual(expect.objectContaining({ id: devnetAssetId('USDT', chainId), transferMethod: 'permit2' }));
      expect(listed).toContainEqual(expect.objectContaining({ id: devnetAssetId('USDC', chainId), transferMethod: 'eip3009' }));
    }
    // The seeded Ethereum USDT has no EIP-3009: Permit2.
    expect(listed).toContainEqual(
      expect.objectContaining({ id: 'eip155:1/erc20:0xdAC17F958D2ee523a2206206994597C13D831ec7', transferMethod: 'permit2' }),
    );

    const base = ['assets', 'add', '--asset', 'eip155:42161/erc20:0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', '--symbol', 'USDT0'];
    const rest = ['--name', 'USD₮0', '--decimals', '6', '--network-name', 'Arbitrum One', '--peg', 'USD'];
    const noDomain = await adminWith({}, ...base, ...rest, '--transfer-method', 'eip3009');
    expect(noDomain).toMatchObject({ code: 2, stderr: expect.stringContaining('--transfer-method eip3009 needs --eip712-name') });
    expect(await adminWith({}, ...base, ...rest, '--transfer-method', 'bogus')).toMatchObject({ code: 2 });
    expect(await admin(...base, ...rest, '--transfer-method', 'permit2')).toMatchObject({ symbol: 'USDT0', transferMethod: 'permit2' });
    const after = (await admin('assets', 'list')) as unknown as { id: string; transferMethod: string }[];
    expect(after).toContainEqual(expect.objectContaining({ id: base[3], transferMethod: 'permit2' }));
  });
});

describe('make start runs both development chains', () => {
  it('a service without DEVNET_RPC_URL starts two anvils on their ports, deploys, and stops them', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-start-'));
    const ports = [await freePort(), await freePort()];
    const env = { DEVNET_RPC_URL: '', DEVNET2_RPC_URL: '', DEVNET_DIR: dir, DEVNET_PORT: String(ports[0]), DEVNET2_PORT: String(ports[1]) };
    const svc = await spawnService(env);
    try {
      const info = (await adminWith(env, 'devnet', 'info')).out;
      expect(info.chains.map((c: any) => c.rpcUrl)).toEqual(ports.map((p) => `http://127.0.0.1:${p}`));
      for (const [i, chainId] of CHAINS.entries()) {
        const pub = createPublicClient({ transport: http(info.chains[i].rpcUrl) });
        expect(await pub.getChainId()).toBe(chainId);
        expect(await pub.getCode({ address: USDT })).toMatch(/^0x[0-9a-f]{100,}$/);
        expect(await pub.getCode({ address: PERMIT2 })).toMatch(/^0x[0-9a-f]{100,}$/);
      }
    } finally {
      await svc.kill('SIGTERM');
    }
    // Each chain wrote its own state on the way out.
    expect(fs.readdirSync(dir)).toEqual(expect.arrayContaining(['anvil-state.json', 'anvil-state-31338.json', 'devnet.json']));
    const down = await fetch(`http://127.0.0.1:${ports[1]}`, { method: 'POST' }).then(
      () => 'answers',
      () => 'down',
    );
    expect(down).toBe('down');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
