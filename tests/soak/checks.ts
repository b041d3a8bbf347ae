import { createPublicClient, getAddress, http, parseAbiItem, type Address, type Hex } from 'viem';
import type { Knex } from 'knex';
import { devnetChain } from '../../src/chain/devnet';
import { TOKEN_ABI } from '../../src/chain/evm';
import type { LoadRecord } from './load';
import { releases } from './reserves';
import { USDC } from './stack';

// What a soak proves at its end, from the database and the chain (never from the service's own answers): each
// check returns the violations it found, as sentences naming what is wrong.

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
/** Relayer gas (units) per succeeded payment: a collect (about 96,000) and a settlement, with room for replacements. */
const GAS_PER_PAYMENT_BOUND = 250_000n;

type Row = Record<string, any>;
const addressOf = (caip10: string) => getAddress(caip10.split(':')[2]);

/** A development chain of the soak: its CAIP-2 id and a client of its node. */
const clientsOf = (chains: { chainId: number; rpcUrl: string }[]) =>
  chains.map((c) => ({
    caip2: `eip155:${c.chainId}`,
    pub: createPublicClient({ chain: devnetChain(c.rpcUrl, c.chainId), transport: http(c.rpcUrl) }),
  }));

export async function checkAll(db: Knex, chains: { chainId: number; rpcUrl: string }[], rec: LoadRecord, relayers: Address[]) {
  const clients = clientsOf(chains);
  const violations: string[] = [];
  const bad = (s: string) => violations.push(s);
  // Every USDC transfer of every chain (hashes do not repeat across chains), each with its chain.
  const transfers = (
    await Promise.all(
      clients.map(async (c) =>
        (await c.pub.getLogs({ address: USDC, event: TRANSFER, fromBlock: 0n })).map((l) => ({ ...l, caip2: c.caip2 })),
      ),
    )
  )
    .flat()
    .filter((l) => l.args.value! > 0n);
  /** Where a collector's tokens are counted: per chain and address. */
  const at = (caip2: string, holder: string) => `${caip2}|${getAddress(holder)}`;
  const payments: Row[] = await db('payments as p')
    .leftJoin('payment_options as o', 'o.id', 'p.option_id')
    .select(
      'p.*',
      'o.relayer',
      db.raw(`o.typed_data::jsonb ->> 'primaryType' AS primary_type`),
      db.raw(`EXISTS (SELECT 1 FROM refund_fundings f WHERE f.payment_id = p.id) AS funds_refund`),
    );

  // Every acknowledged write is stored exactly once. A refund's funding payments are the service's, not a client's
  // write: a refund still short after its funding gets another of the same reference (src/usecases/payments/refunds.ts).
  const byRef = new Map<string, number>();
  for (const p of payments) if (!p.funds_refund) byRef.set(p.reference_id, (byRef.get(p.reference_id) ?? 0) + 1);
  for (const [ref, n] of byRef) if (n > 1) bad(`payment reference ${ref} stored ${n} times`);
  const ids = new Set(payments.map((p) => p.id));
  for (const p of rec.payments) if (!ids.has(p.id)) bad(`acknowledged payment ${p.id} is not stored`);
  const merchants: Row[] = await db('merchants').select('id', 'name', 'account_id');
  const byName = new Map<string, number>();
  for (const m of merchants) byName.set(`${m.account_id}/${m.name}`, (byName.get(`${m.account_id}/${m.name}`) ?? 0) + 1);
  for (const [name, n] of byName) if (n > 1) bad(`merchant ${name} stored ${n} times`);
  const merchantIds = new Set(merchants.map((m) => m.id));
  for (const m of rec.merchants) if (!merchantIds.has(m.id)) bad(`acknowledged merchant ${m.id} is not stored`);

  const refunds: Row[] = await db('refunds as r')
    .leftJoin('chain_transactions as c', 'c.id', 'r.chain_tx_id')
    // Its latest funding payment (a refund still short once one is paid gets another).
    .leftJoin(
      'payments as fp',
      'fp.id',
      db.raw('(SELECT f.payment_id FROM refund_fundings f WHERE f.refund_id = r.id ORDER BY f.created_at DESC LIMIT 1)'),
    )
    .select(
      'r.id',
      'r.payment_id',
      'r.status',
      'r.token_amount',
      'r.recipient',
      'r.tx_hash',
      'c.sender',
      'c.chain_id',
      'fp.status as funding_status',
    );
  /** What refunds of a payment asked for, failed ones included. */
  const refundedOf = (paymentId: string) =>
    refunds.filter((r) => r.payment_id === paymentId).reduce((n, r) => n + BigInt(r.token_amount), 0n);

  // Scheduled settlements: one transfer of a batch's payments' shares (docs/ledger.md), by its transaction.
  const batches: Row[] = await db('settlement_batches as b')
    .join('chain_transactions as c', 'c.id', 'b.chain_tx_id')
    .where('c.status', 'confirmed')
    .select(
      'c.tx_hash',
      'b.amount',
      db.raw('(SELECT sum(amount) FROM settlement_batch_payments m WHERE m.chain_tx_id = b.chain_tx_id) AS shares'),
    );
  for (const b of batches) if (b.amount !== b.shares) bad(`batch ${b.tx_hash}: ${b.amount} sent, its payments' shares sum to ${b.shares}`);
  const batchOf = new Map(batches.map((b) => [b.tx_hash as string, BigInt(b.amount)]));
  const released = await releases(db);

  // A payment's buyer is charged once if it succeeded, never otherwise; a settlement is one transfer of its amount (or
  // of its batch's). Paid to a collector (a gateway confirm's ReceiveWithAuthorization, or an x402 link's transfer to
  // it), its tokens count at that collector on the payment's chain.
  const collected = new Map<string, bigint>();
  // x402 in collector mode pays the account's deposit address, which passes the tokens on to a collector in the
  // payment's own transaction (docs/x402.md): followed to that collector; a deposit address holds nothing after.
  const deposits = new Set<string>((await db('x402_deposit_keys').pluck('address')).map((a: string) => getAddress(a)));
  for (const p of payments.filter((x) => x.buyer_account)) {
    const buyer = addressOf(p.buyer_account);
    const paid = transfers.filter((t) => getAddress(t.args.from!) === buyer);
    if (p.status !== 'succeeded') {
      if (paid.length) bad(`${p.status} payment ${p.id}: its buyer was charged in ${paid.map((t) => t.transactionHash).join(', ')}`);
      continue;
    }
    const want = BigInt(p.token_amount);
    if (paid.length !== 1 || paid[0].args.value !== want || paid[0].transactionHash !== p.tx_hash)
      bad(
        `succeeded payment ${p.id}: ${paid.length} transfers from its buyer (${paid.map((t) => `${t.args.value} in ${t.transactionHash}`)}), expected ${want} in ${p.tx_hash}`,
      );
    let to = paid.length === 1 ? getAddress(paid[0].args.to!) : null;
    if (to && deposits.has(to)) {
      const from = to;
      const onward = transfers.filter((t) => t.transactionHash === p.tx_hash && getAddress(t.args.from!) === from);
      if (onward.length !== 1 || onward[0].args.value !== want || !relayers.includes(getAddress(onward[0].args.to!)))
        bad(`succeeded payment ${p.id}: paid to deposit address ${from}, not passed on to a collector in ${p.tx_hash}`);
      to = onward.length === 1 ? getAddress(onward[0].args.to!) : null;
    }
    if (to && relayers.includes(to)) {
      const collector = to;
      const key = at(paid[0].caip2, collector);
      collected.set(key, (collected.get(key) ?? 0n) + want);
      if (p.settled_at) {
        const sent = transfers.filter((t) => t.transactionHash === p.settlement_tx_hash);
        const ok =
          sent.length === 1 &&
          getAddress(sent[0].args.from!) === collector &&
          getAddress(sent[0].args.to!) === addressOf(p.settlement_destination) &&
          sent[0].args.value ===
            (batchOf.get(p.settlement_tx_hash) ?? released.byTx.get(p.settlement_tx_hash) ?? BigInt(p.settlement_amount));
        if (!ok)
          bad(
            `settled payment ${p.id}: its settlement transaction ${p.settlement_tx_hash} is not one transfer of ${p.settlement_amount} to ${p.settlement_destination}`,
          );
        // A refund made before the settlement left is not settled, also when it failed afterwards (its amount stays
        // the account's available balance: the books, tests/soak/ledgerChecks.ts, count it as held).
        // Its refund reserve, less what refunds (its own or the account's others) drew on it, settles in its release.
        const gap = want - BigInt(p.settlement_amount) - BigInt(p.fee_amount) - released.extraOf(p.id);
        if (gap < 0n || gap > refundedOf(p.id) + released.reserveOf(p.id))
          bad(
            `settled payment ${p.id}: settled ${p.settlement_amount} + fee ${p.fee_amount} (+ refunded before) != collected ${want}; refunds ${JSON.stringify(refunds.filter((r) => r.payment_id === p.id).map((r) => [r.status, r.token_amount]))}`,
          );
        collected.set(key, collected.get(key)! - BigInt(p.settlement_amount) - released.extraOf(p.id));
      }
    }
  }
  // A refund sent is one transfer of its amount from a collector to the buyer; no refund waits with its funding paid.
  for (const r of refunds) {
    if (r.status === 'pending' || (r.status === 'requires_funding' && r.funding_status === 'succeeded'))
      bad(`refund ${r.id} is still ${r.status}${r.funding_status ? ` (its funding payment ${r.funding_status})` : ''}`);
    if (r.status !== 'succeeded') continue;
    const sent = transfers.filter((t) => t.transactionHash === r.tx_hash);
    if (sent.length !== 1 || getAddress(sent[0].args.to!) !== getAddress(r.recipient) || sent[0].args.value !== BigInt(r.token_amount))
      bad(`refund ${r.id}: its transaction ${r.tx_hash} is not one transfer of ${r.token_amount} to ${r.recipient}`);
    const from = at(r.chain_id, r.sender);
    collected.set(from, (collected.get(from) ?? 0n) - BigInt(r.token_amount));
  }
  // No transfer out of a collector that no settlement or refund accounts for (none twice), and each collector holds
  // exactly what it collected minus what it settled and refunded (fees and unsettled amounts stay in it).
  const settlementTxs = new Set([
    ...payments.filter((p) => p.settled_at).map((p) => p.settlement_tx_hash),
    ...refunds.filter((r) => r.status === 'succeeded').map((r) => r.tx_hash),
    ...released.byTx.keys(),
  ]);
  for (const t of transfers)
    if (relayers.includes(getAddress(t.args.from!)) && !settlementTxs.has(t.transactionHash))
      bad(`transfer of ${t.args.value} from collector ${t.args.from} to ${t.args.to} in ${t.transactionHash} is no settlement or refund`);
  for (const c of clients)
    for (const r of relayers) {
      const balance = await c.pub.readContract({ address: USDC, abi: TOKEN_ABI, functionName: 'balanceOf', args: [r] });
      const want = collected.get(at(c.caip2, r)) ?? 0n;
      if (balance !== want) bad(`collector ${r} holds ${balance} on ${c.caip2}, the payments say ${want}`);
    }
  for (const c of clients)
    for (const d of deposits) {
      const balance = await c.pub.readContract({ address: USDC, abi: TOKEN_ABI, functionName: 'balanceOf', args: [d as `0x${string}`] });
      if (balance !== 0n) bad(`x402 deposit address ${d} holds ${balance} on ${c.caip2}`);
    }

  // Relayer nonces, per chain: every transaction final, nonces 0..n-1 each once, n the chain's count; one final
  // transaction per step.
  const txs: Row[] = await db('chain_transactions').select('*');
  let gas = 0n;
  for (const c of clients)
    for (const r of relayers) {
      const mine = txs.filter((t) => getAddress(t.sender) === r && t.chain_id === c.caip2);
      for (const t of mine.filter((x) => !['confirmed', 'reverted'].includes(x.status)))
        bad(`relayer transaction ${t.tx_hash} on ${c.caip2} is ${t.status}`);
      const nonces = mine
        .filter((t) => t.status !== 'dropped')
        .map((t) => Number(t.nonce))
        .sort((a, b) => a - b);
      const count = await c.pub.getTransactionCount({ address: r });
      if (nonces.length !== count || nonces.some((n, i) => n !== i))
        bad(`relayer ${r} on ${c.caip2}: stored nonces ${nonces.join(',')} but ${count} sent on chain`);
      for (const t of mine.filter((x) => ['confirmed', 'reverted'].includes(x.status)))
        gas += (await c.pub.getTransactionReceipt({ hash: t.tx_hash as Hex })).gasUsed;
    }
  const perStep = new Map<string, number>();
  for (const t of txs.filter((x) => x.status === 'confirmed' && x.purpose !== 'refund' && x.purpose !== 'settle_batch'))
    // a payment may have several refunds; a batch is no one payment's (its payments are settled once, above)
    perStep.set(`${t.payment_id}/${t.purpose}`, (perStep.get(`${t.payment_id}/${t.purpose}`) ?? 0) + 1);
  for (const [step, n] of perStep) if (n > 1) bad(`${step}: ${n} confirmed transactions`);

  // Nothing left non-final: no payment processing, no collected payment unsettled (held ones included).
  for (const p of payments.filter((x) => x.status === 'processing')) bad(`payment ${p.id} is still processing`);
  // A refund's funding is credited to the account, never settled.
  const settles = (x: Row) => x.status === 'succeeded' && x.primary_type === 'ReceiveWithAuthorization' && !x.funds_refund;
  for (const p of payments.filter((x) => settles(x) && !x.settled_at))
    bad(`payment ${p.id} is unsettled${p.settlement_held_at ? ` (held: ${p.settlement_hold_reason})` : ''}`);

  const succeeded = payments.filter((p) => p.status === 'succeeded').length;
  if (succeeded && gas / BigInt(succeeded) > GAS_PER_PAYMENT_BOUND)
    bad(`relayer gas per succeeded payment ${gas / BigInt(succeeded)} is over ${GAS_PER_PAYMENT_BOUND}`);
  return { violations, payments, gas, succeeded };
}

/** Every event of a payment of the account reached its receiver (which answers every request by now). */
export async function checkWebhooks(db: Knex, accountId: string, received: { headers: Record<string, string>; body: any }[]) {
  const events: Row[] = await db('payment_events').where({ account_id: accountId }).select('id', 'type', 'payment_id');
  const got = new Set(received.map((r) => r.headers['webhook-id'] ?? r.body?.id));
  return events
    .filter((e) => !got.has(e.id))
    .map((e) => `event ${e.id} (${e.type} of ${e.payment_id}) never reached account ${accountId}'s receiver`);
}
