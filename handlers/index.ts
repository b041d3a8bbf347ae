import type { HandlerMap } from '../src/http/handlerTypes';
import { notImplemented } from './notImplemented';
import { createMerchant } from './merchants/createMerchant';
import { deleteMerchant } from './merchants/deleteMerchant';
import { getMerchant } from './merchants/getMerchant';
import { listMerchants } from './merchants/listMerchants';
import { updateMerchant } from './merchants/updateMerchant';

// One entry per operationId of the spec; the type makes a missing handler a compile error.
export const handlers: HandlerMap = {
  // Merchants
  createMerchant,
  listMerchants,
  getMerchant,
  updateMerchant,
  deleteMerchant,
  // Settlements (issue 4)
  listSettlements: notImplemented,
  createCryptoSettlements: notImplemented,
  updateCryptoSettlement: notImplemented,
  deleteCryptoSettlement: notImplemented,
  // Payments, merchant side (issue 4)
  createPayment: notImplemented,
  listPayments: notImplemented,
  getPayment: notImplemented,
  cancelPayment: notImplemented,
  getPaymentStatus: notImplemented,
  createRefund: notImplemented,
  listMerchantPayments: notImplemented,
  listMerchantPaymentsDeprecated: notImplemented,
  // Gateway (issue 5)
  getGatewayPayment: notImplemented,
  getPaymentOptions: notImplemented,
  fetchPaymentActions: notImplemented,
  confirmPayment: notImplemented,
  cancelGatewayPayment: notImplemented,
  getGatewayPaymentStatus: notImplemented,
};
