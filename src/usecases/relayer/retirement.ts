import type { Db } from '../../db/knex';
import { getAddress, type Address } from 'viem';
import type { Logger } from '../../logger';
import type { EvmChain } from '../../chain/evm';
import { tokenAddressOf } from '../../domain/caip';
import { settlementSplit } from '../../domain/money';
import { listAssets } from '../../db/assetsRepo';
import { findPayment } from '../../db/payments';
import { openTransactions } from '../../db/relayer';
import { databaseNow, relayerPayments, senderBusySince } from '../../db/relayerWorkRepo';
import { settlementInput } from '../../db/settlementTransfersRepo';
import { planTransfer } from './transfer';
import { Submissions } from './submissions';

// Retiring a relayer key (docs/chain.md, "Retiring a relayer key"). A retired key is held by the service, which
// finishes its work with it, and is never named by a new option. What it still has to do, what it holds and
// what of that may be swept are read here (`admin relayer status`); the sweep moves that part out (`admin
// relayer sweep`). What the key owes is the merchants' share of what it collected and has not settled; the
// rest (fees) is sweepable. Balances are read before the work, so that money that reached the key after its
// balance was read is never counted as sweepable; and a sweep is stored only if none of the key's transactions
// was stored or became final since (checked under the key's nonce lock).

/** A refusal the operator can act on (exit 1 with the sentence). */
class SweepRefused extends Error {}

interface Holding {
  asset: string;
  symbol: string;
  token: string;
  balance: bigint | null;
  owed: bigint;
  sweepable: bigint;
  error?: string;
}

async function holdings(db: Db, chain: EvmChain, address: Address, onlyAsset?: string) {
  const since = await databaseNow(db);
  const assets = (await listAssets(db)).filter(
    (a) => a.chainId === chain.caip2 && a.transferMethod !== 'native' && (!onlyAsset || a.id === onlyAsset),
  );
  const native = await chain.nativeBalance(address);
  const balances = await Promise.all(
    assets.map((a) =>
      chain.tokenBalance(tokenAddressOf(a.id), address).then(
        (b) => ({ balance: b as bigint | null }),
        (e: Error) => ({ balance: null, error: e.message.slice(0, 200) }),
      ),
    ),
  );
  const open = await openTransactions(db, chain.caip2, address);
  const payments = await relayerPayments(db, chain.caip2, address);
  const owed = new Map<string, { payments: number; amount: bigint }>();
  for (const id of payments.unsettled) {
    const found = await findPayment(db, id);
    if (!found?.asset || found.payment.tokenAmount === null) continue;
    const terms = await settlementInput(db, found.payment, found.asset.id);
    const priced = found.asset.transferMethod === 'native' ? found.payment.amountMinor : undefined;
    const { amount } = settlementSplit(found.payment.tokenAmount, found.payment.currency, found.asset.decimals, terms, priced);
    const o = owed.get(found.asset.id) ?? { payments: 0, amount: 0n };
    owed.set(found.asset.id, { payments: o.payments + 1, amount: o.amount + (amount > 0n ? amount : 0n) });
  }
  const held: Holding[] = assets.map((a, i) => {
    const { balance, error } = balances[i] as { balance: bigint | null; error?: string };
    const due = owed.get(a.id)?.amount ?? 0n;
    const sweepable = balance !== null && balance > due ? balance - due : 0n;
    return {
      asset: a.id,
      symbol: a.symbol,
      token: tokenAddressOf(a.id),
      balance,
      owed: due,
      sweepable,
      ...(error ? { error } : {}),
    };
  });
  return { since, native, open, payments, owed, held };
}

/** What `admin relayer status` prints: the key's open work, what it holds, and what of it is sweepable. */
export async function relayerStatus(db: Db, chain: EvmChain, address: string) {
  const a = getAddress(address);
  const h = await holdings(db, chain, a);
  return {
    chain: chain.caip2,
    address: a,
    key: chain.isRetired(a) ? 'retired' : chain.holds(a) ? 'active' : 'not held',
    openTransactions: h.open.map((t) => ({ nonce: t.nonce, purpose: t.purpose, paymentId: t.paymentId, hash: t.hash, status: t.status })),
    processingPayments: h.payments.processing,
    openOptions: h.payments.openOptions,
    unsettled: [...h.owed].map(([asset, o]) => ({ asset, payments: o.payments, owed: o.amount.toString() })),
    nativeBalanceWei: h.native.toString(),
    assets: h.held.map(({ token: _t, balance, owed, sweepable, ...rest }) => ({
      ...rest,
      balance: balance === null ? null : balance.toString(),
      owed: owed.toString(),
      sweepable: sweepable.toString(),
    })),
  };
}

/**
 * Moves what a retired key holds beyond what it owes (of one asset, or of every asset of its chain) to `to`:
 * token transfers signed by the key under nonces from PostgreSQL, stored, then broadcast; the service's monitor
 * of the key takes them to their confirmation depth. Refused while the key has work a sweep would race.
 */
export async function sweepRetired(db: Db, log: Logger, chain: EvmChain, address: string, to: string, asset?: string) {
  const from = getAddress(address);
  const dest = getAddress(to);
  if (!chain.isRetired(from))
    throw new SweepRefused(
      chain.holds(from)
        ? `${from} is not retired: it is still given new options on ${chain.caip2}; retire it first (docs/chain.md, "Retiring a relayer key")`
        : `${from} is not a retired relayer key of this configuration on ${chain.caip2} (CHAIN_<id>_RETIRED_RELAYER_KEYS, DEVNET_RETIRED_RELAYER_KEYS)`,
    );
  if (dest === from) throw new SweepRefused('--to is the retired key itself');
  const h = await holdings(db, chain, from, asset);
  if (asset && !h.held.length) throw new SweepRefused(`${asset} is not a registered asset of ${chain.caip2}`);
  if (h.open.length || h.payments.processing.length)
    throw new SweepRefused(
      `${from} still has open work that a sweep would race: ${h.open.length} open transactions, ${h.payments.processing.length} processing payments; sweep once \`admin relayer status\` shows none`,
    );
  const due = h.held.filter((x) => x.sweepable > 0n);
  const guard = async (trx: Db, stored: { id: string }[]) => {
    const ids = stored.map((t) => t.id);
    if (await senderBusySince(trx, chain.caip2, from, h.since, ids))
      throw new SweepRefused(
        `a transaction of ${from} was stored or became final while the sweep read its balances: nothing was sent; run it again`,
      );
  };
  const subs = [];
  for (const x of due) {
    const t = await planTransfer(chain, { sender: from, asset: x.asset, to: dest, amount: x.sweepable, purpose: 'sweep', paymentId: null });
    if (!t.ok) throw new SweepRefused(`a transfer of ${x.sweepable} ${x.symbol} from ${from} would fail: ${t.sim.reason}`);
    subs.push({ ...t, guard });
  }
  const outcomes = await new Submissions(db, log).submitAll(chain, from, subs);
  const transactions = outcomes.map((o, i) => {
    if (o.kind !== 'stored') throw new Error(`sweep of ${due[i].asset} not stored (${o.kind})`);
    log.info({ chainId: chain.caip2, sender: from, to: dest, asset: due[i].asset, txHash: o.tx.hash }, 'retired relayer key swept');
    return { asset: due[i].asset, amount: due[i].sweepable.toString(), to: dest, hash: o.tx.hash, nonce: o.tx.nonce };
  });
  return { chain: chain.caip2, address: from, transactions };
}
