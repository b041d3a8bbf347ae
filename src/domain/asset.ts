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
  /** How a buyer pays it: an EIP-3009 authorization, or a Permit2 permit (any ERC-20). */
  transferMethod?: 'eip3009' | 'permit2';
}
