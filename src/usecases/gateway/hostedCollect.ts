import type { Db } from '../../db/knex';
import type { Config } from '../../config';
import { collectScope, isCollectToken } from '../../domain/collectLink';
import { AppError } from '../../domain/errors';
import { hasCollectScope, storeCollectedForPayment } from '../../db/optionsRepo';
import { gatewayPayment, notOpen } from './payments';
import { sealOptionData, validCollectedJson } from './options';
import { needsBuyerData } from './confirmRules';

// The hosted collect page hands the buyer's data to the confirm flow: validated with the gateway's Ajv
// schema, sealed like fetch and confirm seal it, and stored on the options quoted under the page's link (the
// buyer's accounts among them; a later quote by the same wallet inherits it), so the wallet confirms without
// sending it. The link's token, handed only to the wallet that asked for the options (domain/collectLink.ts),
// is what allows the write: the pay link alone writes nothing, and the buyer holding the link may correct
// the data until the payment is confirmed.

const notThisLink = () => new AppError('forbidden', 'This link does not take details for this payment: open it from your wallet again.');

/** Whether `token` is the collect link of some quote of this payment. */
export async function collectLinkKnown(db: Db, paymentId: string, token: unknown): Promise<boolean> {
  return isCollectToken(token) && hasCollectScope(db, paymentId, collectScope(token));
}

export async function submitCollected(
  db: Db,
  config: Config,
  pid: string,
  link: { token: unknown; accounts: string[] },
  data: unknown,
): Promise<void> {
  const { payment } = await gatewayPayment(db, config.publicBaseUrl, pid);
  if (payment.status !== 'requires_action') throw notOpen(payment);
  if (!(await needsBuyerData(db, config, payment))) throw new AppError('invalid_state', 'This payment needs no buyer data.');
  const json = validCollectedJson(data, '/data');
  if (!isCollectToken(link.token)) throw notThisLink();
  const scope = collectScope(link.token);
  const stored = await storeCollectedForPayment(db, payment.id, scope, link.accounts, (optionId) => sealOptionData(config, optionId, json));
  if (stored) return;
  if (await hasCollectScope(db, payment.id, scope))
    throw new AppError('invalid_state', 'No payment option of this link asks for this data: open the payment in your wallet again.');
  throw notThisLink();
}
