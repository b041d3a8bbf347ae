import { refundReserveTerms, setRefundReserve } from '../../db/accountsRepo';
import type { Db } from '../../db/knex';
import { AppError } from '../../domain/errors';

// An account's own settings (preview: GET and PUT /v1/account/settings; the operator: `admin accounts set-reserve`).
// Today its refund reserve (docs/ledger.md "Refund reserve"): its own terms, else the operator's defaults.

export interface ReserveTerms {
  bps: number;
  windowMinutes: number;
}

/** The refund reserve that applies to the account's next collected payments, and whether it is the account's own. */
export async function accountSettings(db: Db, accountId: string, defaults: ReserveTerms) {
  const own = await refundReserveTerms(db, accountId);
  if (!own) throw new AppError('not_found', 'No such account.');
  return {
    settings: {
      refundReserve: {
        bps: own.bps ?? defaults.bps,
        windowMinutes: own.windowMinutes ?? defaults.windowMinutes,
        overridden: own.bps !== null || own.windowMinutes !== null,
      },
    },
  };
}

/** Sets the account's refund reserve terms (null: back to the operator's defaults); its settings as they are then. */
export async function changeAccountSettings(db: Db, accountId: string, terms: ReserveTerms | null, defaults: ReserveTerms) {
  if (!(await setRefundReserve(db, accountId, terms))) throw new AppError('not_found', 'No such account.');
  return accountSettings(db, accountId, defaults);
}
