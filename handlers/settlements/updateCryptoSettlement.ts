import type { Handler } from '../../src/http/handlerTypes';
import { changeDestination } from '../../src/usecases/settlements';
import { settlementView } from './present';

export const updateCryptoSettlement: Handler<'updateCryptoSettlement'> = async ({ db, caller, path, body, version }) => ({
  status: 200,
  body: settlementView(
    await changeDestination(db, caller.accountId, path.merchantId, path.id, body.destination),
    version,
    caller.accountId,
  ),
});
