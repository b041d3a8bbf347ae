import type { Handler } from '../../src/http/handlerTypes';
import { createPayment } from './createPayment';

/** POST /v1/merchant/payment: the hosted e-commerce guides' path, the same operation as createPayment. */
export const createPaymentDeprecated: Handler<'createPaymentDeprecated'> = (h) => createPayment({ ...h, operationId: 'createPayment' });
