// The operator's side: accounts and keys come from the admin command line, never from the API.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/**
 * `node dist/src/cli/admin.js …` (built by `make start`); it reads DATABASE_URL or the local embedded database,
 * and DEVNET_DIR (default .data/devnet) for the development chain the service started.
 */
export function admin(...args: string[]): Record<string, string> {
  const out = execFileSync(process.execPath, [path.join(root, 'dist/src/cli/admin.js'), ...args], {
    cwd: root,
    env: process.env,
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

/** A partner account (its key calls the merchant API) and a wallet key of the same account (gateway API only). */
export function newPartner(name: string): { accountId: string; partnerKey: string; walletKey: string } {
  const account = admin('accounts', 'create', '--name', name);
  const wallet = admin('keys', 'create', '--account', account.accountId, '--type', 'wallet');
  return { accountId: account.accountId, partnerKey: account.apiKey, walletKey: wallet.apiKey };
}

/** A development chain: its CAIP-2 id, RPC URL and tokens. */
export interface DevnetChain {
  chainId: string;
  rpcUrl: string;
  assets: { asset: string; symbol: string; decimals: number; pegCurrency: string }[];
}
/**
 * The development chains the service runs without chain settings (`admin devnet info`): the first one's fields,
 * and `chains`, every one of them (first chain first).
 */
export interface DevnetInfo extends DevnetChain {
  chains?: DevnetChain[];
}

export function devnetInfo(): DevnetInfo {
  return admin('devnet', 'info') as unknown as DevnetInfo;
}

/**
 * Mints `amount` smallest units of a development-chain token to `address` (`admin devnet fund`), or with asset
 * `eip155:<id>/slip44:60` sends `amount` wei of the native coin (gas); the transaction hash.
 */
export function devnetFund(address: string, asset: string, amount: string): string {
  return admin('devnet', 'fund', '--address', address, '--asset', asset, '--amount', amount).txHash;
}
