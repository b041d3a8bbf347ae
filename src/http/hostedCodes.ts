import { ERRORS, ErrorCode } from '../domain/errors';

// Where the hosted service's contract lists the codes an operation answers with for a status, clients written
// against it branch on those; so on those operations a code of ours that is not in that list is answered as
// the hosted one (with its status), and ours is kept in the body's `reason`
// (docs/api.md, Errors). Our own operations (webhooks, x402, test helpers, decline) keep ours.
// contract-tests/hosted-contract/hosted-types-*.json hold those lists; tests/unit/hostedFacts.test.ts checks
// the documents against them and tests/integration/hostedCodes.test.ts these answers.

type Mapping = Partial<Record<ErrorCode, ErrorCode>>;

/** Merchant and settlement operations, and refunds: every 404 is `not_found`. */
const NOT_FOUND: Mapping = { merchant_not_found: 'not_found', payment_not_found: 'not_found', settlement_not_found: 'not_found' };
/** Their 400 lists only `params_validation` (no `invalid_params`). */
const VALIDATION: Mapping = { invalid_params: 'params_validation' };
/** A key still running is, to a client of the hosted service, a key it may not use now: `idempotency_conflict`. */
const IN_PROGRESS: Mapping = { idempotency_in_progress: 'idempotency_conflict' };
/** Gateway and payment operations: one list of codes (no option, account or collected-data codes). */
const PAYMENT: Mapping = {
  ...IN_PROGRESS,
  option_not_found: 'invalid_params',
  invalid_account: 'params_validation',
  collect_data_required: 'invalid_params',
  // Payment creation for a merchant whose settlements no served chain takes: a state of the merchant's.
  asset_not_served: 'invalid_state',
};

const BY_OPERATION: Record<string, Mapping> = {
  createMerchant: { ...VALIDATION, ...IN_PROGRESS },
  getMerchant: { ...NOT_FOUND, ...VALIDATION },
  updateMerchant: { ...NOT_FOUND, ...VALIDATION },
  deleteMerchant: { ...NOT_FOUND, ...VALIDATION },
  listSettlements: { ...NOT_FOUND, ...VALIDATION },
  createCryptoSettlements: { ...NOT_FOUND, ...IN_PROGRESS },
  updateCryptoSettlement: NOT_FOUND,
  deleteCryptoSettlement: { ...NOT_FOUND, ...VALIDATION },
  // idempotency_in_progress stays: a refund still running is not already_refunded (docs/api.md).
  createRefund: { ...NOT_FOUND, ...VALIDATION },
  getGatewayPayment: PAYMENT,
  cancelGatewayPayment: PAYMENT,
  confirmPayment: PAYMENT,
  fetchPaymentActions: PAYMENT,
  getPaymentOptions: PAYMENT,
  getGatewayPaymentStatus: PAYMENT,
  createPayment: PAYMENT,
  getPayment: PAYMENT,
  cancelPayment: PAYMENT,
  getPaymentStatus: PAYMENT,
  // The paths of the hosted service's e-commerce guides: the same operations, so the same answers.
  createPaymentDeprecated: PAYMENT,
  getPaymentStatusDeprecated: PAYMENT,
};

/** Codes whose status in the hosted contract is not the catalogue's (merchant and settlement creation say 409). */
const HOSTED_STATUS: Partial<Record<ErrorCode, number>> = { idempotency_conflict: 409 };

/** The code and status an operation answers for one of ours (the catalogue's where the hosted contract does not say). */
export function hostedCode(operationId: string | undefined, code: ErrorCode): { code: ErrorCode; status: number } {
  const mapping = operationId ? BY_OPERATION[operationId] : undefined;
  if (!mapping) return { code, status: ERRORS[code].status };
  const answered = mapping[code] ?? code;
  return { code: answered, status: HOSTED_STATUS[answered] ?? ERRORS[answered].status };
}
