import { type PrivateKeyAccount } from 'viem/accounts';
import { useOwnChain } from './chain';
import { merchantWithSettlement, uniqueKey } from './fixtures';
import { useOwnDatabase } from './freshDb';
import { client, newKey, TestService } from './service';

// The money path on a real chain (the run's anvil): what is refused before anything moves, what happens
// when the chain misbehaves (expiry before inclusion, reorgs), fees and destinations at settlement, direct
// mode, and the relayer under concurrency and crashes. Each scenario asserts on the API, the database and
// the chain itself.

/** Retries `read` until it stops throwing; after `ms`, its last error fails the test. */
export async function eventually<T>(read: () => Promise<T>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await read();
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
/** A chain and a database of the calling test file's own, and its timeout. */
export function useChainSuite(): void {
  // Snapshots and reverts, automine off, reorgs: on a chain of each file's own, not the one other test files share,
  // and with a database of its own (no later file's service picks up a submission left on this chain).
  useOwnChain();
  useOwnDatabase('paygate_chain');
  // Real processes, a real chain and block waits: generous limits on a shared 2-core machine (not timings).
  jest.setTimeout(120_000);
}

export type Shop = Awaited<ReturnType<typeof merchantWithSettlement>>;

export async function setup(svc: { url: string } & Partial<TestService>) {
  const shop = await merchantWithSettlement(svc as TestService, 'Chain Shop');
  const wallet = await newKey(shop.accountId, 'wallet');
  return { shop, gw: client(svc.url, { 'Api-Key': wallet.apiKey }) };
}

export function flow(url: string, shop: Shop, gw: ReturnType<typeof client>) {
  const pay = async (value = '1000') => {
    const r = await shop.asMerchant('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('order'), amount: { unit: 'iso4217/USD', value } },
    });
    if (r.status !== 201) throw new Error(r.text);
    return r.body.paymentId as string;
  };
  const option = async (id: string, buyer: PrivateKeyAccount) => {
    const r = await gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [`eip155:31337:${buyer.address}`] } });
    if (r.status !== 200 || !r.body.options?.length) throw new Error(r.text);
    const opt = r.body.options[0];
    return { opt, td: JSON.parse(opt.actions[0].data.params[1]) };
  };
  const confirm = (id: string, optionId: string, sig: string) =>
    gw('POST', `/v1/gateway/payment/${id}/confirm`, { body: { optionId, results: [{ type: 'walletRpc', data: [sig] }] } });
  const details = async (id: string) => (await shop.asMerchant('GET', `/v1/payments/${id}`)).body;
  const until = (id: string, ok: (d: any) => boolean, timeoutMs = 20_000) =>
    eventually(async () => {
      const d = await details(id);
      if (!ok(d))
        throw new Error(`payment ${id}: ${JSON.stringify({ status: d.status, failureCode: d.failureCode, settlement: d.settlement })}`);
      return d;
    }, timeoutMs);
  return { pay, option, confirm, details, until, url };
}
