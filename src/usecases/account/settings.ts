import { refundReserveTerms, setRefundReserve, settlementTerms } from '../../db/accountsRepo';
import type { DataKeyring } from '../../domain/sealed';
import { depositOf } from '../x402/deposit';
import type { Db } from '../../db/knex';
import { AppError } from '../../domain/errors';

// An account's own settings (preview: GET and PUT /v1/account/settings; the operator: `admin accounts set-reserve`).
// Its refund reserve (docs/ledger.md "Refund reserve"): its own terms, else the operator's defaults; and x402's payTo.

export interface ReserveTerms {
  bps: number;
  windowMinutes: number;
}

/** The refund reserve that applies to the account's next collected payments, and whether it is the account's own. */
export async function accountSettings(db: Db, keys: DataKeyring, accountId: string, defaults: ReserveTerms) {
  const own = await refundReserveTerms(db, accountId);
  if (!own) throw new AppError('not_found', 'No such account.');
  const collector = (await settlementTerms(db, accountId)).mode === 'collector';
  return {
    settings: {
      refundReserve: {
        bps: own.bps ?? defaults.bps,
        windowMinutes: own.windowMinutes ?? defaults.windowMinutes,
        overridden: own.bps !== null || own.windowMinutes !== null,
      },
      // x402 in collector mode pays the account's deposit address (docs/x402.md "Whose payTo").
      x402: { payTo: collector ? (await depositOf(db, keys, accountId)).address : null },
    },
  };
}

/** Sets the account's refund reserve terms (null: back to the operator's defaults); its settings as they are then. */
export async function changeAccountSettings(
  db: Db,
  keys: DataKeyring,
  accountId: string,
  terms: ReserveTerms | null,
  defaults: ReserveTerms,
) {
  if (!(await setRefundReserve(db, accountId, terms))) throw new AppError('not_found', 'No such account.');
  return accountSettings(db, keys, accountId, defaults);
}
