// The agent: fetch that pays a 402 by itself with @x402/fetch and a viem account (an EIP-3009 signature: no gas).
import { wrapFetchWithPaymentFromConfig, decodePaymentResponseHeader } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import type { PrivateKeyAccount } from 'viem/accounts';

/** `maxAmount`: the most it pays for one request of `asset` on `network` (x402's spend controls). */
export function payingFetch(account: PrivateKeyAccount, network: `${string}:${string}`, asset: string, maxAmount: string) {
  return wrapFetchWithPaymentFromConfig(fetch, {
    schemes: [{ network, client: new ExactEvmScheme(account) }],
    spendControls: { allowedAssets: [{ network, asset, maxAmountPerPayment: maxAmount }] },
  });
}

/** What the facilitator answered the resource server, as it passed it on in PAYMENT-RESPONSE. */
export const settlementOf = (res: Response) => {
  const header = res.headers.get('payment-response');
  return header ? decodePaymentResponseHeader(header) : null;
};
