import type { Db } from '../db/knex';
import type { Config } from '../config';
import { AppError } from '../domain/errors';
import { storeCollectedForPayment } from '../db/optionsRepo';
import { gatewayPayment, notOpen } from './gatewayPayments';
import { needsCollectedData, sealOptionData, validCollectedJson } from './gatewayOptions';

// The hosted collect page hands the buyer's data to the confirm flow: validated with the gateway's Ajv
// schema, sealed like fetch and confirm seal it, and stored on the payment's options for the buyer's
// accounts (a later quote for the same account inherits it), so the wallet confirms without sending it.

export async function submitCollected(db: Db, config: Config, pid: string, accounts: string[], data: unknown): Promise<void> {
  const { payment } = await gatewayPayment(db, config.publicBaseUrl, pid);
  if (payment.status !== 'requires_action') throw notOpen(payment);
  if (!(await needsCollectedData(db, config, payment))) throw new AppError('invalid_state', 'This payment needs no buyer data.');
  const json = validCollectedJson(data, '/data');
  const stored = await storeCollectedForPayment(db, payment.id, accounts, (optionId) => sealOptionData(config, optionId, json));
  if (!stored) throw new AppError('invalid_state', 'No payment option asks for this data yet: open the payment in your wallet first.');
}
