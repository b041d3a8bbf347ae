import type { Handler } from '../../src/http/handlerTypes';
import { expireTestPayment as expire } from '../../src/usecases/testHelpers/helpers';
import { detailsView } from '../payments/present';

export const expireTestPayment: Handler<'expireTestPayment'> = async ({ db, caller, chainWork, path }) => {
  const { payment, asset } = await expire({ db, chainWork, caller }, path.id);
  return { status: 200, body: detailsView(payment, asset) };
};
