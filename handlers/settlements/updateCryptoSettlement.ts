import type { Handler } from '../../src/http/handlerTypes';
import { changeDestination, checkNewDestination } from '../../src/usecases/merchants/settlements';
import { settlementView } from './present';

type Prepared = Awaited<ReturnType<typeof checkNewDestination>>;

export const updateCryptoSettlement: Handler<'updateCryptoSettlement'> = async ({ db, caller, path, version, prepared }) => ({
  status: 200,
  body: settlementView(
    await changeDestination(db, caller.accountId, path.merchantId, path.id, prepared as Prepared),
    version,
    caller.accountId,
  ),
});
// The destination's checks read the token's blacklist from the chain: outside the request's transaction.
updateCryptoSettlement.prepare = ({ db, chainWork, caller, path, body }) =>
  checkNewDestination(db, chainWork, caller.accountId, path.merchantId, path.id, body.destination);
