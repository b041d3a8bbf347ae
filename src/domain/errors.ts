// The one error catalogue. Every 4xx/5xx the service answers comes from here, so the codes that tests and
// clients rely on live in one place (and in the Error schema of spec/).

export const ERRORS = {
  params_validation: { status: 400, message: 'The request does not match the API contract.' },
  invalid_params: { status: 400, message: 'The request is invalid.' },
  missing_idempotency_key: { status: 400, message: 'This operation requires an Idempotency-Key header.' },
  collect_data_required: { status: 400, message: 'The buyer must supply the collected data first.' },
  payment_not_succeeded: { status: 400, message: 'Only a succeeded payment can be refunded.' },
  unknown_api_version: { status: 400, message: 'Unknown API version.' },
  invalid_api_version: { status: 400, message: 'Malformed API version.' },
  conflicting_api_versions: { status: 400, message: 'PAY-Version, WCP-Version and Api-Version disagree.' },
  missing_api_key: { status: 401, message: 'The Api-Key header is missing.' },
  invalid_api_key: { status: 401, message: 'The API key is not valid.' },
  missing_merchant_id: { status: 401, message: 'The Merchant-Id header is missing.' },
  invalid_token: { status: 401, message: 'A valid bearer token is required.' },
  session_required: { status: 401, message: 'Sign in to the dashboard: no session, or it has expired.' },
  invalid_credentials: { status: 401, message: 'The email or the password is wrong.' },
  totp_required: { status: 401, message: 'This user signs in with a TOTP code too: send totpCode.' },
  invalid_totp: { status: 401, message: 'The TOTP code is wrong.' },
  payment_required: { status: 402, message: 'Pay over x402: the PAYMENT-REQUIRED header holds what this payment accepts.' },
  forbidden: { status: 403, message: 'This key may not act on that resource.' },
  key_restricted: { status: 403, message: 'This key is restricted: it may not call this operation.' },
  csrf_failed: { status: 403, message: "The X-CSRF-Token header is missing or is not the session's." },
  not_found: { status: 404, message: 'Not found.' },
  payment_not_found: { status: 404, message: 'Payment not found.' },
  merchant_not_found: { status: 404, message: 'Merchant not found.' },
  option_not_found: { status: 404, message: 'Payment option not found.' },
  settlement_not_found: { status: 404, message: 'Settlement not found.' },
  refund_not_found: { status: 404, message: 'Refund not found.' },
  webhook_endpoint_not_found: { status: 404, message: 'Webhook endpoint not found.' },
  event_not_found: { status: 404, message: 'Event not found.' },
  api_key_not_found: { status: 404, message: 'API key not found.' },
  invite_not_found: { status: 404, message: 'The invitation is unknown, used or expired.' },
  method_not_allowed: { status: 405, message: 'Method not allowed on this path.' },
  idempotency_in_progress: { status: 409, message: 'A request with this Idempotency-Key is still being processed.' },
  settlement_asset_conflict: { status: 409, message: 'A settlement for this asset is already registered.' },
  invalid_state: { status: 409, message: 'The current state does not allow this.' },
  quote_expired: { status: 409, message: 'The payment option has expired; fetch options again.' },
  approval_pending: { status: 409, message: "The buyer's approve transaction to Permit2 is not mined yet; confirm again shortly." },
  transaction_not_found: { status: 409, message: "The chain's node does not know the buyer's transaction yet; confirm again shortly." },
  price_stale: { status: 409, message: "The chain's price feed has not been updated within its heartbeat: ask for options again later." },
  price_moved: { status: 409, message: 'The price moved beyond the quote tolerance since the option was quoted: ask for options again.' },
  already_refunded: { status: 409, message: 'The payment has already been refunded.' },
  refund_exceeds_payment: { status: 409, message: 'The refund is larger than what is left of the payment to refund.' },
  too_many_refunds: {
    status: 409,
    message: 'This payment has the most refunds it may take; only a refund of all that is left is accepted.',
  },
  api_key_limit: { status: 409, message: 'The account already has the maximum number of API keys not revoked (100).' },
  webhook_endpoint_limit: { status: 409, message: 'The account already has the maximum number of webhook endpoints (16).' },
  webhook_endpoint_disabled: { status: 409, message: 'The webhook endpoint is disabled.' },
  no_webhook_endpoint: { status: 409, message: 'No enabled webhook endpoint is subscribed to this event type.' },
  payment_expired: { status: 410, message: 'The payment has expired.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'Send the request body as application/json.' },
  refund_below_minimum: { status: 422, message: 'A partial refund must be at least the minimum, or refund all that is left.' },
  idempotency_conflict: { status: 422, message: 'This Idempotency-Key was used with a different request.' },
  invalid_account: { status: 422, message: 'Malformed CAIP-10 account.' },
  invalid_signature: { status: 422, message: "The signature does not recover the option's account for the offered typed data." },
  insufficient_funds: { status: 422, message: "The buyer's token balance is below the amount of this option." },
  allowance_insufficient: {
    status: 422,
    message: "The buyer's allowance to Permit2 is below the amount of this option: send the option's approve transaction first.",
  },
  authorization_used: { status: 422, message: 'This authorization was already used or cancelled on chain.' },
  authorization_expired: { status: 422, message: "This authorization's validity window has passed: ask for options again." },
  authorization_not_yet_valid: { status: 422, message: 'The authorization is not valid yet.' },
  token_refused: { status: 422, message: 'The token refuses this transfer (blacklisted account or paused token).' },
  transaction_reverted: { status: 422, message: 'The token would revert this authorization.' },
  transaction_mismatch: {
    status: 422,
    message: "The transaction is not this option's payment: its chain, sender, recipient, value or calldata differ.",
  },
  contract_wallet_not_accepted: {
    status: 422,
    message: 'Signatures of this smart-contract wallet (ERC-1271, ERC-6492) are not accepted here.',
  },
  destination_zero_address: { status: 422, message: 'A settlement destination cannot be the zero address: tokens sent there are lost.' },
  destination_token_contract: { status: 422, message: "A settlement destination cannot be the asset's own token contract." },
  destination_permit2: { status: 422, message: 'A settlement destination cannot be the Permit2 contract.' },
  destination_instance_key: {
    status: 422,
    message: "A settlement destination cannot be one of this service's own collector or relayer addresses.",
  },
  destination_blacklisted: { status: 422, message: 'The token refuses transfers to this destination (blacklisted by its issuer).' },
  chain_not_served: { status: 422, message: 'This service does not settle on that chain.' },
  asset_not_served: { status: 422, message: 'This service does not serve that asset.' },
  rate_limited: { status: 429, message: 'Too many requests.' },
  too_many_reverts: {
    status: 429,
    message:
      "Too many of this buyer's, this credential's or this account's submissions reverted on chain in the last 24 hours or are in flight; see Retry-After.",
  },
  internal_error: { status: 500, message: 'Internal error.' },
  not_implemented: { status: 501, message: 'Not implemented yet in this release.' },
  bad_gateway: { status: 502, message: 'An upstream service failed.' },
  service_unavailable: { status: 503, message: 'The service is temporarily unavailable.' },
} as const;

export type ErrorCode = keyof typeof ERRORS;

export interface Issue {
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly issues?: Issue[],
    readonly headers?: Record<string, string>,
    /** Where one code is answered with another status than the catalogue's (documented beside the code). */
    status?: number,
  ) {
    super(message ?? ERRORS[code].message);
    this.status = status ?? ERRORS[code].status;
  }
}
