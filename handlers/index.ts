import type { HandlerMap } from '../src/http/handlerTypes';
import { createMerchant } from './merchants/createMerchant';
import { deleteMerchant } from './merchants/deleteMerchant';
import { getMerchant } from './merchants/getMerchant';
import { listMerchants } from './merchants/listMerchants';
import { updateMerchant } from './merchants/updateMerchant';
import { createPayment } from './payments/createPayment';
import { listPayments } from './payments/listPayments';
import { getPayment } from './payments/getPayment';
import { cancelPayment } from './payments/cancelPayment';
import { getPaymentStatus } from './payments/getPaymentStatus';
import { createPaymentDeprecated } from './payments/createPaymentDeprecated';
import { getPaymentStatusDeprecated } from './payments/getPaymentStatusDeprecated';
import { createRefund } from './payments/createRefund';
import { getRefund } from './payments/getRefund';
import { listRefunds } from './payments/listRefunds';
import { listMerchantPayments } from './payments/listMerchantPayments';
import { listMerchantPaymentsDeprecated } from './payments/listMerchantPaymentsDeprecated';
import { createCryptoSettlements } from './settlements/createCryptoSettlements';
import { deleteCryptoSettlement } from './settlements/deleteCryptoSettlement';
import { listSettlements } from './settlements/listSettlements';
import { updateCryptoSettlement } from './settlements/updateCryptoSettlement';
import { getGatewayPayment } from './gateway/getGatewayPayment';
import { getPaymentOptions } from './gateway/getPaymentOptions';
import { fetchPaymentActions } from './gateway/fetchPaymentActions';
import { confirmPayment } from './gateway/confirmPayment';
import { cancelGatewayPayment } from './gateway/cancelGatewayPayment';
import { declineGatewayPayment } from './gateway/declineGatewayPayment';
import { getGatewayPaymentStatus } from './gateway/getGatewayPaymentStatus';
import { createWebhookEndpoint } from './webhooks/createWebhookEndpoint';
import { listWebhookEndpoints } from './webhooks/listWebhookEndpoints';
import { getWebhookEndpoint } from './webhooks/getWebhookEndpoint';
import { updateWebhookEndpoint } from './webhooks/updateWebhookEndpoint';
import { deleteWebhookEndpoint } from './webhooks/deleteWebhookEndpoint';
import { rotateWebhookEndpointSecret } from './webhooks/rotateWebhookEndpointSecret';
import { listEvents } from './webhooks/listEvents';
import { getEvent } from './webhooks/getEvent';
import { listEventAttempts } from './webhooks/listEventAttempts';
import { redeliverEvent } from './webhooks/redeliverEvent';
import { payGatewayPaymentX402 } from './gateway/payGatewayPaymentX402';
import { getX402Supported } from './x402/getX402Supported';
import { verifyX402Payment } from './x402/verifyX402Payment';
import { settleX402Payment } from './x402/settleX402Payment';
import { getX402Settlement } from './x402/getX402Settlement';
import { getAccountSettings } from './account/getAccountSettings';
import { updateAccountSettings } from './account/updateAccountSettings';
import { createApiKey } from './keys/createApiKey';
import { listApiKeys } from './keys/listApiKeys';
import { revokeApiKey } from './keys/revokeApiKey';
import { listAuditEvents } from './keys/listAuditEvents';
import { getBalance } from './balance/getBalance';
import { listBalanceTransactions } from './balance/listBalanceTransactions';
import { reorgTestPayment } from './testHelpers/reorgTestPayment';
import { stallTestPayment } from './testHelpers/stallTestPayment';
import { expireTestPayment } from './testHelpers/expireTestPayment';
import { blacklistTestAccount } from './testHelpers/blacklistTestAccount';
import { unblacklistTestAccount } from './testHelpers/unblacklistTestAccount';

// One entry per operationId of the spec; the type makes a missing handler a compile error.
export const handlers: HandlerMap = {
  // Merchants
  createMerchant,
  listMerchants,
  getMerchant,
  updateMerchant,
  deleteMerchant,
  // Settlements
  listSettlements,
  createCryptoSettlements,
  updateCryptoSettlement,
  deleteCryptoSettlement,
  // Payments, merchant side
  createPayment,
  listPayments,
  getPayment,
  cancelPayment,
  getPaymentStatus,
  createPaymentDeprecated,
  getPaymentStatusDeprecated,
  createRefund,
  getRefund,
  listRefunds,
  listMerchantPayments,
  listMerchantPaymentsDeprecated,
  // Gateway (wallet side)
  getGatewayPayment,
  getPaymentOptions,
  fetchPaymentActions,
  confirmPayment,
  cancelGatewayPayment,
  declineGatewayPayment,
  getGatewayPaymentStatus,
  payGatewayPaymentX402,
  // Balance (2026-02-19.preview)
  getBalance,
  listBalanceTransactions,
  // Account settings (2026-02-19.preview)
  getAccountSettings,
  updateAccountSettings,
  // API keys and the audit log
  createApiKey,
  listApiKeys,
  revokeApiKey,
  listAuditEvents,
  // Webhooks (2026-02-19.preview)
  createWebhookEndpoint,
  listWebhookEndpoints,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookEndpointSecret,
  listEvents,
  getEvent,
  listEventAttempts,
  redeliverEvent,
  // x402 facilitator (2026-02-19.preview)
  getX402Supported,
  verifyX402Payment,
  settleX402Payment,
  getX402Settlement,
  // Test helpers (2026-02-19.preview; test keys on development chains only)
  reorgTestPayment,
  stallTestPayment,
  expireTestPayment,
  blacklistTestAccount,
  unblacklistTestAccount,
};
