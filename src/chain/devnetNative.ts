import fs from 'node:fs';
import path from 'node:path';
import { parseEther, type Abi, type Address, type Hex } from 'viem';
import { projectRoot } from '../paths';
import { devnetSetBalance } from './anvil';
import { devnetClients, fromDevnetAccount, hasCode, NATIVE_NONCES, nativeContractAddress, nativeDeployer } from './devnet';
import { devnetRouterAddress } from './nativeRouter';
import { DEVNET_FEEDS, devnetFeedAddress, FEED_ABI } from './priceFeed';
import type { NativeCoin } from '../domain/nativeQuote';

// Deploys the contracts of payments in the native coin on a development chain, from nativeDeployer: PaygateRouter
// at its nonce 0, then DevPriceFeed for ETH / USD (nonce 1) and ETH / EUR (nonce 2), so their addresses are known
// before the chain runs (src/chain/devnet.ts); and moves the feeds' prices, as `admin devnet set-price` and tests do.

const artifact = (rel: string): { abi: Abi; bytecode: Hex } => JSON.parse(fs.readFileSync(path.join(projectRoot, rel), 'utf8'));

/**
 * On the development chain at `rpcUrl`: the router and the price feeds, each deployed unless it is there already
 * (in nonce order, so after a deployment cut short the rest follows). nativeDeployer must have sent nothing else,
 * so that the addresses are the expected ones; it is given gas (anvil's cheat) when it has too little.
 */
export async function ensureDevnetNative(rpcUrl: string): Promise<void> {
  const { pub, wait, wallet } = await devnetClients(rpcUrl);
  const contracts: { nonce: bigint; deploy: (w: ReturnType<typeof wallet>, nonce: number) => Promise<Hex> }[] = [
    {
      nonce: NATIVE_NONCES.router,
      deploy: (w, nonce) => w.deployContract({ ...artifact('contracts/router/PaygateRouter.json'), nonce }),
    },
    ...DEVNET_FEEDS.map((f) => ({
      nonce: NATIVE_NONCES.feeds[f.currency],
      deploy: (w: ReturnType<typeof wallet>, nonce: number) =>
        w.deployContract({ ...artifact('contracts/pricefeed/DevPriceFeed.json'), args: [f.decimals, f.description, f.answer], nonce }),
    })),
  ];
  const deployer = wallet(nativeDeployer);
  for (const { nonce, deploy } of contracts) {
    if (await hasCode(pub, nativeContractAddress(nonce))) continue;
    const sent = await pub.getTransactionCount({ address: nativeDeployer.address });
    if (BigInt(sent) !== nonce)
      throw new Error(
        `the devnet native-coin deployer ${nativeDeployer.address} has sent ${sent} transactions, not ${nonce}: the router and feed addresses would differ`,
      );
    if ((await pub.getBalance({ address: nativeDeployer.address })) < parseEther('1'))
      await devnetSetBalance(rpcUrl, nativeDeployer.address);
    await wait(await deploy(deployer, Number(nonce)));
  }
  if (!(await hasCode(pub, devnetRouterAddress))) throw new Error(`no router at ${devnetRouterAddress} after its deployment`);
}

const feedOf = (currency: string): Address => {
  const feed = devnetFeedAddress(currency);
  if (!feed) throw new Error(`no devnet price feed for ${currency}: ${DEVNET_FEEDS.map((f) => f.currency).join(', ')}`);
  return feed;
};

/** A new round of the devnet ETH feed in `currency` with `answer` (its 8 decimals), now; the mined transaction's hash. */
export const devnetSetPrice = (rpcUrl: string, currency: string, answer: bigint): Promise<Hex> => {
  const address = feedOf(currency);
  return fromDevnetAccount(rpcUrl, nativeDeployer, (w) =>
    w.writeContract({ address, abi: FEED_ABI, functionName: 'setPrice', args: [answer] }),
  );
};

/** Round `roundId` of the devnet ETH feed in `currency`, updated at `updatedAt` (unix s), becomes the latest. */
export const devnetSetRound = (
  rpcUrl: string,
  currency: string,
  round: { roundId: bigint; answer: bigint; updatedAt: bigint },
): Promise<Hex> => {
  const address = feedOf(currency);
  return fromDevnetAccount(rpcUrl, nativeDeployer, (w) =>
    w.writeContract({ address, abi: FEED_ABI, functionName: 'setRound', args: [round.roundId, round.answer, round.updatedAt] }),
  );
};

/** The development feeds' heartbeat: their rounds change only when moved, so only a round made old on purpose is stale. */
const DEVNET_HEARTBEAT_S = 10 * 365 * 24 * 3600;
/** How far (basis points) the development feeds may move between a quote and its fetch. */
const DEVNET_TOLERANCE_BPS = 100;

/** ETH on a development chain: the router and the feeds ensureDevnetNative deploys. */
export const devnetNativeCoin = (): NativeCoin => ({
  router: devnetRouterAddress,
  feeds: Object.fromEntries(DEVNET_FEEDS.map((f) => [f.currency, { address: feedOf(f.currency), heartbeatS: DEVNET_HEARTBEAT_S }])),
  toleranceBps: DEVNET_TOLERANCE_BPS,
});
