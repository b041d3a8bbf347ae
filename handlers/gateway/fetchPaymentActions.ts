import type { Handler } from '../../src/http/handlerTypes';
import { fetchActions } from '../../src/usecases/gatewayOptions';
import { walletRpcAction } from './present';

export const fetchPaymentActions: Handler<'fetchPaymentActions'> = async ({ db, config, path, body }) => {
  const opt = await fetchActions(db, config, path.id, body.optionId, body.data);
  return { status: 200, body: { actions: [walletRpcAction(opt)] } };
};
