import type { Handler } from '../../src/http/handlerTypes';
import { reorgTestPayment as reorg } from '../../src/usecases/testHelpers/helpers';
import { detailsView } from '../payments/present';

export const reorgTestPayment: Handler<'reorgTestPayment'> = async ({ db, caller, chainWork, path }) => {
  const { payment, asset } = await reorg({ db, chainWork, caller }, path.id);
  return { status: 200, body: detailsView(payment, asset) };
};
