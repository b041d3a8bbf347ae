import type { Handler } from '../../src/http/handlerTypes';
import { stallTestPayment as stall } from '../../src/usecases/testHelpers/helpers';
import { detailsView } from '../payments/present';

export const stallTestPayment: Handler<'stallTestPayment'> = async ({ db, caller, chainWork, path }) => {
  const { payment, asset } = await stall({ db, chainWork, caller }, path.id);
  return { status: 200, body: detailsView(payment, asset) };
};
