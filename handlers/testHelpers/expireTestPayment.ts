import type { Handler } from '../../src/http/handlerTypes';
import { expireTestPayment as expire } from '../../src/usecases/testHelpers/helpers';
import { paymentDetails } from '../payments/getPayment';

export const expireTestPayment: Handler<'expireTestPayment'> = async ({ db, config, caller, chainWork, path, version }) => {
  const { payment, asset } = await expire({ db, chainWork, caller }, path.id);
  return { status: 200, body: await paymentDetails({ db, config, version }, payment, asset) };
};
