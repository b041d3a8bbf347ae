// The on-chain benchmark's settings (environment) and the development chain's tokens it pays with.
import path from 'node:path';
import { parseAbi } from 'viem';
import { root } from '../lib.mjs';

export const LAT_N = Number(process.env.BENCH_CHAIN_LATENCY_N || 40);
export const LAT_CONCURRENCY = 4;
export const N = Number(process.env.BENCH_CHAIN_N || 200);
export const CONCURRENCY = Number(process.env.BENCH_CHAIN_CONCURRENCY || 20);
export const POLL_MS = String(process.env.BENCH_CHAIN_POLL_MS || 1000);
export const PROFILE = process.env.BENCH_CHAIN_PROFILE === '1';
export const AMOUNT = '100'; // USD 1.00 -> 1_000_000 USDC units

export const devnet = {
  ...(await import(path.join(root, 'dist/src/chain/devnet.js'))),
  ...(await import(path.join(root, 'dist/src/chain/devnetChains.js'))),
  ...(await import(path.join(root, 'dist/src/chain/devnetTokens.js'))),
  ...(await import(path.join(root, 'dist/src/chain/anvil.js'))),
};
export const USDC = devnet.devnetTokenAddress('USDC');
/** Part 3 pays with Permit2 (issue 29): the devnet's Tether-like USDT, approved by each buyer before the run. */
export const PERMIT2_TOKEN = 'USDT';
export const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
export const ERC20 = parseAbi([
  'function transfer(address to, uint256 value) returns (bool)',
  'function mint(address to, uint256 amount) returns (bool)',
  'function approve(address spender, uint256 value)',
]);
