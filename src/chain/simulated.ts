import type { Knex } from 'knex';
import { keccak256, toHex } from 'viem';
import type { ChainPort, Confirmation, Eip3009Submission } from '../domain/chain';

/**
 * The default chain adapter: no node, no gas. It records each authorization (one per payment, so a
 * retried submission returns the first transaction), derives a transaction hash from it, and reports the
 * transaction confirmed once the configured delay has passed since submission.
 */
export class SimulatedChain implements ChainPort {
  constructor(private readonly db: Knex, private readonly confirmationDelayMs: number) {}

  async submit(s: Eip3009Submission): Promise<{ txHash: string }> {
    const txHash = keccak256(toHex(`${s.chainId}|${s.token}|${s.from}|${s.nonce}|${s.signature}`));
    await this.db('chain_submissions')
      .insert({ payment_id: s.paymentId, chain_id: s.chainId, authorization: s, tx_hash: txHash })
      .onConflict('payment_id')
      .ignore();
    const row = await this.db('chain_submissions').where({ payment_id: s.paymentId }).first('tx_hash');
    return { txHash: row.tx_hash };
  }

  async confirmation(paymentId: string, txHash: string): Promise<Confirmation> {
    const row = await this.db('chain_submissions')
      .where({ payment_id: paymentId, tx_hash: txHash })
      .first(this.db.raw('submitted_at + make_interval(secs => ?) <= now() as done', [this.confirmationDelayMs / 1000]));
    if (!row) return 'failed';
    return row.done ? 'confirmed' : 'pending';
  }
}
