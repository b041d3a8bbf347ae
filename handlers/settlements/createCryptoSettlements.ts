import type { Handler } from '../../src/http/handlerTypes';
import { checkNewSettlements, createSettlements } from '../../src/usecases/merchants/settlements';
import { settlementView } from './present';

type Prepared = Awaited<ReturnType<typeof checkNewSettlements>>;

export const createCryptoSettlements: Handler<'createCryptoSettlements'> = async ({ db, caller, path, version, prepared }) => {
  const settlements = await createSettlements(db, caller.accountId, path.merchantId, prepared as Prepared);
  return { status: 201, body: { settlements: settlements.map((s) => settlementView(s, version, caller.accountId)) } };
};
// The destinations' checks read the token's blacklist from the chain: outside the request's transaction.
createCryptoSettlements.prepare = ({ db, chainWork, caller, path, body }) =>
  checkNewSettlements(db, chainWork, caller.accountId, path.merchantId, body.settlements);
