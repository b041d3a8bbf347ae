# coding: utf-8

# flake8: noqa

"""
    paygate API

    paygate lets a partner account accept crypto payments on behalf of its merchants. The **merchant API** (tags Merchants, Settlements, Payments) is called by the partner's backend; the **gateway API** (tag Gateway) is called by the buyer's wallet to get payment options, sign and confirm.  ## Getting started  1. **Get a key.** The operator of this service creates your partner account and shows the API key once    (`npm run --silent admin -- accounts create --name \"Acme\"`). Send it in `Api-Key` on every request. 2. **Create a merchant** (the business that is paid):    `POST /v1/merchants` with `Idempotency-Key: <uuid>` and    `{\"merchantName\": \"Coffee Shop\", \"merchantEmail\": \"owner@coffee.example.com\"}` answers 201 with    `merchant.id` (`mrch_…`). 3. **Say where its funds settle**: `POST /v1/merchants/{merchantId}/settlements/crypto` with    `{\"settlements\": [{\"asset\": \"eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\",    \"destination\": \"eip155:8453:0x…\"}]}` (USDC on Base to the merchant's wallet). 4. **Create a payment**: `POST /v1/payments` with `Merchant-Id: mrch_…` and    `{\"referenceId\": \"order-42\", \"amount\": {\"unit\": \"iso4217/USD\", \"value\": \"1000\"}}` (USD 10.00).    The response carries `paymentId` and `gatewayUrl`, the buyer link: open it in a browser for the    hosted payment page (merchant, amount, a QR code of the link, live status), or hand it to a wallet. 5. **Follow it**: `GET /v1/payments/{id}/status?maxPollMs=25000` long-polls until the status changes;    stop when `isFinal` is true. Webhooks are the production alternative.  ```sh curl -s $BASE/v1/payments -H \"Api-Key: $KEY\" -H \"Merchant-Id: $MERCHANT\" -H 'Content-Type: application/json' \\   -d '{\"referenceId\":\"order-42\",\"amount\":{\"unit\":\"iso4217/USD\",\"value\":\"1000\"}}' ```  The wallet's side is the Gateway flow below. This reference is served by every paygate instance at `/docs/<version>` (`/docs` opens the stable version).  ## Authentication  - Merchant API: send the partner's API key in the `Api-Key` header. Payment operations also need   `Merchant-Id`, naming the merchant the request acts for. - Gateway API: send a wallet key in `Api-Key`, or identify the app with `App-Id` and `Client-Id`.   Gateway access is not scoped to an account: the payment id in the buyer link is the capability. - No or unknown key: 401. A valid key acting on another account's merchant or payment: 403.  ## Gateway flow  A wallet reads the payment (`GET /v1/gateway/payment/{id}`), asks for options with the buyer's CAIP-10 accounts, runs each option's actions (an EIP-712 `eth_signTypedData_v4` of an EIP-3009 authorization on the token: `ReceiveWithAuthorization` to this service's collector, or, for accounts in direct mode, `TransferWithAuthorization` to the merchant's settlement destination; for tokens without EIP-3009, such as USDT, a Permit2 `PermitTransferFrom` whose spender is this service's relayer, preceded, until the buyer has approved Permit2 for the token, by an `eth_sendTransaction` of that approve, whose gas the buyer pays once per token and chain), confirms with the results in the actions' order (and, above the account's threshold, the buyer's collected data), then polls the status (`maxPollMs` long-polls) until `succeeded`. Confirm checks the signature and simulates the transfer on chain first: an authorization that cannot succeed (say, `insufficient_funds`) is refused and the payment stays payable. `succeeded` is published at the chain's confirmation depth, with `info.txId`; in collector mode a settlement transfer of amount minus fee to the merchant's destination follows, shown as `settlement.successful` on the payment (and a `payment.settled` event). The buyer may cancel (`cancelled_by_user`) or decline (`failed`, `declined_user`) while the payment is `requires_action`. Without a version header, an `App-Id` caller gets the default version of the app's account.  ## Payment states  A payment starts in `requires_action` (waiting for the buyer). `succeeded`, `failed`, `expired` and `cancelled` are final: a final payment never changes again, its status has `isFinal: true` and `pollInMs: null`. Every transition is one database transaction that also emits one event.  ```text                        confirm                  chain_confirmed (create) --> requires_action ------------> processing ------------> succeeded                   |                            |                   |                            | chain_failed                   |                            v                   +--- decline --------------> failed    (failureCode declined_user)                   |                   +--- merchant_cancel, buyer_cancel ---> cancelled                   |                   +--- expire (past expiresAt) ---------> expired ```  | From | Transition | To | |---|---|---| | `requires_action` | `confirm` (gateway confirm accepted) | `processing` | | `processing` | `chain_confirmed` | `succeeded` | | `processing` | `chain_failed` | `failed` | | `requires_action` | `merchant_cancel` (`POST /v1/payments/{id}/cancel`) | `cancelled` | | `requires_action` | `buyer_cancel` (`POST /v1/gateway/payment/{id}/cancel`) | `cancelled` | | `requires_action` | `expire` (past `expiresAt`) | `expired` | | `requires_action` | `decline` (`POST /v1/gateway/payment/{id}/decline`) | `failed` |  A refund (`POST /v1/refunds`) sends the paid tokens back to the account that paid, from this service's collector, funded from the partner account's available balance there; it does not change the status of a `succeeded` payment, and once the whole payment is refunded it sets `refundedAt`.  ## Versioning  Versions are dates, chosen per request with the `PAY-Version` header (`WCP-Version` and `Api-Version` are accepted synonyms; if several are sent they must agree). Without a header the account's default version is used, pinned when the account is created. Every response echoes the version used in a `PAY-Version` header. Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`; there is no silent fallback. Paths keep `/v1/` whatever the date version.  | Version | Status | Contents | |---|---|---| | `2026-02-18` | stable | Merchants, settlements, payments, refunds, gateway. | | `2026-02-19.preview` | preview | `2026-02-18` plus optional `checkout` redirect URLs on payment creation, webhooks, partial refunds and the Refund object, and `GET /v1/balance`. A preview version must be sent on every request; it is never an account default and may still change. |  Within a version the service may add optional response fields: clients must ignore unknown fields.  Policy:  - A change that could break a client (a removed or renamed field, a new required input, a changed   meaning) is only ever released as a new dated version. Within a version only compatible additions   are made (new optional fields, new operations, new error codes). - Pin a version by sending `PAY-Version` on every request; the account default protects clients that   do not, and never moves on its own. - A `.preview` version is opt-in per request and may still change before it becomes a dated stable   version. Each preview is a compatible superset of the stable version it builds on (checked by a   diff tool in CI), so switching to it breaks nothing that works today. - Older versions keep working; retiring one is announced well in advance.  ## Errors  Every 4xx and 5xx response has the same JSON body, and every response (success too) carries a `Request-Id` header:  ```json {\"code\": \"params_validation\", \"message\": \"Request is invalid.\",  \"issues\": [{\"field\": \"/amount/value\", \"message\": \"must match pattern \\\"^[1-9][0-9]{0,30}$\\\"\"}],  \"requestId\": \"req_01JKZ3W8Q4T6N2M5B7C9D1F3GH\"} ```  Branch on `code`, never on `message`. On the operations of the hosted service's contract, the codes it documents for an operation and status are the ones answered there, and `reason` carries this service's more specific code: merchant, settlement and refund operations answer every 404 as `not_found` (`reason`: `merchant_not_found`, `settlement_not_found`, `payment_not_found`) and `invalid_params` as `params_validation`; gateway and payment operations answer an unknown option and missing buyer data as 400 `invalid_params` (`reason`: `option_not_found`, `collect_data_required`) and a malformed buyer account as 400 `params_validation` (`reason`: `invalid_account`); `idempotency_conflict` is 409 there, and a key still running is 409 `idempotency_conflict` (`reason`: `idempotency_in_progress`), except on refunds. Each operation's responses list its codes.   | Code | HTTP | Meaning | |---|---|---| | `params_validation` | 400 | The request does not match the schema; `issues` lists each problem. | | `invalid_params` | 400 | The body is not valid JSON, nests arrays and objects deeper than 32 levels, or a value is not acceptable. | | `missing_idempotency_key` | 400 | This operation requires the `Idempotency-Key` header. | | `collect_data_required` | 400 | The option needs buyer data that was not supplied. | | `payment_not_succeeded` | 400 | Only a succeeded payment can be refunded. | | `unknown_api_version` | 400 | The requested API version does not exist. | | `invalid_api_version` | 400 | The version header is malformed. | | `conflicting_api_versions` | 400 | `PAY-Version`, `WCP-Version` and `Api-Version` disagree. | | `missing_api_key` | 401 | No API key was sent. | | `invalid_api_key` | 401 | The API key is unknown or revoked. | | `invalid_token` | 401 | An operational endpoint (`/metrics` with `METRICS_TOKEN` set) needs `Authorization: Bearer <token>`. | | `session_required` | 401 | The partner dashboard's routes (`/dashboard/auth/*`, `/dashboard/api/*`, not API operations): no session cookie, or its session has expired or ended. | | `invalid_credentials` | 401 | Dashboard sign-in: the email or the password is wrong (the same answer for both). | | `totp_required` | 401 | Dashboard sign-in: this user signs in with a TOTP code too; send `totpCode`. Answered with 400 when an owner's invitation is accepted without one. | | `invalid_totp` | 401 | Dashboard sign-in or invitation: the TOTP code is wrong. | | `missing_merchant_id` | 401 | This operation requires the `Merchant-Id` header. | | `payment_required` | 402 | (Preview) `GET /v1/gateway/payment/{id}/x402`: pay over x402; the `PAYMENT-REQUIRED` header holds the payment's requirements, and its `error` why a payload was refused. | | `forbidden` | 403 | The key is valid but may not act on this account, merchant or payment. | | `key_restricted` | 403 | (Preview) The key is restricted and may not call this operation: a read-only key calls GET operations only, a key limited to merchants (`merchantIds`) only the operations naming one of them. | | `csrf_failed` | 403 | The partner dashboard: a request that changes something lacks `X-CSRF-Token`, or it is not the session's. | | `not_found` | 404 | No such route or resource. | | `payment_not_found` | 404 | No such payment. | | `merchant_not_found` | 404 | No such merchant (or it was deleted). | | `option_not_found` | 404 | No such payment option for this payment. | | `settlement_not_found` | 404 | No such crypto settlement for this merchant. | | `refund_not_found` | 404 | Preview: no such refund of this merchant. | | `webhook_endpoint_not_found` | 404 | No such webhook endpoint (or it was deleted). | | `event_not_found` | 404 | No such event. | | `api_key_not_found` | 404 | (Preview) No such API key of this account and mode. | | `invite_not_found` | 404 | The partner dashboard: the invitation is unknown, used or expired. | | `method_not_allowed` | 405 | The path exists but not with this method; see the `Allow` header. | | `idempotency_in_progress` | 409 | A request with the same `Idempotency-Key` is still running. | | `api_key_limit` | 409 | (Preview) The account has 100 API keys not revoked: revoke one first. | | `settlement_asset_conflict` | 409 | The merchant already has a settlement for this asset. | | `invalid_state` | 409 | The payment or merchant state does not allow this operation. | | `quote_expired` | 409 | The payment option expired; fetch options again. | | `approval_pending` | 409 | Confirm: the buyer's approve of Permit2 (its hash in the results) is not mined yet; confirm again after `Retry-After`. | | `transaction_not_found` | 409 | Confirm of a native-coin option: the chain's node does not know the transaction hash in the results yet (waited for a few seconds); confirm again after `Retry-After`. | | `price_stale` | 409 | Fetch of a native-coin option: the chain's price feed has not been updated within its heartbeat; ask for options again later. | | `price_moved` | 409 | Fetch of a native-coin option: the feed's price moved beyond the quote's tolerance since the option was quoted; ask for options again. | | `already_refunded` | 409 | The payment was already refunded. | | `refund_exceeds_payment` | 409 | Preview: the refund's `amount` is larger than what is left of the payment to refund (refunds not failed count). | | `too_many_refunds` | 409 | Preview: a payment takes at most 10 refunds not failed (the operator's `REFUND_MAX_PER_PAYMENT`), the last of them a refund of all that is left; a partial refund that would be the last is refused (a refund of all that is left never is). | | `webhook_endpoint_limit` | 409 | The account already has 16 webhook endpoints. | | `webhook_endpoint_disabled` | 409 | The webhook endpoint is disabled; enable it first. | | `no_webhook_endpoint` | 409 | No enabled webhook endpoint is subscribed to the event's type. | | `payment_expired` | 410 | The payment expired. | | `payload_too_large` | 413 | The request body is too large. | | `unsupported_media_type` | 415 | The request body must be `application/json`. | | `refund_below_minimum` | 422 | Preview: a partial refund's `amount` is below the minimum of its currency and chain (the message names it): the operator's floor, or what the refund's transfer costs in gas at the chain's fees now. A refund of all that is left is never refused for it. | | `idempotency_conflict` | 422 | The `Idempotency-Key` was already used with a different request (409 on the hosted contract's operations). | | `invalid_account` | 422 | A buyer account is not a valid CAIP-10 account id. | | `invalid_signature` | 422 | A signature does not verify against the option (as an EOA's, an ERC-1271 wallet's, or an ERC-6492 wallet's not deployed yet). | | `insufficient_funds` | 422 | Confirm: the buyer's token balance is below the option's amount (the payment stays payable). | | `allowance_insufficient` | 422 | Confirm: the buyer's allowance to Permit2 is below a Permit2 option's amount; send the option's approve first (the payment stays payable). | | `authorization_used` | 422 | Confirm: the authorization's nonce (or the Permit2 permit's nonce) was already used or cancelled on chain. | | `authorization_expired` | 422 | Confirm: the authorization's validity window (or the permit's deadline) has passed; fetch options again. | | `authorization_not_yet_valid` | 422 | Confirm: the authorization's `validAfter` is in the future. | | `token_refused` | 422 | Confirm: the token refuses the transfer (blacklisted account or paused token). | | `transaction_reverted` | 422 | Confirm: the token would revert the authorization for another reason. | | `transaction_mismatch` | 422 | Confirm of a native-coin option: the transaction is not the option's pay call (another chain, sender, recipient, value or calldata). | | `contract_wallet_not_accepted` | 422 | Confirm: the signer is a smart-contract wallet (ERC-1271, or ERC-6492 not deployed yet) whose signatures this service does not accept. | | `destination_zero_address` | 422 | Settlements: the destination is the zero address (tokens sent there are lost). | | `destination_token_contract` | 422 | Settlements: the destination is the asset's own token contract. | | `destination_permit2` | 422 | Settlements: the destination is the Permit2 contract. | | `destination_instance_key` | 422 | Settlements: the destination is one of this service's collector or relayer addresses. | | `destination_blacklisted` | 422 | Settlements: the token's issuer blacklists the destination, so the transfer would revert. | | `chain_not_served` | 422 | Settlements: the asset is on a chain this service does not settle on (`CHAINS`, the development chains). | | `asset_not_served` | 422 | Settlements: the asset is not one this service serves on its chain. Payment creation (409 `invalid_state`, `reason: asset_not_served`): none of the merchant's settlements in the payment's currency is on a chain that takes payments. | | `rate_limited` | 429 | Too many requests; see `Retry-After`. | | `too_many_reverts` | 429 | Confirm: too many of the buyer address's, the credential's or the account's payments' submissions reverted on chain in the last 24 hours or are still in flight; see `Retry-After`. | | `internal_error` | 500 | Unexpected server error (never carries internals). | | `not_implemented` | 501 | The operation is not implemented in this release. | | `bad_gateway` | 502 | An upstream dependency returned an invalid response. | | `service_unavailable` | 503 | A dependency (e.g. the database) is unavailable; retry later. |  New codes may be added; treat an unknown code by its HTTP status.  ## Idempotency  `POST` operations accept an `Idempotency-Key` header (1 to 255 characters, e.g. a UUID); creating a merchant and creating crypto settlements require it. Keys are retained for **24 hours**. A retry with the same key and the same request returns the stored response, with `Idempotent-Replayed: true`, and has no further effect. The same key with a different request fails with `idempotency_conflict` (409 on the hosted contract's operations, 422 on the others); while the first request is still running, with 409 `idempotency_in_progress` and `Retry-After` (on the hosted contract's operations but refunds: 409 `idempotency_conflict` with `reason: idempotency_in_progress`). Keys are scoped to the account (gateway callers: to the calling key or app). After 24 hours a key is forgotten and may be reused for a new request.  ## Webhooks (2026-02-19.preview)  The preview version adds webhook endpoints (`/v1/webhook-endpoints`) and the events API (`/v1/events`). Every change of a payment writes one event in the same transaction; each event is POSTed to every enabled endpoint subscribed to its type, at least once, retried with exponential backoff and jitter for up to 3 days. Deliveries follow Standard Webhooks: `webhook-id` (the event id, the same on every retry), `webhook-timestamp`, and `webhook-signature` = `v1,` + base64 HMAC-SHA256 of `id.timestamp.rawBody` keyed with the base64-decoded part of the `whsec_` secret (two signatures while a rotated secret overlaps). Verify the raw body as received, and keep the highest `data.payment.version` applied per payment: events can arrive late or twice. Only a 2xx answer within the timeout counts; an endpoint that fails every attempt for 3 days is disabled with the reason recorded.  ## Pagination  Lists are cursor-based and ordered newest first (ties broken by id). Pass `limit` for the page size and, for the next page, the previous response's `nextCursor` as `cursor`; `nextCursor` is null on the last page. Cursors are opaque and stay valid while new items are inserted.  ## Money  Amounts are strings of integers in the smallest unit, never floats: fiat in minor units (`{\"unit\": \"iso4217/USD\", \"value\": \"1000\"}` is USD 10.00), tokens in their smallest unit (`{\"unit\": \"caip19/eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\", \"value\": \"10000000\"}` is 10 USDC on Base). Assets are CAIP-19 ids, accounts CAIP-10, chains CAIP-2. The payment lists' stats are the exception the hosted contract imposes: their revenue is a JSON number in the currency's major unit (`40.5` is USD 40.50), written exactly from the integer minor units, and the deprecated list's `fiat_amount` a JSON integer. 

    The version of the OpenAPI document: 2026-02-19.preview
    Generated by OpenAPI Generator (https://openapi-generator.tech)

    Do not edit the class manually.
"""  # noqa: E501


__version__ = "0.1.0b20260219"

# Define package exports
__all__ = [
    "APIKeysApi",
    "AccountApi",
    "BalanceApi",
    "GatewayApi",
    "MerchantsApi",
    "PaymentsApi",
    "SettlementsApi",
    "TestHelpersApi",
    "WebhooksApi",
    "X402Api",
    "ApiResponse",
    "ApiClient",
    "Configuration",
    "OpenApiException",
    "ApiTypeError",
    "ApiValueError",
    "ApiKeyError",
    "ApiAttributeError",
    "ApiException",
    "AccountSettingsResponse",
    "AccountSettingsResponseSettings",
    "Action",
    "ActionResult",
    "ApiError",
    "ApiKey",
    "ApiKeyResponse",
    "ApiKeyWithSecretResponse",
    "AssetDisplay",
    "AuditEvent",
    "AuditEventActor",
    "Balance",
    "BalanceResponse",
    "BalanceTransaction",
    "BuildAction",
    "BuildActionData",
    "Buyer",
    "CancelPaymentResponse",
    "Checkout",
    "CollectData",
    "CollectDataFieldsInner",
    "CollectedData",
    "CollectedDataFields",
    "CollectedDataFieldsFieldsInner",
    "CollectedDataFieldsFieldsInnerValue",
    "ConfirmPaymentRequest",
    "CreateApiKeyRequest",
    "CreateCryptoSettlementsRequest",
    "CreateCryptoSettlementsResponse",
    "CreateMerchantRequest",
    "CreateMerchantResponse",
    "CreatePaymentRequest",
    "CreatePaymentResponse",
    "CreateRefundRequest",
    "CreateRefundResponse",
    "CreateWebhookEndpointRequest",
    "CreatedMerchant",
    "CryptoSettlement",
    "CryptoSettlementInput",
    "DeletedResponse",
    "DisplayAmount",
    "ErrorIssuesInner",
    "EventAttemptsResponse",
    "EventResponse",
    "FailureCode",
    "FetchActionsRequest",
    "FetchActionsResponse",
    "FiatAmount",
    "FiatDisplayAmount",
    "FiatSettlement",
    "GatewayPayment",
    "GatewayPaymentMerchant",
    "LegacyListPaymentsResponse",
    "LegacyListPaymentsResponseStats",
    "LegacyListPaymentsResponseStatsTotalRevenue",
    "LegacyPaymentListItem",
    "ListApiKeysResponse",
    "ListAuditEventsResponse",
    "ListBalanceTransactionsResponse",
    "ListEventsResponse",
    "ListMerchantPaymentsStartTsParameter",
    "ListMerchantsResponse",
    "ListPaymentsResponse",
    "ListRefundsResponse",
    "ListWebhookEndpointsResponse",
    "Merchant",
    "MerchantDetailsResponse",
    "MerchantResponse",
    "MerchantSettlements",
    "MerchantStatus",
    "MerchantWithSettlements",
    "PaymentDetails",
    "PaymentDetailsRefundedAmount",
    "PaymentEventSnapshot",
    "PaymentEventSnapshotTokenAmount",
    "PaymentInfo",
    "PaymentListItem",
    "PaymentListItemBuyer",
    "PaymentListItemFees",
    "PaymentListItemMerchant",
    "PaymentListItemSettlement",
    "PaymentListItemTransaction",
    "PaymentOption",
    "PaymentOptionsRequest",
    "PaymentOptionsResponse",
    "PaymentSettlement",
    "PaymentSettlementFailed",
    "PaymentSettlementPending",
    "PaymentSettlementSuccessful",
    "PaymentSettlementSuccessfulAmount",
    "PaymentStats",
    "PaymentStatsTotalRevenueInner",
    "PaymentStatus",
    "PaymentStatusResponse",
    "RedeliverEventRequest",
    "RedeliverEventResponse",
    "Refund",
    "RefundFundingInstructions",
    "RefundReserve",
    "RefundResponse",
    "RefundTokenAmount",
    "RotateWebhookSecretRequest",
    "TestBlacklistRequest",
    "TestBlacklistResponse",
    "TestBlacklistTransaction",
    "TestUnblacklistResponse",
    "TokenAmount",
    "UpdateAccountSettingsRequest",
    "UpdateAccountSettingsRequestRefundReserve",
    "UpdateCryptoSettlementRequest",
    "UpdateMerchantRequest",
    "UpdateWebhookEndpointRequest",
    "WalletRpcAction",
    "WalletRpcActionData",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookEndpoint",
    "WebhookEndpointResponse",
    "WebhookEndpointWithSecretResponse",
    "WebhookEvent",
    "WebhookEventData",
    "WebhookEventType",
    "WebhookPayloadFormat",
    "X402AccountSettings",
    "X402FacilitatorRequest",
    "X402PaymentPayload",
    "X402PaymentPayloadResource",
    "X402PaymentRequirements",
    "X402SettleResponse",
    "X402SupportedResponse",
    "X402SupportedResponseKindsInner",
    "X402VerifyResponse",
]

# import apis into sdk package
from paygate_client.api.api_keys_api import APIKeysApi as APIKeysApi
from paygate_client.api.account_api import AccountApi as AccountApi
from paygate_client.api.balance_api import BalanceApi as BalanceApi
from paygate_client.api.gateway_api import GatewayApi as GatewayApi
from paygate_client.api.merchants_api import MerchantsApi as MerchantsApi
from paygate_client.api.payments_api import PaymentsApi as PaymentsApi
from paygate_client.api.settlements_api import SettlementsApi as SettlementsApi
from paygate_client.api.test_helpers_api import TestHelpersApi as TestHelpersApi
from paygate_client.api.webhooks_api import WebhooksApi as WebhooksApi
from paygate_client.api.x402_api import X402Api as X402Api

# import ApiClient
from paygate_client.api_response import ApiResponse as ApiResponse
from paygate_client.api_client import ApiClient as ApiClient
from paygate_client.configuration import Configuration as Configuration
from paygate_client.exceptions import OpenApiException as OpenApiException
from paygate_client.exceptions import ApiTypeError as ApiTypeError
from paygate_client.exceptions import ApiValueError as ApiValueError
from paygate_client.exceptions import ApiKeyError as ApiKeyError
from paygate_client.exceptions import ApiAttributeError as ApiAttributeError
from paygate_client.exceptions import ApiException as ApiException

# import models into sdk package
from paygate_client.models.account_settings_response import AccountSettingsResponse as AccountSettingsResponse
from paygate_client.models.account_settings_response_settings import AccountSettingsResponseSettings as AccountSettingsResponseSettings
from paygate_client.models.action import Action as Action
from paygate_client.models.action_result import ActionResult as ActionResult
from paygate_client.models.api_error import ApiError as ApiError
from paygate_client.models.api_key import ApiKey as ApiKey
from paygate_client.models.api_key_response import ApiKeyResponse as ApiKeyResponse
from paygate_client.models.api_key_with_secret_response import ApiKeyWithSecretResponse as ApiKeyWithSecretResponse
from paygate_client.models.asset_display import AssetDisplay as AssetDisplay
from paygate_client.models.audit_event import AuditEvent as AuditEvent
from paygate_client.models.audit_event_actor import AuditEventActor as AuditEventActor
from paygate_client.models.balance import Balance as Balance
from paygate_client.models.balance_response import BalanceResponse as BalanceResponse
from paygate_client.models.balance_transaction import BalanceTransaction as BalanceTransaction
from paygate_client.models.build_action import BuildAction as BuildAction
from paygate_client.models.build_action_data import BuildActionData as BuildActionData
from paygate_client.models.buyer import Buyer as Buyer
from paygate_client.models.cancel_payment_response import CancelPaymentResponse as CancelPaymentResponse
from paygate_client.models.checkout import Checkout as Checkout
from paygate_client.models.collect_data import CollectData as CollectData
from paygate_client.models.collect_data_fields_inner import CollectDataFieldsInner as CollectDataFieldsInner
from paygate_client.models.collected_data import CollectedData as CollectedData
from paygate_client.models.collected_data_fields import CollectedDataFields as CollectedDataFields
from paygate_client.models.collected_data_fields_fields_inner import CollectedDataFieldsFieldsInner as CollectedDataFieldsFieldsInner
from paygate_client.models.collected_data_fields_fields_inner_value import CollectedDataFieldsFieldsInnerValue as CollectedDataFieldsFieldsInnerValue
from paygate_client.models.confirm_payment_request import ConfirmPaymentRequest as ConfirmPaymentRequest
from paygate_client.models.create_api_key_request import CreateApiKeyRequest as CreateApiKeyRequest
from paygate_client.models.create_crypto_settlements_request import CreateCryptoSettlementsRequest as CreateCryptoSettlementsRequest
from paygate_client.models.create_crypto_settlements_response import CreateCryptoSettlementsResponse as CreateCryptoSettlementsResponse
from paygate_client.models.create_merchant_request import CreateMerchantRequest as CreateMerchantRequest
from paygate_client.models.create_merchant_response import CreateMerchantResponse as CreateMerchantResponse
from paygate_client.models.create_payment_request import CreatePaymentRequest as CreatePaymentRequest
from paygate_client.models.create_payment_response import CreatePaymentResponse as CreatePaymentResponse
from paygate_client.models.create_refund_request import CreateRefundRequest as CreateRefundRequest
from paygate_client.models.create_refund_response import CreateRefundResponse as CreateRefundResponse
from paygate_client.models.create_webhook_endpoint_request import CreateWebhookEndpointRequest as CreateWebhookEndpointRequest
from paygate_client.models.created_merchant import CreatedMerchant as CreatedMerchant
from paygate_client.models.crypto_settlement import CryptoSettlement as CryptoSettlement
from paygate_client.models.crypto_settlement_input import CryptoSettlementInput as CryptoSettlementInput
from paygate_client.models.deleted_response import DeletedResponse as DeletedResponse
from paygate_client.models.display_amount import DisplayAmount as DisplayAmount
from paygate_client.models.error_issues_inner import ErrorIssuesInner as ErrorIssuesInner
from paygate_client.models.event_attempts_response import EventAttemptsResponse as EventAttemptsResponse
from paygate_client.models.event_response import EventResponse as EventResponse
from paygate_client.models.failure_code import FailureCode as FailureCode
from paygate_client.models.fetch_actions_request import FetchActionsRequest as FetchActionsRequest
from paygate_client.models.fetch_actions_response import FetchActionsResponse as FetchActionsResponse
from paygate_client.models.fiat_amount import FiatAmount as FiatAmount
from paygate_client.models.fiat_display_amount import FiatDisplayAmount as FiatDisplayAmount
from paygate_client.models.fiat_settlement import FiatSettlement as FiatSettlement
from paygate_client.models.gateway_payment import GatewayPayment as GatewayPayment
from paygate_client.models.gateway_payment_merchant import GatewayPaymentMerchant as GatewayPaymentMerchant
from paygate_client.models.legacy_list_payments_response import LegacyListPaymentsResponse as LegacyListPaymentsResponse
from paygate_client.models.legacy_list_payments_response_stats import LegacyListPaymentsResponseStats as LegacyListPaymentsResponseStats
from paygate_client.models.legacy_list_payments_response_stats_total_revenue import LegacyListPaymentsResponseStatsTotalRevenue as LegacyListPaymentsResponseStatsTotalRevenue
from paygate_client.models.legacy_payment_list_item import LegacyPaymentListItem as LegacyPaymentListItem
from paygate_client.models.list_api_keys_response import ListApiKeysResponse as ListApiKeysResponse
from paygate_client.models.list_audit_events_response import ListAuditEventsResponse as ListAuditEventsResponse
from paygate_client.models.list_balance_transactions_response import ListBalanceTransactionsResponse as ListBalanceTransactionsResponse
from paygate_client.models.list_events_response import ListEventsResponse as ListEventsResponse
from paygate_client.models.list_merchant_payments_start_ts_parameter import ListMerchantPaymentsStartTsParameter as ListMerchantPaymentsStartTsParameter
from paygate_client.models.list_merchants_response import ListMerchantsResponse as ListMerchantsResponse
from paygate_client.models.list_payments_response import ListPaymentsResponse as ListPaymentsResponse
from paygate_client.models.list_refunds_response import ListRefundsResponse as ListRefundsResponse
from paygate_client.models.list_webhook_endpoints_response import ListWebhookEndpointsResponse as ListWebhookEndpointsResponse
from paygate_client.models.merchant import Merchant as Merchant
from paygate_client.models.merchant_details_response import MerchantDetailsResponse as MerchantDetailsResponse
from paygate_client.models.merchant_response import MerchantResponse as MerchantResponse
from paygate_client.models.merchant_settlements import MerchantSettlements as MerchantSettlements
from paygate_client.models.merchant_status import MerchantStatus as MerchantStatus
from paygate_client.models.merchant_with_settlements import MerchantWithSettlements as MerchantWithSettlements
from paygate_client.models.payment_details import PaymentDetails as PaymentDetails
from paygate_client.models.payment_details_refunded_amount import PaymentDetailsRefundedAmount as PaymentDetailsRefundedAmount
from paygate_client.models.payment_event_snapshot import PaymentEventSnapshot as PaymentEventSnapshot
from paygate_client.models.payment_event_snapshot_token_amount import PaymentEventSnapshotTokenAmount as PaymentEventSnapshotTokenAmount
from paygate_client.models.payment_info import PaymentInfo as PaymentInfo
from paygate_client.models.payment_list_item import PaymentListItem as PaymentListItem
from paygate_client.models.payment_list_item_buyer import PaymentListItemBuyer as PaymentListItemBuyer
from paygate_client.models.payment_list_item_fees import PaymentListItemFees as PaymentListItemFees
from paygate_client.models.payment_list_item_merchant import PaymentListItemMerchant as PaymentListItemMerchant
from paygate_client.models.payment_list_item_settlement import PaymentListItemSettlement as PaymentListItemSettlement
from paygate_client.models.payment_list_item_transaction import PaymentListItemTransaction as PaymentListItemTransaction
from paygate_client.models.payment_option import PaymentOption as PaymentOption
from paygate_client.models.payment_options_request import PaymentOptionsRequest as PaymentOptionsRequest
from paygate_client.models.payment_options_response import PaymentOptionsResponse as PaymentOptionsResponse
from paygate_client.models.payment_settlement import PaymentSettlement as PaymentSettlement
from paygate_client.models.payment_settlement_failed import PaymentSettlementFailed as PaymentSettlementFailed
from paygate_client.models.payment_settlement_pending import PaymentSettlementPending as PaymentSettlementPending
from paygate_client.models.payment_settlement_successful import PaymentSettlementSuccessful as PaymentSettlementSuccessful
from paygate_client.models.payment_settlement_successful_amount import PaymentSettlementSuccessfulAmount as PaymentSettlementSuccessfulAmount
from paygate_client.models.payment_stats import PaymentStats as PaymentStats
from paygate_client.models.payment_stats_total_revenue_inner import PaymentStatsTotalRevenueInner as PaymentStatsTotalRevenueInner
from paygate_client.models.payment_status import PaymentStatus as PaymentStatus
from paygate_client.models.payment_status_response import PaymentStatusResponse as PaymentStatusResponse
from paygate_client.models.redeliver_event_request import RedeliverEventRequest as RedeliverEventRequest
from paygate_client.models.redeliver_event_response import RedeliverEventResponse as RedeliverEventResponse
from paygate_client.models.refund import Refund as Refund
from paygate_client.models.refund_funding_instructions import RefundFundingInstructions as RefundFundingInstructions
from paygate_client.models.refund_reserve import RefundReserve as RefundReserve
from paygate_client.models.refund_response import RefundResponse as RefundResponse
from paygate_client.models.refund_token_amount import RefundTokenAmount as RefundTokenAmount
from paygate_client.models.rotate_webhook_secret_request import RotateWebhookSecretRequest as RotateWebhookSecretRequest
from paygate_client.models.test_blacklist_request import TestBlacklistRequest as TestBlacklistRequest
from paygate_client.models.test_blacklist_response import TestBlacklistResponse as TestBlacklistResponse
from paygate_client.models.test_blacklist_transaction import TestBlacklistTransaction as TestBlacklistTransaction
from paygate_client.models.test_unblacklist_response import TestUnblacklistResponse as TestUnblacklistResponse
from paygate_client.models.token_amount import TokenAmount as TokenAmount
from paygate_client.models.update_account_settings_request import UpdateAccountSettingsRequest as UpdateAccountSettingsRequest
from paygate_client.models.update_account_settings_request_refund_reserve import UpdateAccountSettingsRequestRefundReserve as UpdateAccountSettingsRequestRefundReserve
from paygate_client.models.update_crypto_settlement_request import UpdateCryptoSettlementRequest as UpdateCryptoSettlementRequest
from paygate_client.models.update_merchant_request import UpdateMerchantRequest as UpdateMerchantRequest
from paygate_client.models.update_webhook_endpoint_request import UpdateWebhookEndpointRequest as UpdateWebhookEndpointRequest
from paygate_client.models.wallet_rpc_action import WalletRpcAction as WalletRpcAction
from paygate_client.models.wallet_rpc_action_data import WalletRpcActionData as WalletRpcActionData
from paygate_client.models.webhook_attempt import WebhookAttempt as WebhookAttempt
from paygate_client.models.webhook_delivery import WebhookDelivery as WebhookDelivery
from paygate_client.models.webhook_endpoint import WebhookEndpoint as WebhookEndpoint
from paygate_client.models.webhook_endpoint_response import WebhookEndpointResponse as WebhookEndpointResponse
from paygate_client.models.webhook_endpoint_with_secret_response import WebhookEndpointWithSecretResponse as WebhookEndpointWithSecretResponse
from paygate_client.models.webhook_event import WebhookEvent as WebhookEvent
from paygate_client.models.webhook_event_data import WebhookEventData as WebhookEventData
from paygate_client.models.webhook_event_type import WebhookEventType as WebhookEventType
from paygate_client.models.webhook_payload_format import WebhookPayloadFormat as WebhookPayloadFormat
from paygate_client.models.x402_account_settings import X402AccountSettings as X402AccountSettings
from paygate_client.models.x402_facilitator_request import X402FacilitatorRequest as X402FacilitatorRequest
from paygate_client.models.x402_payment_payload import X402PaymentPayload as X402PaymentPayload
from paygate_client.models.x402_payment_payload_resource import X402PaymentPayloadResource as X402PaymentPayloadResource
from paygate_client.models.x402_payment_requirements import X402PaymentRequirements as X402PaymentRequirements
from paygate_client.models.x402_settle_response import X402SettleResponse as X402SettleResponse
from paygate_client.models.x402_supported_response import X402SupportedResponse as X402SupportedResponse
from paygate_client.models.x402_supported_response_kinds_inner import X402SupportedResponseKindsInner as X402SupportedResponseKindsInner
from paygate_client.models.x402_verify_response import X402VerifyResponse as X402VerifyResponse

