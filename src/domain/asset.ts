import { nativeAssetId } from './caip';

// An asset of the registry (table `assets`): what the service can take, and how to show and price it.
export interface Asset {
  id: string;
  chainId: string;
  symbol: string;
  name: string;
  decimals: number;
  networkName: string;
  iconUrl: string | null;
  networkIconUrl: string | null;
  pegCurrency: string | null;
  eip712Name: string | null;
  eip712Version: string | null;
  /**
   * How a buyer pays it: an EIP-3009 authorization (eip712Name and eip712Version set), through Permit2, or (the chain's
   * own coin, `slip44:60`) by the buyer's own transaction to the router contract.
   */
  transferMethod: TransferMethod;
}

export const TRANSFER_METHODS = ['eip3009', 'permit2', 'native'] as const;
export type TransferMethod = (typeof TRANSFER_METHODS)[number];

/** The chain's own coin as the asset registry holds it (18 decimals, no token contract, no currency peg). */
export const nativeAsset = (caip2: string): Omit<Asset, 'networkName'> => ({
  id: nativeAssetId(caip2),
  chainId: caip2,
  symbol: 'ETH',
  name: 'Ether',
  decimals: 18,
  iconUrl: null,
  networkIconUrl: null,
  pegCurrency: null,
  eip712Name: null,
  eip712Version: null,
  transferMethod: 'native',
});
