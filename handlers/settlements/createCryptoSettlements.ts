import type { Handler } from '../../src/http/handlerTypes';
import { createSettlements } from '../../src/usecases/settlements';

export const createCryptoSettlements: Handler<'createCryptoSettlements'> = async ({ db, caller, path, body }) => {
  const settlements = await createSettlements(db, caller.accountId, path.merchantId, body.settlements);
  return { status: 201, body: { settlements } };
};
