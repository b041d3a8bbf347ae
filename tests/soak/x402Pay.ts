import { randomBytes } from 'node:crypto';
import { getAddress, type Address, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { sleep, type Outcome } from '../faults/kit';

// A payment paid over its x402 link (GET /v1/gateway/payment/{id}/x402, docs/x402.md) as an agent does it: the 402's
// requirements read from PAYMENT-REQUIRED, the one of the wanted chain signed as an EIP-3009 transfer by hand (the
// development chains' USDC is no asset @x402/fetch pays by default), and the paid retry sent with the same payload
// until answered: the same payload again answers the payment it paid.

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };

interface Requirement {
  scheme: string;
  network: string;
  asset: string;
  amount: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: { name: string; version: string };
}

type Call = (method: string, path: string, route: string, headers: Record<string, string>) => Promise<Outcome>;

/** Pays `paymentId` over x402 on `chainId` from `payer` (minted what it asks); a refusal's description, or null. */
export async function payOverX402(
  deps: { call: Call; mint: (to: Address, amount: bigint, chainId: number) => Promise<boolean> },
  wallet: Record<string, string>,
  paymentId: string,
  payer: PrivateKeyAccount,
  chainId: number,
): Promise<string | null> {
  const path = `/v1/gateway/payment/${paymentId}/x402`;
  const unpaid = await deps.call('GET', path, 'x402', { ...wallet, ...PREVIEW });
  const header = unpaid.headers?.get('payment-required');
  if (unpaid.status !== 402 || !header) return `x402 ${unpaid.status ?? unpaid.error}`;
  const accepts = JSON.parse(Buffer.from(header, 'base64').toString()).accepts as Requirement[];
  const req = accepts.find((a) => a.network === `eip155:${chainId}`);
  if (!req) return `x402: no requirement on eip155:${chainId}`;
  if (!(await deps.mint(payer.address, BigInt(req.amount), chainId))) return 'funding not mined';
  const now = BigInt(Math.floor(Date.now() / 1000));
  const authorization = {
    from: payer.address,
    to: getAddress(req.payTo),
    value: BigInt(req.amount),
    validAfter: now - 600n,
    validBefore: now + BigInt(req.maxTimeoutSeconds),
    nonce: `0x${randomBytes(32).toString('hex')}` as Hex,
  };
  const signature = await payer.signTypedData({
    domain: { name: req.extra.name, version: req.extra.version, chainId, verifyingContract: getAddress(req.asset) },
    types: {
      TransferWithAuthorization: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
      ],
    },
    primaryType: 'TransferWithAuthorization',
    message: authorization,
  });
  const payload = {
    x402Version: 2,
    accepted: req,
    payload: { signature, authorization: Object.fromEntries(Object.entries(authorization).map(([k, v]) => [k, String(v)])) },
  };
  const signed = { ...wallet, ...PREVIEW, 'PAYMENT-SIGNATURE': Buffer.from(JSON.stringify(payload)).toString('base64') };
  for (let attempt = 1; ; attempt++) {
    const paid = await deps.call('GET', `${path}?maxPollMs=10000`, 'x402 paid', signed);
    if (paid.status === 200) return null;
    // A token paused for a block: the agent sends the same payload again a little later.
    if (attempt >= 4 || paid.status !== 402) return `x402 paid ${paid.status ?? paid.error} ${paid.body?.code ?? ''}`;
    await sleep(1500);
  }
}
