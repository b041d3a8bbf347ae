import type { Handler } from '../../src/http/handlerTypes';
import { fetchActions } from '../../src/usecases/gateway/options';
import { optionActions } from './present';

export const fetchPaymentActions: Handler<'fetchPaymentActions'> = async ({ db, config, chainWork, path, body }) => {
  const opt = await fetchActions(db, config, chainWork, path.id, body.optionId, body.data);
  return { status: 200, body: { actions: optionActions(opt, 'fetch') } };
};
