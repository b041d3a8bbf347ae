import { getAddress, isAddress } from 'viem';

// CAIP-2 chain ids, CAIP-10 accounts and CAIP-19 asset ids, parsed to a canonical form: for EVM chains
// (eip155) the chain reference is a decimal without leading zeros and addresses carry their EIP-55
// checksum; a mixed-case address whose checksum is wrong is refused.

export class CaipError extends Error {}

const NAMESPACE = /^[-a-z0-9]{3,8}$/;
const CHAIN_REF = /^[-_a-zA-Z0-9]{1,32}$/;
const ACCOUNT_ADDR = /^[-.%a-zA-Z0-9]{1,128}$/;
const ASSET_NS = /^[-a-z0-9]{3,8}$/;
const ASSET_REF = /^[-.%a-zA-Z0-9]{1,128}$/;

export interface ChainId {
  namespace: string;
  reference: string;
  /** Canonical CAIP-2 text. */
  id: string;
}

function parseChainId(text: string): ChainId {
  const [namespace, reference, ...rest] = text.split(':');
  if (rest.length || !namespace || !reference || !NAMESPACE.test(namespace) || !CHAIN_REF.test(reference)) {
    throw new CaipError('is not a CAIP-2 chain id (namespace:reference)');
  }
  if (namespace === 'eip155' && !/^[1-9][0-9]{0,15}$/.test(reference)) {
    throw new CaipError('eip155 chain references are decimal chain ids without leading zeros');
  }
  return { namespace, reference, id: `${namespace}:${reference}` };
}

function canonicalEvmAddress(addr: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(addr)) throw new CaipError('is not an EVM address (0x and 40 hex digits)');
  const lower = addr.slice(2) === addr.slice(2).toLowerCase();
  const upper = addr.slice(2) === addr.slice(2).toUpperCase();
  if (!lower && !upper && !isAddress(addr, { strict: true })) throw new CaipError('has an invalid EIP-55 checksum');
  return getAddress(addr);
}

export interface AccountId {
  chain: ChainId;
  address: string;
  /** Canonical CAIP-10 text. */
  id: string;
}

export function parseAccountId(text: string): AccountId {
  const i = text.lastIndexOf(':');
  if (i < 0) throw new CaipError('is not a CAIP-10 account id (namespace:reference:address)');
  const chain = parseChainId(text.slice(0, i));
  const raw = text.slice(i + 1);
  if (!ACCOUNT_ADDR.test(raw)) throw new CaipError('has an invalid account address');
  const address = chain.namespace === 'eip155' ? canonicalEvmAddress(raw) : raw;
  return { chain, address, id: `${chain.id}:${address}` };
}

export interface AssetId {
  chain: ChainId;
  assetNamespace: string;
  assetReference: string;
  /** Canonical CAIP-19 text (no `caip19/` prefix). */
  id: string;
}

/** SLIP-44's coin type of ether, which names the native coin of every EVM chain in CAIP-19 (`eip155:1/slip44:60`). */
const EVM_COIN_TYPE = 60;

/** The native coin of an EVM chain, CAIP-19. */
export const nativeAssetId = (chainId: string) => `${chainId}/slip44:${EVM_COIN_TYPE}`;

/** Whether a CAIP-19 asset is a chain's own coin (slip44), which moves as a transaction's value, not by a contract. */
export const isNativeAsset = (assetId: string) => /\/slip44:/.test(assetId);

/** The token contract of an erc20 asset; throws on a native coin, which has none. */
export function tokenAddressOf(assetId: string): string {
  const a = parseAssetId(assetId);
  if (a.assetNamespace !== 'erc20') throw new Error(`${assetId} is no token: it has no contract`);
  return a.assetReference;
}

export function parseAssetId(text: string): AssetId {
  const parts = text.split('/');
  if (parts.length !== 2) throw new CaipError('is not a CAIP-19 asset id (chain_id/asset_namespace:asset_reference)');
  const chain = parseChainId(parts[0]);
  const [assetNamespace, assetRef, ...rest] = parts[1].split(':');
  if (rest.length || !assetNamespace || !assetRef || !ASSET_NS.test(assetNamespace) || !ASSET_REF.test(assetRef)) {
    throw new CaipError('is not a CAIP-19 asset id (chain_id/asset_namespace:asset_reference)');
  }
  let assetReference = assetRef;
  if (chain.namespace === 'eip155') {
    if (assetNamespace === 'slip44') {
      if (assetRef !== String(EVM_COIN_TYPE)) throw new CaipError('the native coin of eip155 chains is slip44:60');
    } else if (assetNamespace !== 'erc20')
      throw new CaipError('only erc20 tokens and the native coin (slip44:60) are supported on eip155 chains');
    else assetReference = canonicalEvmAddress(assetRef);
  }
  return { chain, assetNamespace, assetReference, id: `${chain.id}/${assetNamespace}:${assetReference}` };
}
