import type { Handler } from '../../src/http/handlerTypes';
import { getPaymentStatus } from './getPaymentStatus';

/** GET /v1/merchant/payment/{id}/status: the hosted e-commerce guides' path, the same operation as getPaymentStatus. */
export const getPaymentStatusDeprecated: Handler<'getPaymentStatusDeprecated'> = (h) =>
  getPaymentStatus({ ...h, operationId: 'getPaymentStatus' });
