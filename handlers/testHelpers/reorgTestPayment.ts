import type { Handler } from '../../src/http/handlerTypes';
import { reorgTestPayment as reorg } from '../../src/usecases/testHelpers/helpers';
import { paymentDetails } from '../payments/getPayment';

export const reorgTestPayment: Handler<'reorgTestPayment'> = async ({ db, config, caller, chainWork, path, version }) => {
  const { payment, asset } = await reorg({ db, chainWork, caller }, path.id);
  return { status: 200, body: await paymentDetails({ db, config, version }, payment, asset) };
};
