import { parseAbi, type Address, type PublicClient } from 'viem';
import { NATIVE_NONCES, nativeContractAddress } from './devnet';

// The price of the chain's native coin in a currency, from a Chainlink price feed (AggregatorV3Interface), or on the
// development chains from DevPriceFeed (contracts/pricefeed/DevPriceFeed.sol), which answers the same way.

export const FEED_ABI = parseAbi([
  'function decimals() view returns (uint8)',
  'function description() view returns (string)',
  'function version() view returns (uint256)',
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
  'function getRoundData(uint80 roundId) view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
  'function setPrice(int256 answer)',
  'function setRound(uint80 roundId, int256 answer, uint256 updatedAt)',
]);

export interface DevnetFeed {
  currency: string;
  decimals: number;
  description: string;
  /** Round 1's answer: 1 ETH = answer / 10^decimals of the currency. */
  answer: bigint;
}

/** The development chains' feeds, as src/chain/devnetNative.ts deploys them (at devnetFeedAddress(currency)). */
export const DEVNET_FEEDS: readonly DevnetFeed[] = [
  { currency: 'USD', decimals: 8, description: 'ETH / USD', answer: 3000_00000000n },
  { currency: 'EUR', decimals: 8, description: 'ETH / EUR', answer: 2750_00000000n },
];

/** The development chains' ETH price feed in `currency` (USD, EUR), or undefined when they have none. */
export const devnetFeedAddress = (currency: string): Address | undefined =>
  Object.hasOwn(NATIVE_NONCES.feeds, currency) ? nativeContractAddress(NATIVE_NONCES.feeds[currency]) : undefined;

export interface FeedRound {
  roundId: bigint;
  /** The price with `decimals` decimals: always more than 0. */
  answer: bigint;
  decimals: number;
  /** Unix time, seconds. */
  updatedAt: bigint;
}

/** The feed's latest round; throws when its answer is not a price (0 or negative). */
export async function readFeed(client: PublicClient, feed: Address): Promise<FeedRound> {
  const [decimals, [roundId, answer, , updatedAt]] = await Promise.all([
    client.readContract({ address: feed, abi: FEED_ABI, functionName: 'decimals' }),
    client.readContract({ address: feed, abi: FEED_ABI, functionName: 'latestRoundData' }),
  ]);
  if (answer <= 0n) throw new Error(`the price feed ${feed} answers ${answer} in round ${roundId}: not a price`);
  return { roundId, answer, decimals, updatedAt };
}
