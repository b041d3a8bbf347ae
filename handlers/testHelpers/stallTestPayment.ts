import type { Handler } from '../../src/http/handlerTypes';
import { stallTestPayment as stall } from '../../src/usecases/testHelpers/helpers';
import { paymentDetails } from '../payments/getPayment';

export const stallTestPayment: Handler<'stallTestPayment'> = async ({ db, config, caller, chainWork, path, version }) => {
  const { payment, asset } = await stall({ db, chainWork, caller }, path.id);
  return { status: 200, body: await paymentDetails({ db, config, version }, payment, asset) };
};
