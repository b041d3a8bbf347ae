import type { Handler } from '../../src/http/handlerTypes';
import { createSettlements } from '../../src/usecases/settlements';
import { settlementView } from './present';

export const createCryptoSettlements: Handler<'createCryptoSettlements'> = async ({ db, caller, path, body, version }) => {
  const settlements = await createSettlements(db, caller.accountId, path.merchantId, body.settlements);
  return { status: 201, body: { settlements: settlements.map((s) => settlementView(s, version, caller.accountId)) } };
};
