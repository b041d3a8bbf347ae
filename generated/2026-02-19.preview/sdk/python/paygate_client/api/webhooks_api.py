"""
    paygate API

    paygate lets a partner account accept crypto payments on behalf of its merchants. The **merchant API** (tags Merchants, Settlements, Payments) is called by the partner's backend; the **gateway API** (tag Gateway) is called by the buyer's wallet to get payment options, sign and confirm.  ## Getting started  1. **Get a key.** The operator of this service creates your partner account and shows the API key once    (`npm run --silent admin -- accounts create --name \"Acme\"`). Send it in `Api-Key` on every request. 2. **Create a merchant** (the business that is paid):    `POST /v1/merchants` with `Idempotency-Key: <uuid>` and    `{\"merchantName\": \"Coffee Shop\", \"merchantEmail\": \"owner@coffee.example.com\"}` answers 201 with    `merchant.id` (`mrch_…`). 3. **Say where its funds settle**: `POST /v1/merchants/{merchantId}/settlements/crypto` with    `{\"settlements\": [{\"asset\": \"eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\",    \"destination\": \"eip155:8453:0x…\"}]}` (USDC on Base to the merchant's wallet). 4. **Create a payment**: `POST /v1/payments` with `Merchant-Id: mrch_…` and    `{\"referenceId\": \"order-42\", \"amount\": {\"unit\": \"iso4217/USD\", \"value\": \"1000\"}}` (USD 10.00).    The response carries `paymentId` and `gatewayUrl`, the buyer link: open it in a browser for the    hosted payment page (merchant, amount, a QR code of the link, live status), or hand it to a wallet. 5. **Follow it**: `GET /v1/payments/{id}/status?maxPollMs=25000` long-polls until the status changes;    stop when `isFinal` is true. Webhooks are the production alternative.  ```sh curl -s $BASE/v1/payments -H \"Api-Key: $KEY\" -H \"Merchant-Id: $MERCHANT\" -H 'Content-Type: application/json' \\   -d '{\"referenceId\":\"order-42\",\"amount\":{\"unit\":\"iso4217/USD\",\"value\":\"1000\"}}' ```  The wallet's side is the Gateway flow below. This reference is served by every paygate instance at `/docs/<version>` (`/docs` opens the stable version).  ## Authentication  - Merchant API: send the partner's API key in the `Api-Key` header. Payment operations also need   `Merchant-Id`, naming the merchant the request acts for. - Gateway API: send a wallet key in `Api-Key`, or identify the app with `App-Id` and `Client-Id`.   Gateway access is not scoped to an account: the payment id in the buyer link is the capability. - No or unknown key: 401. A valid key acting on another account's merchant or payment: 403.  ## Gateway flow  A wallet reads the payment (`GET /v1/gateway/payment/{id}`), asks for options with the buyer's CAIP-10 accounts, runs each option's actions (an EIP-712 `eth_signTypedData_v4` of an EIP-3009 authorization on the token: `ReceiveWithAuthorization` to this service's collector, or, for accounts in direct mode, `TransferWithAuthorization` to the merchant's settlement destination; for tokens without EIP-3009, such as USDT, a Permit2 `PermitTransferFrom` whose spender is this service's relayer, preceded, until the buyer has approved Permit2 for the token, by an `eth_sendTransaction` of that approve, whose gas the buyer pays once per token and chain), confirms with the results in the actions' order (and, above the account's threshold, the buyer's collected data), then polls the status (`maxPollMs` long-polls) until `succeeded`. Confirm checks the signature and simulates the transfer on chain first: an authorization that cannot succeed (say, `insufficient_funds`) is refused and the payment stays payable. `succeeded` is published at the chain's confirmation depth, with `info.txId`; in collector mode a settlement transfer of amount minus fee to the merchant's destination follows, shown as `settlement.successful` on the payment (and a `payment.settled` event). The buyer may cancel (`cancelled_by_user`) or decline (`failed`, `declined_user`) while the payment is `requires_action`. Without a version header, an `App-Id` caller gets the default version of the app's account.  ## Payment states  A payment starts in `requires_action` (waiting for the buyer). `succeeded`, `failed`, `expired` and `cancelled` are final: a final payment never changes again, its status has `isFinal: true` and `pollInMs: null`. Every transition is one database transaction that also emits one event.  ```text                        confirm                  chain_confirmed (create) --> requires_action ------------> processing ------------> succeeded                   |                            |                   |                            | chain_failed                   |                            v                   +--- decline --------------> failed    (failureCode declined_user)                   |                   +--- merchant_cancel, buyer_cancel ---> cancelled                   |                   +--- expire (past expiresAt) ---------> expired ```  | From | Transition | To | |---|---|---| | `requires_action` | `confirm` (gateway confirm accepted) | `processing` | | `processing` | `chain_confirmed` | `succeeded` | | `processing` | `chain_failed` | `failed` | | `requires_action` | `merchant_cancel` (`POST /v1/payments/{id}/cancel`) | `cancelled` | | `requires_action` | `buyer_cancel` (`POST /v1/gateway/payment/{id}/cancel`) | `cancelled` | | `requires_action` | `expire` (past `expiresAt`) | `expired` | | `requires_action` | `decline` (`POST /v1/gateway/payment/{id}/decline`) | `failed` |  A refund (`POST /v1/refunds`) sends the paid tokens back to the account that paid, from this service's collector, funded from the partner account's available balance there; it does not change the status of a `succeeded` payment, and once the whole payment is refunded it sets `refundedAt`.  ## Versioning  Versions are dates, chosen per request with the `PAY-Version` header (`WCP-Version` and `Api-Version` are accepted synonyms; if several are sent they must agree). Without a header the account's default version is used, pinned when the account is created. Every response echoes the version used in a `PAY-Version` header. Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`; there is no silent fallback. Paths keep `/v1/` whatever the date version.  | Version | Status | Contents | |---|---|---| | `2026-02-18` | stable | Merchants, settlements, payments, refunds, gateway. | | `2026-02-19.preview` | preview | `2026-02-18` plus optional `checkout` redirect URLs on payment creation, webhooks, partial refunds and the Refund object, and `GET /v1/balance`. A preview version must be sent on every request; it is never an account default and may still change. |  Within a version the service may add optional response fields: clients must ignore unknown fields.  Policy:  - A change that could break a client (a removed or renamed field, a new required input, a changed   meaning) is only ever released as a new dated version. Within a version only compatible additions   are made (new optional fields, new operations, new error codes). - Pin a version by sending `PAY-Version` on every request; the account default protects clients that   do not, and never moves on its own. - A `.preview` version is opt-in per request and may still change before it becomes a dated stable   version. Each preview is a compatible superset of the stable version it builds on (checked by a   diff tool in CI), so switching to it breaks nothing that works today. - Older versions keep working; retiring one is announced well in advance.  ## Errors  Every 4xx and 5xx response has the same JSON body, and every response (success too) carries a `Request-Id` header:  ```json {\"code\": \"params_validation\", \"message\": \"Request is invalid.\",  \"issues\": [{\"field\": \"/amount/value\", \"message\": \"must match pattern \\\"^[1-9][0-9]{0,30}$\\\"\"}],  \"requestId\": \"req_01JKZ3W8Q4T6N2M5B7C9D1F3GH\"} ```  Branch on `code`, never on `message`. On the operations of the hosted service's contract, the codes it documents for an operation and status are the ones answered there, and `reason` carries this service's more specific code: merchant, settlement and refund operations answer every 404 as `not_found` (`reason`: `merchant_not_found`, `settlement_not_found`, `payment_not_found`) and `invalid_params` as `params_validation`; gateway and payment operations answer an unknown option and missing buyer data as 400 `invalid_params` (`reason`: `option_not_found`, `collect_data_required`) and a malformed buyer account as 400 `params_validation` (`reason`: `invalid_account`); `idempotency_conflict` is 409 there, and a key still running is 409 `idempotency_conflict` (`reason`: `idempotency_in_progress`), except on refunds. Each operation's responses list its codes.   | Code | HTTP | Meaning | |---|---|---| | `params_validation` | 400 | The request does not match the schema; `issues` lists each problem. | | `invalid_params` | 400 | The body is not valid JSON, nests arrays and objects deeper than 32 levels, or a value is not acceptable. | | `missing_idempotency_key` | 400 | This operation requires the `Idempotency-Key` header. | | `collect_data_required` | 400 | The option needs buyer data that was not supplied. | | `payment_not_succeeded` | 400 | Only a succeeded payment can be refunded. | | `unknown_api_version` | 400 | The requested API version does not exist. | | `invalid_api_version` | 400 | The version header is malformed. | | `conflicting_api_versions` | 400 | `PAY-Version`, `WCP-Version` and `Api-Version` disagree. | | `missing_api_key` | 401 | No API key was sent. | | `invalid_api_key` | 401 | The API key is unknown or revoked. | | `invalid_token` | 401 | An operational endpoint (`/metrics` with `METRICS_TOKEN` set) needs `Authorization: Bearer <token>`. | | `session_required` | 401 | The partner dashboard's routes (`/dashboard/auth/*`, `/dashboard/api/*`, not API operations): no session cookie, or its session has expired or ended. | | `invalid_credentials` | 401 | Dashboard sign-in: the email or the password is wrong (the same answer for both). | | `totp_required` | 401 | Dashboard sign-in: this user signs in with a TOTP code too; send `totpCode`. Answered with 400 when an owner's invitation is accepted without one. | | `invalid_totp` | 401 | Dashboard sign-in or invitation: the TOTP code is wrong. | | `missing_merchant_id` | 401 | This operation requires the `Merchant-Id` header. | | `payment_required` | 402 | (Preview) `GET /v1/gateway/payment/{id}/x402`: pay over x402; the `PAYMENT-REQUIRED` header holds the payment's requirements, and its `error` why a payload was refused. | | `forbidden` | 403 | The key is valid but may not act on this account, merchant or payment. | | `key_restricted` | 403 | (Preview) The key is restricted and may not call this operation: a read-only key calls GET operations only, a key limited to merchants (`merchantIds`) only the operations naming one of them. | | `csrf_failed` | 403 | The partner dashboard: a request that changes something lacks `X-CSRF-Token`, or it is not the session's. | | `not_found` | 404 | No such route or resource. | | `payment_not_found` | 404 | No such payment. | | `merchant_not_found` | 404 | No such merchant (or it was deleted). | | `option_not_found` | 404 | No such payment option for this payment. | | `settlement_not_found` | 404 | No such crypto settlement for this merchant. | | `refund_not_found` | 404 | Preview: no such refund of this merchant. | | `webhook_endpoint_not_found` | 404 | No such webhook endpoint (or it was deleted). | | `event_not_found` | 404 | No such event. | | `api_key_not_found` | 404 | (Preview) No such API key of this account and mode. | | `invite_not_found` | 404 | The partner dashboard: the invitation is unknown, used or expired. | | `method_not_allowed` | 405 | The path exists but not with this method; see the `Allow` header. | | `idempotency_in_progress` | 409 | A request with the same `Idempotency-Key` is still running. | | `api_key_limit` | 409 | (Preview) The account has 100 API keys not revoked: revoke one first. | | `settlement_asset_conflict` | 409 | The merchant already has a settlement for this asset. | | `invalid_state` | 409 | The payment or merchant state does not allow this operation. | | `quote_expired` | 409 | The payment option expired; fetch options again. | | `approval_pending` | 409 | Confirm: the buyer's approve of Permit2 (its hash in the results) is not mined yet; confirm again after `Retry-After`. | | `transaction_not_found` | 409 | Confirm of a native-coin option: the chain's node does not know the transaction hash in the results yet (waited for a few seconds); confirm again after `Retry-After`. | | `price_stale` | 409 | Fetch of a native-coin option: the chain's price feed has not been updated within its heartbeat; ask for options again later. | | `price_moved` | 409 | Fetch of a native-coin option: the feed's price moved beyond the quote's tolerance since the option was quoted; ask for options again. | | `already_refunded` | 409 | The payment was already refunded. | | `refund_exceeds_payment` | 409 | Preview: the refund's `amount` is larger than what is left of the payment to refund (refunds not failed count). | | `too_many_refunds` | 409 | Preview: a payment takes at most 10 refunds not failed (the operator's `REFUND_MAX_PER_PAYMENT`), the last of them a refund of all that is left; a partial refund that would be the last is refused (a refund of all that is left never is). | | `webhook_endpoint_limit` | 409 | The account already has 16 webhook endpoints. | | `webhook_endpoint_disabled` | 409 | The webhook endpoint is disabled; enable it first. | | `no_webhook_endpoint` | 409 | No enabled webhook endpoint is subscribed to the event's type. | | `payment_expired` | 410 | The payment expired. | | `payload_too_large` | 413 | The request body is too large. | | `unsupported_media_type` | 415 | The request body must be `application/json`. | | `refund_below_minimum` | 422 | Preview: a partial refund's `amount` is below the minimum of its currency and chain (the message names it): the operator's floor, or what the refund's transfer costs in gas at the chain's fees now. A refund of all that is left is never refused for it. | | `idempotency_conflict` | 422 | The `Idempotency-Key` was already used with a different request (409 on the hosted contract's operations). | | `invalid_account` | 422 | A buyer account is not a valid CAIP-10 account id. | | `invalid_signature` | 422 | A signature does not verify against the option (as an EOA's, an ERC-1271 wallet's, or an ERC-6492 wallet's not deployed yet). | | `insufficient_funds` | 422 | Confirm: the buyer's token balance is below the option's amount (the payment stays payable). | | `allowance_insufficient` | 422 | Confirm: the buyer's allowance to Permit2 is below a Permit2 option's amount; send the option's approve first (the payment stays payable). | | `authorization_used` | 422 | Confirm: the authorization's nonce (or the Permit2 permit's nonce) was already used or cancelled on chain. | | `authorization_expired` | 422 | Confirm: the authorization's validity window (or the permit's deadline) has passed; fetch options again. | | `authorization_not_yet_valid` | 422 | Confirm: the authorization's `validAfter` is in the future. | | `token_refused` | 422 | Confirm: the token refuses the transfer (blacklisted account or paused token). | | `transaction_reverted` | 422 | Confirm: the token would revert the authorization for another reason. | | `transaction_mismatch` | 422 | Confirm of a native-coin option: the transaction is not the option's pay call (another chain, sender, recipient, value or calldata). | | `contract_wallet_not_accepted` | 422 | Confirm: the signer is a smart-contract wallet (ERC-1271, or ERC-6492 not deployed yet) whose signatures this service does not accept. | | `destination_zero_address` | 422 | Settlements: the destination is the zero address (tokens sent there are lost). | | `destination_token_contract` | 422 | Settlements: the destination is the asset's own token contract. | | `destination_permit2` | 422 | Settlements: the destination is the Permit2 contract. | | `destination_instance_key` | 422 | Settlements: the destination is one of this service's collector or relayer addresses. | | `destination_blacklisted` | 422 | Settlements: the token's issuer blacklists the destination, so the transfer would revert. | | `chain_not_served` | 422 | Settlements: the asset is on a chain this service does not settle on (`CHAINS`, the development chains). | | `asset_not_served` | 422 | Settlements: the asset is not one this service serves on its chain. Payment creation (409 `invalid_state`, `reason: asset_not_served`): none of the merchant's settlements in the payment's currency is on a chain that takes payments. | | `rate_limited` | 429 | Too many requests; see `Retry-After`. | | `too_many_reverts` | 429 | Confirm: too many of the buyer address's, the credential's or the account's payments' submissions reverted on chain in the last 24 hours or are still in flight; see `Retry-After`. | | `internal_error` | 500 | Unexpected server error (never carries internals). | | `not_implemented` | 501 | The operation is not implemented in this release. | | `bad_gateway` | 502 | An upstream dependency returned an invalid response. | | `service_unavailable` | 503 | A dependency (e.g. the database) is unavailable; retry later. |  New codes may be added; treat an unknown code by its HTTP status.  ## Idempotency  `POST` operations accept an `Idempotency-Key` header (1 to 255 characters, e.g. a UUID); creating a merchant and creating crypto settlements require it. Keys are retained for **24 hours**. A retry with the same key and the same request returns the stored response, with `Idempotent-Replayed: true`, and has no further effect. The same key with a different request fails with `idempotency_conflict` (409 on the hosted contract's operations, 422 on the others); while the first request is still running, with 409 `idempotency_in_progress` and `Retry-After` (on the hosted contract's operations but refunds: 409 `idempotency_conflict` with `reason: idempotency_in_progress`). Keys are scoped to the account (gateway callers: to the calling key or app). After 24 hours a key is forgotten and may be reused for a new request.  ## Webhooks (2026-02-19.preview)  The preview version adds webhook endpoints (`/v1/webhook-endpoints`) and the events API (`/v1/events`). Every change of a payment writes one event in the same transaction; each event is POSTed to every enabled endpoint subscribed to its type, at least once, retried with exponential backoff and jitter for up to 3 days. Deliveries follow Standard Webhooks: `webhook-id` (the event id, the same on every retry), `webhook-timestamp`, and `webhook-signature` = `v1,` + base64 HMAC-SHA256 of `id.timestamp.rawBody` keyed with the base64-decoded part of the `whsec_` secret (two signatures while a rotated secret overlaps). Verify the raw body as received, and keep the highest `data.payment.version` applied per payment: events can arrive late or twice. Only a 2xx answer within the timeout counts; an endpoint that fails every attempt for 3 days is disabled with the reason recorded.  ## Pagination  Lists are cursor-based and ordered newest first (ties broken by id). Pass `limit` for the page size and, for the next page, the previous response's `nextCursor` as `cursor`; `nextCursor` is null on the last page. Cursors are opaque and stay valid while new items are inserted.  ## Money  Amounts are strings of integers in the smallest unit, never floats: fiat in minor units (`{\"unit\": \"iso4217/USD\", \"value\": \"1000\"}` is USD 10.00), tokens in their smallest unit (`{\"unit\": \"caip19/eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\", \"value\": \"10000000\"}` is 10 USDC on Base). Assets are CAIP-19 ids, accounts CAIP-10, chains CAIP-2. The payment lists' stats are the exception the hosted contract imposes: their revenue is a JSON number in the currency's major unit (`40.5` is USD 40.50), written exactly from the integer minor units, and the deprecated list's `fiat_amount` a JSON integer. 

    The version of the OpenAPI document: 2026-02-19.preview
    Generated by OpenAPI Generator (https://openapi-generator.tech)

    Do not edit the class manually.
"""  # noqa: E501


import warnings
from pydantic import validate_call, Field, StrictFloat, StrictStr, StrictInt
from typing import Any, Dict, List, Optional, Tuple, Union
from typing_extensions import Annotated

from pydantic import Field, StrictStr, field_validator
from typing import Optional
from typing_extensions import Annotated
from paygate_client.models.create_webhook_endpoint_request import CreateWebhookEndpointRequest
from paygate_client.models.deleted_response import DeletedResponse
from paygate_client.models.event_attempts_response import EventAttemptsResponse
from paygate_client.models.event_response import EventResponse
from paygate_client.models.list_events_response import ListEventsResponse
from paygate_client.models.list_webhook_endpoints_response import ListWebhookEndpointsResponse
from paygate_client.models.redeliver_event_request import RedeliverEventRequest
from paygate_client.models.redeliver_event_response import RedeliverEventResponse
from paygate_client.models.rotate_webhook_secret_request import RotateWebhookSecretRequest
from paygate_client.models.update_webhook_endpoint_request import UpdateWebhookEndpointRequest
from paygate_client.models.webhook_endpoint_response import WebhookEndpointResponse
from paygate_client.models.webhook_endpoint_with_secret_response import WebhookEndpointWithSecretResponse
from paygate_client.models.webhook_event_type import WebhookEventType

from paygate_client.api_client import ApiClient, RequestSerialized
from paygate_client.api_response import ApiResponse
from paygate_client.rest import RESTResponseType


class WebhooksApi:
    """NOTE: This class is auto generated by OpenAPI Generator
    Ref: https://openapi-generator.tech

    Do not edit the class manually.
    """

    def __init__(self, api_client=None) -> None:
        if api_client is None:
            api_client = ApiClient.get_default()
        self.api_client = api_client


    @validate_call
    def create_webhook_endpoint(
        self,
        idempotency_key: Annotated[str, Field(min_length=1, strict=True, max_length=255, description="Required client-chosen key (e.g. a UUID) that makes the request safe to retry; without it the request fails with 400 `missing_idempotency_key`. A retry with the same key and the same request within 24 hours returns the stored response (with `Idempotent-Replayed: true`) and creates nothing; the same key with a different request fails with `idempotency_conflict`, and while the first request is still running with 409 `idempotency_in_progress`. On merchant and settlement creation (the hosted contract's statuses) both are 409 `idempotency_conflict`, the second with `reason: idempotency_in_progress`; elsewhere the first is 422.")],
        create_webhook_endpoint_request: Annotated[CreateWebhookEndpointRequest, Field(description="The endpoint to register.")],
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> WebhookEndpointWithSecretResponse:
        """Create a webhook endpoint

        Registers an HTTPS URL that receives the chosen payment events, signed per Standard Webhooks. The signing secret is returned here (and on rotation) only: store it. URLs whose host resolves to a link-local, reserved or otherwise non-public address are refused (loopback and private networks only when the operator allows them), without saying which address. A host name whose DNS servers do not answer within the operator's deadline (3 s by default) is refused with 400 `params_validation` on `/url`: try again later. A name that does not exist yet is accepted (every delivery resolves it again). `payloadFormat` chooses the shape of the deliveries: `paygate` (ours, the default) or `2026-05-18` (the hosted WalletConnect Pay service's webhook payload contract, for receivers written for it; only its seven payment types may be listed, else 400 `params_validation` on `/enabledEvents`). An account may have at most 16 endpoints. Requires `Idempotency-Key`; the limit and the URL are checked before the key is claimed, so these refusals are not stored under it.

        :param idempotency_key: Required client-chosen key (e.g. a UUID) that makes the request safe to retry; without it the request fails with 400 `missing_idempotency_key`. A retry with the same key and the same request within 24 hours returns the stored response (with `Idempotent-Replayed: true`) and creates nothing; the same key with a different request fails with `idempotency_conflict`, and while the first request is still running with 409 `idempotency_in_progress`. On merchant and settlement creation (the hosted contract's statuses) both are 409 `idempotency_conflict`, the second with `reason: idempotency_in_progress`; elsewhere the first is 422. (required)
        :type idempotency_key: str
        :param create_webhook_endpoint_request: The endpoint to register. (required)
        :type create_webhook_endpoint_request: CreateWebhookEndpointRequest
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._create_webhook_endpoint_serialize(
            idempotency_key=idempotency_key,
            create_webhook_endpoint_request=create_webhook_endpoint_request,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '201': "WebhookEndpointWithSecretResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '409': "ApiError",
            '413': "ApiError",
            '415': "ApiError",
            '422': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        ).data


    @validate_call
    def create_webhook_endpoint_with_http_info(
        self,
        idempotency_key: Annotated[str, Field(min_length=1, strict=True, max_length=255, description="Required client-chosen key (e.g. a UUID) that makes the request safe to retry; without it the request fails with 400 `missing_idempotency_key`. A retry with the same key and the same request within 24 hours returns the stored response (with `Idempotent-Replayed: true`) and creates nothing; the same key with a different request fails with `idempotency_conflict`, and while the first request is still running with 409 `idempotency_in_progress`. On merchant and settlement creation (the hosted contract's statuses) both are 409 `idempotency_conflict`, the second with `reason: idempotency_in_progress`; elsewhere the first is 422.")],
        create_webhook_endpoint_request: Annotated[CreateWebhookEndpointRequest, Field(description="The endpoint to register.")],
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> ApiResponse[WebhookEndpointWithSecretResponse]:
        """Create a webhook endpoint

        Registers an HTTPS URL that receives the chosen payment events, signed per Standard Webhooks. The signing secret is returned here (and on rotation) only: store it. URLs whose host resolves to a link-local, reserved or otherwise non-public address are refused (loopback and private networks only when the operator allows them), without saying which address. A host name whose DNS servers do not answer within the operator's deadline (3 s by default) is refused with 400 `params_validation` on `/url`: try again later. A name that does not exist yet is accepted (every delivery resolves it again). `payloadFormat` chooses the shape of the deliveries: `paygate` (ours, the default) or `2026-05-18` (the hosted WalletConnect Pay service's webhook payload contract, for receivers written for it; only its seven payment types may be listed, else 400 `params_validation` on `/enabledEvents`). An account may have at most 16 endpoints. Requires `Idempotency-Key`; the limit and the URL are checked before the key is claimed, so these refusals are not stored under it.

        :param idempotency_key: Required client-chosen key (e.g. a UUID) that makes the request safe to retry; without it the request fails with 400 `missing_idempotency_key`. A retry with the same key and the same request within 24 hours returns the stored response (with `Idempotent-Replayed: true`) and creates nothing; the same key with a different request fails with `idempotency_conflict`, and while the first request is still running with 409 `idempotency_in_progress`. On merchant and settlement creation (the hosted contract's statuses) both are 409 `idempotency_conflict`, the second with `reason: idempotency_in_progress`; elsewhere the first is 422. (required)
        :type idempotency_key: str
        :param create_webhook_endpoint_request: The endpoint to register. (required)
        :type create_webhook_endpoint_request: CreateWebhookEndpointRequest
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._create_webhook_endpoint_serialize(
            idempotency_key=idempotency_key,
            create_webhook_endpoint_request=create_webhook_endpoint_request,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '201': "WebhookEndpointWithSecretResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '409': "ApiError",
            '413': "ApiError",
            '415': "ApiError",
            '422': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        )


    @validate_call
    def create_webhook_endpoint_without_preload_content(
        self,
        idempotency_key: Annotated[str, Field(min_length=1, strict=True, max_length=255, description="Required client-chosen key (e.g. a UUID) that makes the request safe to retry; without it the request fails with 400 `missing_idempotency_key`. A retry with the same key and the same request within 24 hours returns the stored response (with `Idempotent-Replayed: true`) and creates nothing; the same key with a different request fails with `idempotency_conflict`, and while the first request is still running with 409 `idempotency_in_progress`. On merchant and settlement creation (the hosted contract's statuses) both are 409 `idempotency_conflict`, the second with `reason: idempotency_in_progress`; elsewhere the first is 422.")],
        create_webhook_endpoint_request: Annotated[CreateWebhookEndpointRequest, Field(description="The endpoint to register.")],
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> RESTResponseType:
        """Create a webhook endpoint

        Registers an HTTPS URL that receives the chosen payment events, signed per Standard Webhooks. The signing secret is returned here (and on rotation) only: store it. URLs whose host resolves to a link-local, reserved or otherwise non-public address are refused (loopback and private networks only when the operator allows them), without saying which address. A host name whose DNS servers do not answer within the operator's deadline (3 s by default) is refused with 400 `params_validation` on `/url`: try again later. A name that does not exist yet is accepted (every delivery resolves it again). `payloadFormat` chooses the shape of the deliveries: `paygate` (ours, the default) or `2026-05-18` (the hosted WalletConnect Pay service's webhook payload contract, for receivers written for it; only its seven payment types may be listed, else 400 `params_validation` on `/enabledEvents`). An account may have at most 16 endpoints. Requires `Idempotency-Key`; the limit and the URL are checked before the key is claimed, so these refusals are not stored under it.

        :param idempotency_key: Required client-chosen key (e.g. a UUID) that makes the request safe to retry; without it the request fails with 400 `missing_idempotency_key`. A retry with the same key and the same request within 24 hours returns the stored response (with `Idempotent-Replayed: true`) and creates nothing; the same key with a different request fails with `idempotency_conflict`, and while the first request is still running with 409 `idempotency_in_progress`. On merchant and settlement creation (the hosted contract's statuses) both are 409 `idempotency_conflict`, the second with `reason: idempotency_in_progress`; elsewhere the first is 422. (required)
        :type idempotency_key: str
        :param create_webhook_endpoint_request: The endpoint to register. (required)
        :type create_webhook_endpoint_request: CreateWebhookEndpointRequest
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._create_webhook_endpoint_serialize(
            idempotency_key=idempotency_key,
            create_webhook_endpoint_request=create_webhook_endpoint_request,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '201': "WebhookEndpointWithSecretResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '409': "ApiError",
            '413': "ApiError",
            '415': "ApiError",
            '422': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        return response_data.response


    def _create_webhook_endpoint_serialize(
        self,
        idempotency_key,
        create_webhook_endpoint_request,
        pay_version,
        wcp_version,
        api_version,
        sdk_name,
        sdk_version,
        sdk_platform,
        _request_auth,
        _content_type,
        _headers,
        _host_index,
    ) -> RequestSerialized:

        _host = None

        _collection_formats: Dict[str, str] = {
        }

        _path_params: Dict[str, str] = {}
        _query_params: List[Tuple[str, str]] = []
        _header_params: Dict[str, Optional[str]] = _headers or {}
        _form_params: List[Tuple[str, str]] = []
        _files: Dict[
            str, Union[str, bytes, List[str], List[bytes], List[Tuple[str, bytes]]]
        ] = {}
        _body_params: Optional[bytes] = None

        # process the path parameters
        # process the query parameters
        # process the header parameters
        if idempotency_key is not None:
            _header_params['Idempotency-Key'] = idempotency_key
        if pay_version is not None:
            _header_params['PAY-Version'] = pay_version
        if wcp_version is not None:
            _header_params['WCP-Version'] = wcp_version
        if api_version is not None:
            _header_params['Api-Version'] = api_version
        if sdk_name is not None:
            _header_params['Sdk-Name'] = sdk_name
        if sdk_version is not None:
            _header_params['Sdk-Version'] = sdk_version
        if sdk_platform is not None:
            _header_params['Sdk-Platform'] = sdk_platform
        # process the form parameters
        # process the body parameter
        if create_webhook_endpoint_request is not None:
            _body_params = create_webhook_endpoint_request


        # set the HTTP header `Accept`
        if 'Accept' not in _header_params:
            _header_params['Accept'] = self.api_client.select_header_accept(
                [
                    'application/json'
                ]
            )

        # set the HTTP header `Content-Type`
        if _content_type:
            _header_params['Content-Type'] = _content_type
        else:
            _default_content_type = (
                self.api_client.select_header_content_type(
                    [
                        'application/json'
                    ]
                )
            )
            if _default_content_type is not None:
                _header_params['Content-Type'] = _default_content_type

        # authentication setting
        _auth_settings: List[str] = [
            'ApiKey'
        ]

        return self.api_client.param_serialize(
            method='POST',
            resource_path='/v1/webhook-endpoints',
            path_params=_path_params,
            query_params=_query_params,
            header_params=_header_params,
            body=_body_params,
            post_params=_form_params,
            files=_files,
            auth_settings=_auth_settings,
            collection_formats=_collection_formats,
            _host=_host,
            _request_auth=_request_auth
        )




    @validate_call
    def delete_webhook_endpoint(
        self,
        endpoint_id: Annotated[str, Field(strict=True, description="Webhook endpoint id (`we_…`).")],
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> DeletedResponse:
        """Delete a webhook endpoint

        Removes the endpoint: nothing more is delivered to it and pending deliveries stop. Its past events and attempts stay listed. Deleting again returns the same body.

        :param endpoint_id: Webhook endpoint id (`we_…`). (required)
        :type endpoint_id: str
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._delete_webhook_endpoint_serialize(
            endpoint_id=endpoint_id,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "DeletedResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        ).data


    @validate_call
    def delete_webhook_endpoint_with_http_info(
        self,
        endpoint_id: Annotated[str, Field(strict=True, description="Webhook endpoint id (`we_…`).")],
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> ApiResponse[DeletedResponse]:
        """Delete a webhook endpoint

        Removes the endpoint: nothing more is delivered to it and pending deliveries stop. Its past events and attempts stay listed. Deleting again returns the same body.

        :param endpoint_id: Webhook endpoint id (`we_…`). (required)
        :type endpoint_id: str
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._delete_webhook_endpoint_serialize(
            endpoint_id=endpoint_id,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "DeletedResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        )


    @validate_call
    def delete_webhook_endpoint_without_preload_content(
        self,
        endpoint_id: Annotated[str, Field(strict=True, description="Webhook endpoint id (`we_…`).")],
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> RESTResponseType:
        """Delete a webhook endpoint

        Removes the endpoint: nothing more is delivered to it and pending deliveries stop. Its past events and attempts stay listed. Deleting again returns the same body.

        :param endpoint_id: Webhook endpoint id (`we_…`). (required)
        :type endpoint_id: str
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._delete_webhook_endpoint_serialize(
            endpoint_id=endpoint_id,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "DeletedResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        return response_data.response


    def _delete_webhook_endpoint_serialize(
        self,
        endpoint_id,
        pay_version,
        wcp_version,
        api_version,
        sdk_name,
        sdk_version,
        sdk_platform,
        _request_auth,
        _content_type,
        _headers,
        _host_index,
    ) -> RequestSerialized:

        _host = None

        _collection_formats: Dict[str, str] = {
        }

        _path_params: Dict[str, str] = {}
        _query_params: List[Tuple[str, str]] = []
        _header_params: Dict[str, Optional[str]] = _headers or {}
        _form_params: List[Tuple[str, str]] = []
        _files: Dict[
            str, Union[str, bytes, List[str], List[bytes], List[Tuple[str, bytes]]]
        ] = {}
        _body_params: Optional[bytes] = None

        # process the path parameters
        if endpoint_id is not None:
            _path_params['endpointId'] = endpoint_id
        # process the query parameters
        # process the header parameters
        if pay_version is not None:
            _header_params['PAY-Version'] = pay_version
        if wcp_version is not None:
            _header_params['WCP-Version'] = wcp_version
        if api_version is not None:
            _header_params['Api-Version'] = api_version
        if sdk_name is not None:
            _header_params['Sdk-Name'] = sdk_name
        if sdk_version is not None:
            _header_params['Sdk-Version'] = sdk_version
        if sdk_platform is not None:
            _header_params['Sdk-Platform'] = sdk_platform
        # process the form parameters
        # process the body parameter


        # set the HTTP header `Accept`
        if 'Accept' not in _header_params:
            _header_params['Accept'] = self.api_client.select_header_accept(
                [
                    'application/json'
                ]
            )


        # authentication setting
        _auth_settings: List[str] = [
            'ApiKey'
        ]

        return self.api_client.param_serialize(
            method='DELETE',
            resource_path='/v1/webhook-endpoints/{endpointId}',
            path_params=_path_params,
            query_params=_query_params,
            header_params=_header_params,
            body=_body_params,
            post_params=_form_params,
            files=_files,
            auth_settings=_auth_settings,
            collection_formats=_collection_formats,
            _host=_host,
            _request_auth=_request_auth
        )




    @validate_call
    def get_event(
        self,
        event_id: Annotated[str, Field(strict=True, description="Event id (`evt_…`).")],
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> EventResponse:
        """Get an event

        One event of the account, exactly as delivered at the version of this request.

        :param event_id: Event id (`evt_…`). (required)
        :type event_id: str
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._get_event_serialize(
            event_id=event_id,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "EventResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        ).data


    @validate_call
    def get_event_with_http_info(
        self,
        event_id: Annotated[str, Field(strict=True, description="Event id (`evt_…`).")],
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> ApiResponse[EventResponse]:
        """Get an event

        One event of the account, exactly as delivered at the version of this request.

        :param event_id: Event id (`evt_…`). (required)
        :type event_id: str
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._get_event_serialize(
            event_id=event_id,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "EventResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        )


    @validate_call
    def get_event_without_preload_content(
        self,
        event_id: Annotated[str, Field(strict=True, description="Event id (`evt_…`).")],
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> RESTResponseType:
        """Get an event

        One event of the account, exactly as delivered at the version of this request.

        :param event_id: Event id (`evt_…`). (required)
        :type event_id: str
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._get_event_serialize(
            event_id=event_id,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "EventResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        return response_data.response


    def _get_event_serialize(
        self,
        event_id,
        pay_version,
        wcp_version,
        api_version,
        sdk_name,
        sdk_version,
        sdk_platform,
        _request_auth,
        _content_type,
        _headers,
        _host_index,
    ) -> RequestSerialized:

        _host = None

        _collection_formats: Dict[str, str] = {
        }

        _path_params: Dict[str, str] = {}
        _query_params: List[Tuple[str, str]] = []
        _header_params: Dict[str, Optional[str]] = _headers or {}
        _form_params: List[Tuple[str, str]] = []
        _files: Dict[
            str, Union[str, bytes, List[str], List[bytes], List[Tuple[str, bytes]]]
        ] = {}
        _body_params: Optional[bytes] = None

        # process the path parameters
        if event_id is not None:
            _path_params['eventId'] = event_id
        # process the query parameters
        # process the header parameters
        if pay_version is not None:
            _header_params['PAY-Version'] = pay_version
        if wcp_version is not None:
            _header_params['WCP-Version'] = wcp_version
        if api_version is not None:
            _header_params['Api-Version'] = api_version
        if sdk_name is not None:
            _header_params['Sdk-Name'] = sdk_name
        if sdk_version is not None:
            _header_params['Sdk-Version'] = sdk_version
        if sdk_platform is not None:
            _header_params['Sdk-Platform'] = sdk_platform
        # process the form parameters
        # process the body parameter


        # set the HTTP header `Accept`
        if 'Accept' not in _header_params:
            _header_params['Accept'] = self.api_client.select_header_accept(
                [
                    'application/json'
                ]
            )


        # authentication setting
        _auth_settings: List[str] = [
            'ApiKey'
        ]

        return self.api_client.param_serialize(
            method='GET',
            resource_path='/v1/events/{eventId}',
            path_params=_path_params,
            query_params=_query_params,
            header_params=_header_params,
            body=_body_params,
            post_params=_form_params,
            files=_files,
            auth_settings=_auth_settings,
            collection_formats=_collection_formats,
            _host=_host,
            _request_auth=_request_auth
        )




    @validate_call
    def get_webhook_endpoint(
        self,
        endpoint_id: Annotated[str, Field(strict=True, description="Webhook endpoint id (`we_…`).")],
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> WebhookEndpointResponse:
        """Get a webhook endpoint

        One endpoint of the account, without its secret.

        :param endpoint_id: Webhook endpoint id (`we_…`). (required)
        :type endpoint_id: str
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._get_webhook_endpoint_serialize(
            endpoint_id=endpoint_id,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "WebhookEndpointResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        ).data


    @validate_call
    def get_webhook_endpoint_with_http_info(
        self,
        endpoint_id: Annotated[str, Field(strict=True, description="Webhook endpoint id (`we_…`).")],
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> ApiResponse[WebhookEndpointResponse]:
        """Get a webhook endpoint

        One endpoint of the account, without its secret.

        :param endpoint_id: Webhook endpoint id (`we_…`). (required)
        :type endpoint_id: str
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._get_webhook_endpoint_serialize(
            endpoint_id=endpoint_id,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "WebhookEndpointResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        )


    @validate_call
    def get_webhook_endpoint_without_preload_content(
        self,
        endpoint_id: Annotated[str, Field(strict=True, description="Webhook endpoint id (`we_…`).")],
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> RESTResponseType:
        """Get a webhook endpoint

        One endpoint of the account, without its secret.

        :param endpoint_id: Webhook endpoint id (`we_…`). (required)
        :type endpoint_id: str
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._get_webhook_endpoint_serialize(
            endpoint_id=endpoint_id,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "WebhookEndpointResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        return response_data.response


    def _get_webhook_endpoint_serialize(
        self,
        endpoint_id,
        pay_version,
        wcp_version,
        api_version,
        sdk_name,
        sdk_version,
        sdk_platform,
        _request_auth,
        _content_type,
        _headers,
        _host_index,
    ) -> RequestSerialized:

        _host = None

        _collection_formats: Dict[str, str] = {
        }

        _path_params: Dict[str, str] = {}
        _query_params: List[Tuple[str, str]] = []
        _header_params: Dict[str, Optional[str]] = _headers or {}
        _form_params: List[Tuple[str, str]] = []
        _files: Dict[
            str, Union[str, bytes, List[str], List[bytes], List[Tuple[str, bytes]]]
        ] = {}
        _body_params: Optional[bytes] = None

        # process the path parameters
        if endpoint_id is not None:
            _path_params['endpointId'] = endpoint_id
        # process the query parameters
        # process the header parameters
        if pay_version is not None:
            _header_params['PAY-Version'] = pay_version
        if wcp_version is not None:
            _header_params['WCP-Version'] = wcp_version
        if api_version is not None:
            _header_params['Api-Version'] = api_version
        if sdk_name is not None:
            _header_params['Sdk-Name'] = sdk_name
        if sdk_version is not None:
            _header_params['Sdk-Version'] = sdk_version
        if sdk_platform is not None:
            _header_params['Sdk-Platform'] = sdk_platform
        # process the form parameters
        # process the body parameter


        # set the HTTP header `Accept`
        if 'Accept' not in _header_params:
            _header_params['Accept'] = self.api_client.select_header_accept(
                [
                    'application/json'
                ]
            )


        # authentication setting
        _auth_settings: List[str] = [
            'ApiKey'
        ]

        return self.api_client.param_serialize(
            method='GET',
            resource_path='/v1/webhook-endpoints/{endpointId}',
            path_params=_path_params,
            query_params=_query_params,
            header_params=_header_params,
            body=_body_params,
            post_params=_form_params,
            files=_files,
            auth_settings=_auth_settings,
            collection_formats=_collection_formats,
            _host=_host,
            _request_auth=_request_auth
        )




    @validate_call
    def list_event_attempts(
        self,
        event_id: Annotated[str, Field(strict=True, description="Event id (`evt_…`).")],
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> EventAttemptsResponse:
        """List an event's deliveries and attempts

        Every delivery of the event (one per subscribed endpoint, plus redeliveries) with its state, and every attempt, oldest first: when, how long, the HTTP status or the network error.

        :param event_id: Event id (`evt_…`). (required)
        :type event_id: str
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._list_event_attempts_serialize(
            event_id=event_id,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "EventAttemptsResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        ).data


    @validate_call
    def list_event_attempts_with_http_info(
        self,
        event_id: Annotated[str, Field(strict=True, description="Event id (`evt_…`).")],
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> ApiResponse[EventAttemptsResponse]:
        """List an event's deliveries and attempts

        Every delivery of the event (one per subscribed endpoint, plus redeliveries) with its state, and every attempt, oldest first: when, how long, the HTTP status or the network error.

        :param event_id: Event id (`evt_…`). (required)
        :type event_id: str
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._list_event_attempts_serialize(
            event_id=event_id,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "EventAttemptsResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        )


    @validate_call
    def list_event_attempts_without_preload_content(
        self,
        event_id: Annotated[str, Field(strict=True, description="Event id (`evt_…`).")],
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> RESTResponseType:
        """List an event's deliveries and attempts

        Every delivery of the event (one per subscribed endpoint, plus redeliveries) with its state, and every attempt, oldest first: when, how long, the HTTP status or the network error.

        :param event_id: Event id (`evt_…`). (required)
        :type event_id: str
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._list_event_attempts_serialize(
            event_id=event_id,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "EventAttemptsResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        return response_data.response


    def _list_event_attempts_serialize(
        self,
        event_id,
        pay_version,
        wcp_version,
        api_version,
        sdk_name,
        sdk_version,
        sdk_platform,
        _request_auth,
        _content_type,
        _headers,
        _host_index,
    ) -> RequestSerialized:

        _host = None

        _collection_formats: Dict[str, str] = {
        }

        _path_params: Dict[str, str] = {}
        _query_params: List[Tuple[str, str]] = []
        _header_params: Dict[str, Optional[str]] = _headers or {}
        _form_params: List[Tuple[str, str]] = []
        _files: Dict[
            str, Union[str, bytes, List[str], List[bytes], List[Tuple[str, bytes]]]
        ] = {}
        _body_params: Optional[bytes] = None

        # process the path parameters
        if event_id is not None:
            _path_params['eventId'] = event_id
        # process the query parameters
        # process the header parameters
        if pay_version is not None:
            _header_params['PAY-Version'] = pay_version
        if wcp_version is not None:
            _header_params['WCP-Version'] = wcp_version
        if api_version is not None:
            _header_params['Api-Version'] = api_version
        if sdk_name is not None:
            _header_params['Sdk-Name'] = sdk_name
        if sdk_version is not None:
            _header_params['Sdk-Version'] = sdk_version
        if sdk_platform is not None:
            _header_params['Sdk-Platform'] = sdk_platform
        # process the form parameters
        # process the body parameter


        # set the HTTP header `Accept`
        if 'Accept' not in _header_params:
            _header_params['Accept'] = self.api_client.select_header_accept(
                [
                    'application/json'
                ]
            )


        # authentication setting
        _auth_settings: List[str] = [
            'ApiKey'
        ]

        return self.api_client.param_serialize(
            method='GET',
            resource_path='/v1/events/{eventId}/attempts',
            path_params=_path_params,
            query_params=_query_params,
            header_params=_header_params,
            body=_body_params,
            post_params=_form_params,
            files=_files,
            auth_settings=_auth_settings,
            collection_formats=_collection_formats,
            _host=_host,
            _request_auth=_request_auth
        )




    @validate_call
    def list_events(
        self,
        type: Annotated[Optional[WebhookEventType], Field(description="Only events of this type.")] = None,
        payment_id: Annotated[Optional[Annotated[str, Field(strict=True, max_length=64)]], Field(description="Only events of this payment.")] = None,
        cursor: Annotated[Optional[Annotated[str, Field(strict=True, max_length=512)]], Field(description="Opaque cursor from `nextCursor` of the previous page.")] = None,
        limit: Annotated[Optional[Annotated[int, Field(le=100, strict=True, ge=1)]], Field(description="Page size, 1 to 100.")] = None,
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> ListEventsResponse:
        """List events

        The account's payment events, newest first (ties broken by id), as they are delivered to webhook endpoints at the version of this request. Filter by `type` and `paymentId`.

        :param type: Only events of this type.
        :type type: WebhookEventType
        :param payment_id: Only events of this payment.
        :type payment_id: str
        :param cursor: Opaque cursor from `nextCursor` of the previous page.
        :type cursor: str
        :param limit: Page size, 1 to 100.
        :type limit: int
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._list_events_serialize(
            type=type,
            payment_id=payment_id,
            cursor=cursor,
            limit=limit,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "ListEventsResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        ).data


    @validate_call
    def list_events_with_http_info(
        self,
        type: Annotated[Optional[WebhookEventType], Field(description="Only events of this type.")] = None,
        payment_id: Annotated[Optional[Annotated[str, Field(strict=True, max_length=64)]], Field(description="Only events of this payment.")] = None,
        cursor: Annotated[Optional[Annotated[str, Field(strict=True, max_length=512)]], Field(description="Opaque cursor from `nextCursor` of the previous page.")] = None,
        limit: Annotated[Optional[Annotated[int, Field(le=100, strict=True, ge=1)]], Field(description="Page size, 1 to 100.")] = None,
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> ApiResponse[ListEventsResponse]:
        """List events

        The account's payment events, newest first (ties broken by id), as they are delivered to webhook endpoints at the version of this request. Filter by `type` and `paymentId`.

        :param type: Only events of this type.
        :type type: WebhookEventType
        :param payment_id: Only events of this payment.
        :type payment_id: str
        :param cursor: Opaque cursor from `nextCursor` of the previous page.
        :type cursor: str
        :param limit: Page size, 1 to 100.
        :type limit: int
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._list_events_serialize(
            type=type,
            payment_id=payment_id,
            cursor=cursor,
            limit=limit,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "ListEventsResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        )


    @validate_call
    def list_events_without_preload_content(
        self,
        type: Annotated[Optional[WebhookEventType], Field(description="Only events of this type.")] = None,
        payment_id: Annotated[Optional[Annotated[str, Field(strict=True, max_length=64)]], Field(description="Only events of this payment.")] = None,
        cursor: Annotated[Optional[Annotated[str, Field(strict=True, max_length=512)]], Field(description="Opaque cursor from `nextCursor` of the previous page.")] = None,
        limit: Annotated[Optional[Annotated[int, Field(le=100, strict=True, ge=1)]], Field(description="Page size, 1 to 100.")] = None,
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> RESTResponseType:
        """List events

        The account's payment events, newest first (ties broken by id), as they are delivered to webhook endpoints at the version of this request. Filter by `type` and `paymentId`.

        :param type: Only events of this type.
        :type type: WebhookEventType
        :param payment_id: Only events of this payment.
        :type payment_id: str
        :param cursor: Opaque cursor from `nextCursor` of the previous page.
        :type cursor: str
        :param limit: Page size, 1 to 100.
        :type limit: int
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._list_events_serialize(
            type=type,
            payment_id=payment_id,
            cursor=cursor,
            limit=limit,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "ListEventsResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        return response_data.response


    def _list_events_serialize(
        self,
        type,
        payment_id,
        cursor,
        limit,
        pay_version,
        wcp_version,
        api_version,
        sdk_name,
        sdk_version,
        sdk_platform,
        _request_auth,
        _content_type,
        _headers,
        _host_index,
    ) -> RequestSerialized:

        _host = None

        _collection_formats: Dict[str, str] = {
        }

        _path_params: Dict[str, str] = {}
        _query_params: List[Tuple[str, str]] = []
        _header_params: Dict[str, Optional[str]] = _headers or {}
        _form_params: List[Tuple[str, str]] = []
        _files: Dict[
            str, Union[str, bytes, List[str], List[bytes], List[Tuple[str, bytes]]]
        ] = {}
        _body_params: Optional[bytes] = None

        # process the path parameters
        # process the query parameters
        if type is not None:
            
            _query_params.append(('type', type.value))
            
        if payment_id is not None:
            
            _query_params.append(('paymentId', payment_id))
            
        if cursor is not None:
            
            _query_params.append(('cursor', cursor))
            
        if limit is not None:
            
            _query_params.append(('limit', limit))
            
        # process the header parameters
        if pay_version is not None:
            _header_params['PAY-Version'] = pay_version
        if wcp_version is not None:
            _header_params['WCP-Version'] = wcp_version
        if api_version is not None:
            _header_params['Api-Version'] = api_version
        if sdk_name is not None:
            _header_params['Sdk-Name'] = sdk_name
        if sdk_version is not None:
            _header_params['Sdk-Version'] = sdk_version
        if sdk_platform is not None:
            _header_params['Sdk-Platform'] = sdk_platform
        # process the form parameters
        # process the body parameter


        # set the HTTP header `Accept`
        if 'Accept' not in _header_params:
            _header_params['Accept'] = self.api_client.select_header_accept(
                [
                    'application/json'
                ]
            )


        # authentication setting
        _auth_settings: List[str] = [
            'ApiKey'
        ]

        return self.api_client.param_serialize(
            method='GET',
            resource_path='/v1/events',
            path_params=_path_params,
            query_params=_query_params,
            header_params=_header_params,
            body=_body_params,
            post_params=_form_params,
            files=_files,
            auth_settings=_auth_settings,
            collection_formats=_collection_formats,
            _host=_host,
            _request_auth=_request_auth
        )




    @validate_call
    def list_webhook_endpoints(
        self,
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> ListWebhookEndpointsResponse:
        """List webhook endpoints

        The account's webhook endpoints (at most 16), newest first. Secrets are never listed.

        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._list_webhook_endpoints_serialize(
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "ListWebhookEndpointsResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        ).data


    @validate_call
    def list_webhook_endpoints_with_http_info(
        self,
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> ApiResponse[ListWebhookEndpointsResponse]:
        """List webhook endpoints

        The account's webhook endpoints (at most 16), newest first. Secrets are never listed.

        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._list_webhook_endpoints_serialize(
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "ListWebhookEndpointsResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        )


    @validate_call
    def list_webhook_endpoints_without_preload_content(
        self,
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> RESTResponseType:
        """List webhook endpoints

        The account's webhook endpoints (at most 16), newest first. Secrets are never listed.

        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._list_webhook_endpoints_serialize(
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "ListWebhookEndpointsResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        return response_data.response


    def _list_webhook_endpoints_serialize(
        self,
        pay_version,
        wcp_version,
        api_version,
        sdk_name,
        sdk_version,
        sdk_platform,
        _request_auth,
        _content_type,
        _headers,
        _host_index,
    ) -> RequestSerialized:

        _host = None

        _collection_formats: Dict[str, str] = {
        }

        _path_params: Dict[str, str] = {}
        _query_params: List[Tuple[str, str]] = []
        _header_params: Dict[str, Optional[str]] = _headers or {}
        _form_params: List[Tuple[str, str]] = []
        _files: Dict[
            str, Union[str, bytes, List[str], List[bytes], List[Tuple[str, bytes]]]
        ] = {}
        _body_params: Optional[bytes] = None

        # process the path parameters
        # process the query parameters
        # process the header parameters
        if pay_version is not None:
            _header_params['PAY-Version'] = pay_version
        if wcp_version is not None:
            _header_params['WCP-Version'] = wcp_version
        if api_version is not None:
            _header_params['Api-Version'] = api_version
        if sdk_name is not None:
            _header_params['Sdk-Name'] = sdk_name
        if sdk_version is not None:
            _header_params['Sdk-Version'] = sdk_version
        if sdk_platform is not None:
            _header_params['Sdk-Platform'] = sdk_platform
        # process the form parameters
        # process the body parameter


        # set the HTTP header `Accept`
        if 'Accept' not in _header_params:
            _header_params['Accept'] = self.api_client.select_header_accept(
                [
                    'application/json'
                ]
            )


        # authentication setting
        _auth_settings: List[str] = [
            'ApiKey'
        ]

        return self.api_client.param_serialize(
            method='GET',
            resource_path='/v1/webhook-endpoints',
            path_params=_path_params,
            query_params=_query_params,
            header_params=_header_params,
            body=_body_params,
            post_params=_form_params,
            files=_files,
            auth_settings=_auth_settings,
            collection_formats=_collection_formats,
            _host=_host,
            _request_auth=_request_auth
        )




    @validate_call
    def redeliver_event(
        self,
        event_id: Annotated[str, Field(strict=True, description="Event id (`evt_…`).")],
        idempotency_key: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=255)]], Field(description="Optional client-chosen key (e.g. a UUID) that makes the request safe to retry. A retry with the same key and the same request within 24 hours returns the stored response (with `Idempotent-Replayed: true`); the same key with a different request fails with `idempotency_conflict` (409 on the hosted contract's operations, 422 on ours), and while the first request is still running with 409 `idempotency_in_progress` (on the hosted contract's operations but refunds: 409 `idempotency_conflict`, `reason: idempotency_in_progress`).")] = None,
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        redeliver_event_request: Annotated[Optional[RedeliverEventRequest], Field(description="Which endpoint to redeliver to; by default every enabled endpoint subscribed to the event type.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> RedeliverEventResponse:
        """Redeliver an event

        Queues the event again, with the same `webhook-id`, to one endpoint (`endpointId`) or to every enabled endpoint subscribed to its type, with a fresh retry schedule. A disabled or deleted endpoint cannot receive redeliveries (409 `webhook_endpoint_disabled` / 404). An endpoint in the hosted `2026-05-18` payload format gets only that format's seven payment types: naming one for another type is 400 `params_validation` on `/endpointId`, and the default skips it.

        :param event_id: Event id (`evt_…`). (required)
        :type event_id: str
        :param idempotency_key: Optional client-chosen key (e.g. a UUID) that makes the request safe to retry. A retry with the same key and the same request within 24 hours returns the stored response (with `Idempotent-Replayed: true`); the same key with a different request fails with `idempotency_conflict` (409 on the hosted contract's operations, 422 on ours), and while the first request is still running with 409 `idempotency_in_progress` (on the hosted contract's operations but refunds: 409 `idempotency_conflict`, `reason: idempotency_in_progress`).
        :type idempotency_key: str
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param redeliver_event_request: Which endpoint to redeliver to; by default every enabled endpoint subscribed to the event type.
        :type redeliver_event_request: RedeliverEventRequest
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._redeliver_event_serialize(
            event_id=event_id,
            idempotency_key=idempotency_key,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            redeliver_event_request=redeliver_event_request,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '202': "RedeliverEventResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '409': "ApiError",
            '413': "ApiError",
            '415': "ApiError",
            '422': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        ).data


    @validate_call
    def redeliver_event_with_http_info(
        self,
        event_id: Annotated[str, Field(strict=True, description="Event id (`evt_…`).")],
        idempotency_key: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=255)]], Field(description="Optional client-chosen key (e.g. a UUID) that makes the request safe to retry. A retry with the same key and the same request within 24 hours returns the stored response (with `Idempotent-Replayed: true`); the same key with a different request fails with `idempotency_conflict` (409 on the hosted contract's operations, 422 on ours), and while the first request is still running with 409 `idempotency_in_progress` (on the hosted contract's operations but refunds: 409 `idempotency_conflict`, `reason: idempotency_in_progress`).")] = None,
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        redeliver_event_request: Annotated[Optional[RedeliverEventRequest], Field(description="Which endpoint to redeliver to; by default every enabled endpoint subscribed to the event type.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> ApiResponse[RedeliverEventResponse]:
        """Redeliver an event

        Queues the event again, with the same `webhook-id`, to one endpoint (`endpointId`) or to every enabled endpoint subscribed to its type, with a fresh retry schedule. A disabled or deleted endpoint cannot receive redeliveries (409 `webhook_endpoint_disabled` / 404). An endpoint in the hosted `2026-05-18` payload format gets only that format's seven payment types: naming one for another type is 400 `params_validation` on `/endpointId`, and the default skips it.

        :param event_id: Event id (`evt_…`). (required)
        :type event_id: str
        :param idempotency_key: Optional client-chosen key (e.g. a UUID) that makes the request safe to retry. A retry with the same key and the same request within 24 hours returns the stored response (with `Idempotent-Replayed: true`); the same key with a different request fails with `idempotency_conflict` (409 on the hosted contract's operations, 422 on ours), and while the first request is still running with 409 `idempotency_in_progress` (on the hosted contract's operations but refunds: 409 `idempotency_conflict`, `reason: idempotency_in_progress`).
        :type idempotency_key: str
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param redeliver_event_request: Which endpoint to redeliver to; by default every enabled endpoint subscribed to the event type.
        :type redeliver_event_request: RedeliverEventRequest
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._redeliver_event_serialize(
            event_id=event_id,
            idempotency_key=idempotency_key,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            redeliver_event_request=redeliver_event_request,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '202': "RedeliverEventResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '409': "ApiError",
            '413': "ApiError",
            '415': "ApiError",
            '422': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        )


    @validate_call
    def redeliver_event_without_preload_content(
        self,
        event_id: Annotated[str, Field(strict=True, description="Event id (`evt_…`).")],
        idempotency_key: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=255)]], Field(description="Optional client-chosen key (e.g. a UUID) that makes the request safe to retry. A retry with the same key and the same request within 24 hours returns the stored response (with `Idempotent-Replayed: true`); the same key with a different request fails with `idempotency_conflict` (409 on the hosted contract's operations, 422 on ours), and while the first request is still running with 409 `idempotency_in_progress` (on the hosted contract's operations but refunds: 409 `idempotency_conflict`, `reason: idempotency_in_progress`).")] = None,
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        redeliver_event_request: Annotated[Optional[RedeliverEventRequest], Field(description="Which endpoint to redeliver to; by default every enabled endpoint subscribed to the event type.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> RESTResponseType:
        """Redeliver an event

        Queues the event again, with the same `webhook-id`, to one endpoint (`endpointId`) or to every enabled endpoint subscribed to its type, with a fresh retry schedule. A disabled or deleted endpoint cannot receive redeliveries (409 `webhook_endpoint_disabled` / 404). An endpoint in the hosted `2026-05-18` payload format gets only that format's seven payment types: naming one for another type is 400 `params_validation` on `/endpointId`, and the default skips it.

        :param event_id: Event id (`evt_…`). (required)
        :type event_id: str
        :param idempotency_key: Optional client-chosen key (e.g. a UUID) that makes the request safe to retry. A retry with the same key and the same request within 24 hours returns the stored response (with `Idempotent-Replayed: true`); the same key with a different request fails with `idempotency_conflict` (409 on the hosted contract's operations, 422 on ours), and while the first request is still running with 409 `idempotency_in_progress` (on the hosted contract's operations but refunds: 409 `idempotency_conflict`, `reason: idempotency_in_progress`).
        :type idempotency_key: str
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param redeliver_event_request: Which endpoint to redeliver to; by default every enabled endpoint subscribed to the event type.
        :type redeliver_event_request: RedeliverEventRequest
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._redeliver_event_serialize(
            event_id=event_id,
            idempotency_key=idempotency_key,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            redeliver_event_request=redeliver_event_request,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '202': "RedeliverEventResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '409': "ApiError",
            '413': "ApiError",
            '415': "ApiError",
            '422': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        return response_data.response


    def _redeliver_event_serialize(
        self,
        event_id,
        idempotency_key,
        pay_version,
        wcp_version,
        api_version,
        sdk_name,
        sdk_version,
        sdk_platform,
        redeliver_event_request,
        _request_auth,
        _content_type,
        _headers,
        _host_index,
    ) -> RequestSerialized:

        _host = None

        _collection_formats: Dict[str, str] = {
        }

        _path_params: Dict[str, str] = {}
        _query_params: List[Tuple[str, str]] = []
        _header_params: Dict[str, Optional[str]] = _headers or {}
        _form_params: List[Tuple[str, str]] = []
        _files: Dict[
            str, Union[str, bytes, List[str], List[bytes], List[Tuple[str, bytes]]]
        ] = {}
        _body_params: Optional[bytes] = None

        # process the path parameters
        if event_id is not None:
            _path_params['eventId'] = event_id
        # process the query parameters
        # process the header parameters
        if idempotency_key is not None:
            _header_params['Idempotency-Key'] = idempotency_key
        if pay_version is not None:
            _header_params['PAY-Version'] = pay_version
        if wcp_version is not None:
            _header_params['WCP-Version'] = wcp_version
        if api_version is not None:
            _header_params['Api-Version'] = api_version
        if sdk_name is not None:
            _header_params['Sdk-Name'] = sdk_name
        if sdk_version is not None:
            _header_params['Sdk-Version'] = sdk_version
        if sdk_platform is not None:
            _header_params['Sdk-Platform'] = sdk_platform
        # process the form parameters
        # process the body parameter
        if redeliver_event_request is not None:
            _body_params = redeliver_event_request


        # set the HTTP header `Accept`
        if 'Accept' not in _header_params:
            _header_params['Accept'] = self.api_client.select_header_accept(
                [
                    'application/json'
                ]
            )

        # set the HTTP header `Content-Type`
        if _content_type:
            _header_params['Content-Type'] = _content_type
        else:
            _default_content_type = (
                self.api_client.select_header_content_type(
                    [
                        'application/json'
                    ]
                )
            )
            if _default_content_type is not None:
                _header_params['Content-Type'] = _default_content_type

        # authentication setting
        _auth_settings: List[str] = [
            'ApiKey'
        ]

        return self.api_client.param_serialize(
            method='POST',
            resource_path='/v1/events/{eventId}/redeliver',
            path_params=_path_params,
            query_params=_query_params,
            header_params=_header_params,
            body=_body_params,
            post_params=_form_params,
            files=_files,
            auth_settings=_auth_settings,
            collection_formats=_collection_formats,
            _host=_host,
            _request_auth=_request_auth
        )




    @validate_call
    def rotate_webhook_endpoint_secret(
        self,
        endpoint_id: Annotated[str, Field(strict=True, description="Webhook endpoint id (`we_…`).")],
        idempotency_key: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=255)]], Field(description="Optional client-chosen key (e.g. a UUID) that makes the request safe to retry. A retry with the same key and the same request within 24 hours returns the stored response (with `Idempotent-Replayed: true`); the same key with a different request fails with `idempotency_conflict` (409 on the hosted contract's operations, 422 on ours), and while the first request is still running with 409 `idempotency_in_progress` (on the hosted contract's operations but refunds: 409 `idempotency_conflict`, `reason: idempotency_in_progress`).")] = None,
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        rotate_webhook_secret_request: Annotated[Optional[RotateWebhookSecretRequest], Field(description="How long the previous secret stays valid.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> WebhookEndpointWithSecretResponse:
        """Rotate the signing secret

        Issues a new signing secret, returned once. For `overlapSeconds` (default 86400, at most 604800; 0 ends it at once) the previous secret stays valid: each delivery then carries two signatures in `webhook-signature`, one per secret, so receivers can switch over without dropping events. A second rotation within the overlap replaces the previous secret.

        :param endpoint_id: Webhook endpoint id (`we_…`). (required)
        :type endpoint_id: str
        :param idempotency_key: Optional client-chosen key (e.g. a UUID) that makes the request safe to retry. A retry with the same key and the same request within 24 hours returns the stored response (with `Idempotent-Replayed: true`); the same key with a different request fails with `idempotency_conflict` (409 on the hosted contract's operations, 422 on ours), and while the first request is still running with 409 `idempotency_in_progress` (on the hosted contract's operations but refunds: 409 `idempotency_conflict`, `reason: idempotency_in_progress`).
        :type idempotency_key: str
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param rotate_webhook_secret_request: How long the previous secret stays valid.
        :type rotate_webhook_secret_request: RotateWebhookSecretRequest
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._rotate_webhook_endpoint_secret_serialize(
            endpoint_id=endpoint_id,
            idempotency_key=idempotency_key,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            rotate_webhook_secret_request=rotate_webhook_secret_request,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "WebhookEndpointWithSecretResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '409': "ApiError",
            '413': "ApiError",
            '415': "ApiError",
            '422': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        ).data


    @validate_call
    def rotate_webhook_endpoint_secret_with_http_info(
        self,
        endpoint_id: Annotated[str, Field(strict=True, description="Webhook endpoint id (`we_…`).")],
        idempotency_key: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=255)]], Field(description="Optional client-chosen key (e.g. a UUID) that makes the request safe to retry. A retry with the same key and the same request within 24 hours returns the stored response (with `Idempotent-Replayed: true`); the same key with a different request fails with `idempotency_conflict` (409 on the hosted contract's operations, 422 on ours), and while the first request is still running with 409 `idempotency_in_progress` (on the hosted contract's operations but refunds: 409 `idempotency_conflict`, `reason: idempotency_in_progress`).")] = None,
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        rotate_webhook_secret_request: Annotated[Optional[RotateWebhookSecretRequest], Field(description="How long the previous secret stays valid.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> ApiResponse[WebhookEndpointWithSecretResponse]:
        """Rotate the signing secret

        Issues a new signing secret, returned once. For `overlapSeconds` (default 86400, at most 604800; 0 ends it at once) the previous secret stays valid: each delivery then carries two signatures in `webhook-signature`, one per secret, so receivers can switch over without dropping events. A second rotation within the overlap replaces the previous secret.

        :param endpoint_id: Webhook endpoint id (`we_…`). (required)
        :type endpoint_id: str
        :param idempotency_key: Optional client-chosen key (e.g. a UUID) that makes the request safe to retry. A retry with the same key and the same request within 24 hours returns the stored response (with `Idempotent-Replayed: true`); the same key with a different request fails with `idempotency_conflict` (409 on the hosted contract's operations, 422 on ours), and while the first request is still running with 409 `idempotency_in_progress` (on the hosted contract's operations but refunds: 409 `idempotency_conflict`, `reason: idempotency_in_progress`).
        :type idempotency_key: str
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param rotate_webhook_secret_request: How long the previous secret stays valid.
        :type rotate_webhook_secret_request: RotateWebhookSecretRequest
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._rotate_webhook_endpoint_secret_serialize(
            endpoint_id=endpoint_id,
            idempotency_key=idempotency_key,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            rotate_webhook_secret_request=rotate_webhook_secret_request,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "WebhookEndpointWithSecretResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '409': "ApiError",
            '413': "ApiError",
            '415': "ApiError",
            '422': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        )


    @validate_call
    def rotate_webhook_endpoint_secret_without_preload_content(
        self,
        endpoint_id: Annotated[str, Field(strict=True, description="Webhook endpoint id (`we_…`).")],
        idempotency_key: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=255)]], Field(description="Optional client-chosen key (e.g. a UUID) that makes the request safe to retry. A retry with the same key and the same request within 24 hours returns the stored response (with `Idempotent-Replayed: true`); the same key with a different request fails with `idempotency_conflict` (409 on the hosted contract's operations, 422 on ours), and while the first request is still running with 409 `idempotency_in_progress` (on the hosted contract's operations but refunds: 409 `idempotency_conflict`, `reason: idempotency_in_progress`).")] = None,
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        rotate_webhook_secret_request: Annotated[Optional[RotateWebhookSecretRequest], Field(description="How long the previous secret stays valid.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> RESTResponseType:
        """Rotate the signing secret

        Issues a new signing secret, returned once. For `overlapSeconds` (default 86400, at most 604800; 0 ends it at once) the previous secret stays valid: each delivery then carries two signatures in `webhook-signature`, one per secret, so receivers can switch over without dropping events. A second rotation within the overlap replaces the previous secret.

        :param endpoint_id: Webhook endpoint id (`we_…`). (required)
        :type endpoint_id: str
        :param idempotency_key: Optional client-chosen key (e.g. a UUID) that makes the request safe to retry. A retry with the same key and the same request within 24 hours returns the stored response (with `Idempotent-Replayed: true`); the same key with a different request fails with `idempotency_conflict` (409 on the hosted contract's operations, 422 on ours), and while the first request is still running with 409 `idempotency_in_progress` (on the hosted contract's operations but refunds: 409 `idempotency_conflict`, `reason: idempotency_in_progress`).
        :type idempotency_key: str
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param rotate_webhook_secret_request: How long the previous secret stays valid.
        :type rotate_webhook_secret_request: RotateWebhookSecretRequest
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._rotate_webhook_endpoint_secret_serialize(
            endpoint_id=endpoint_id,
            idempotency_key=idempotency_key,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            rotate_webhook_secret_request=rotate_webhook_secret_request,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "WebhookEndpointWithSecretResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '409': "ApiError",
            '413': "ApiError",
            '415': "ApiError",
            '422': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        return response_data.response


    def _rotate_webhook_endpoint_secret_serialize(
        self,
        endpoint_id,
        idempotency_key,
        pay_version,
        wcp_version,
        api_version,
        sdk_name,
        sdk_version,
        sdk_platform,
        rotate_webhook_secret_request,
        _request_auth,
        _content_type,
        _headers,
        _host_index,
    ) -> RequestSerialized:

        _host = None

        _collection_formats: Dict[str, str] = {
        }

        _path_params: Dict[str, str] = {}
        _query_params: List[Tuple[str, str]] = []
        _header_params: Dict[str, Optional[str]] = _headers or {}
        _form_params: List[Tuple[str, str]] = []
        _files: Dict[
            str, Union[str, bytes, List[str], List[bytes], List[Tuple[str, bytes]]]
        ] = {}
        _body_params: Optional[bytes] = None

        # process the path parameters
        if endpoint_id is not None:
            _path_params['endpointId'] = endpoint_id
        # process the query parameters
        # process the header parameters
        if idempotency_key is not None:
            _header_params['Idempotency-Key'] = idempotency_key
        if pay_version is not None:
            _header_params['PAY-Version'] = pay_version
        if wcp_version is not None:
            _header_params['WCP-Version'] = wcp_version
        if api_version is not None:
            _header_params['Api-Version'] = api_version
        if sdk_name is not None:
            _header_params['Sdk-Name'] = sdk_name
        if sdk_version is not None:
            _header_params['Sdk-Version'] = sdk_version
        if sdk_platform is not None:
            _header_params['Sdk-Platform'] = sdk_platform
        # process the form parameters
        # process the body parameter
        if rotate_webhook_secret_request is not None:
            _body_params = rotate_webhook_secret_request


        # set the HTTP header `Accept`
        if 'Accept' not in _header_params:
            _header_params['Accept'] = self.api_client.select_header_accept(
                [
                    'application/json'
                ]
            )

        # set the HTTP header `Content-Type`
        if _content_type:
            _header_params['Content-Type'] = _content_type
        else:
            _default_content_type = (
                self.api_client.select_header_content_type(
                    [
                        'application/json'
                    ]
                )
            )
            if _default_content_type is not None:
                _header_params['Content-Type'] = _default_content_type

        # authentication setting
        _auth_settings: List[str] = [
            'ApiKey'
        ]

        return self.api_client.param_serialize(
            method='POST',
            resource_path='/v1/webhook-endpoints/{endpointId}/rotate-secret',
            path_params=_path_params,
            query_params=_query_params,
            header_params=_header_params,
            body=_body_params,
            post_params=_form_params,
            files=_files,
            auth_settings=_auth_settings,
            collection_formats=_collection_formats,
            _host=_host,
            _request_auth=_request_auth
        )




    @validate_call
    def update_webhook_endpoint(
        self,
        endpoint_id: Annotated[str, Field(strict=True, description="Webhook endpoint id (`we_…`).")],
        update_webhook_endpoint_request: Annotated[UpdateWebhookEndpointRequest, Field(description="The fields to change (at least one).")],
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> WebhookEndpointResponse:
        """Update a webhook endpoint

        Changes the URL, the event types, the description, the payload format (`payloadFormat`: `paygate` or the hosted service's `2026-05-18`; an endpoint in `2026-05-18` may list only that format's seven payment types, else 400 `params_validation`), or the status. Setting `status` to `enabled` re- enables an endpoint that was disabled (by the partner or after persistent delivery failure) and clears `disabledReason`; deliveries that gave up meanwhile are not resent (redeliver them). Disabling stops pending deliveries to it.

        :param endpoint_id: Webhook endpoint id (`we_…`). (required)
        :type endpoint_id: str
        :param update_webhook_endpoint_request: The fields to change (at least one). (required)
        :type update_webhook_endpoint_request: UpdateWebhookEndpointRequest
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._update_webhook_endpoint_serialize(
            endpoint_id=endpoint_id,
            update_webhook_endpoint_request=update_webhook_endpoint_request,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "WebhookEndpointResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '413': "ApiError",
            '415': "ApiError",
            '422': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        ).data


    @validate_call
    def update_webhook_endpoint_with_http_info(
        self,
        endpoint_id: Annotated[str, Field(strict=True, description="Webhook endpoint id (`we_…`).")],
        update_webhook_endpoint_request: Annotated[UpdateWebhookEndpointRequest, Field(description="The fields to change (at least one).")],
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> ApiResponse[WebhookEndpointResponse]:
        """Update a webhook endpoint

        Changes the URL, the event types, the description, the payload format (`payloadFormat`: `paygate` or the hosted service's `2026-05-18`; an endpoint in `2026-05-18` may list only that format's seven payment types, else 400 `params_validation`), or the status. Setting `status` to `enabled` re- enables an endpoint that was disabled (by the partner or after persistent delivery failure) and clears `disabledReason`; deliveries that gave up meanwhile are not resent (redeliver them). Disabling stops pending deliveries to it.

        :param endpoint_id: Webhook endpoint id (`we_…`). (required)
        :type endpoint_id: str
        :param update_webhook_endpoint_request: The fields to change (at least one). (required)
        :type update_webhook_endpoint_request: UpdateWebhookEndpointRequest
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._update_webhook_endpoint_serialize(
            endpoint_id=endpoint_id,
            update_webhook_endpoint_request=update_webhook_endpoint_request,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "WebhookEndpointResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '413': "ApiError",
            '415': "ApiError",
            '422': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        response_data.read()
        return self.api_client.response_deserialize(
            response_data=response_data,
            response_types_map=_response_types_map,
        )


    @validate_call
    def update_webhook_endpoint_without_preload_content(
        self,
        endpoint_id: Annotated[str, Field(strict=True, description="Webhook endpoint id (`we_…`).")],
        update_webhook_endpoint_request: Annotated[UpdateWebhookEndpointRequest, Field(description="The fields to change (at least one).")],
        pay_version: Annotated[Optional[StrictStr], Field(description="API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.")] = None,
        wcp_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.")] = None,
        api_version: Annotated[Optional[StrictStr], Field(description="Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.")] = None,
        sdk_name: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Name of the calling SDK, for diagnostics.")] = None,
        sdk_version: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Version of the calling SDK, for diagnostics.")] = None,
        sdk_platform: Annotated[Optional[Annotated[str, Field(min_length=1, strict=True, max_length=128)]], Field(description="Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.")] = None,
        _request_timeout: Union[
            None,
            Annotated[StrictFloat, Field(gt=0)],
            Tuple[
                Annotated[StrictFloat, Field(gt=0)],
                Annotated[StrictFloat, Field(gt=0)]
            ]
        ] = None,
        _request_auth: Optional[Dict[StrictStr, Any]] = None,
        _content_type: Optional[StrictStr] = None,
        _headers: Optional[Dict[StrictStr, Any]] = None,
        _host_index: Annotated[StrictInt, Field(ge=0, le=0)] = 0,
    ) -> RESTResponseType:
        """Update a webhook endpoint

        Changes the URL, the event types, the description, the payload format (`payloadFormat`: `paygate` or the hosted service's `2026-05-18`; an endpoint in `2026-05-18` may list only that format's seven payment types, else 400 `params_validation`), or the status. Setting `status` to `enabled` re- enables an endpoint that was disabled (by the partner or after persistent delivery failure) and clears `disabledReason`; deliveries that gave up meanwhile are not resent (redeliver them). Disabling stops pending deliveries to it.

        :param endpoint_id: Webhook endpoint id (`we_…`). (required)
        :type endpoint_id: str
        :param update_webhook_endpoint_request: The fields to change (at least one). (required)
        :type update_webhook_endpoint_request: UpdateWebhookEndpointRequest
        :param pay_version: API version to use, e.g. `2026-02-18` or `2026-02-19.preview`. `WCP-Version` and `Api-Version` are accepted synonyms; if several are sent and differ the request fails with 400 `conflicting_api_versions`. Without any of them the account's default version is used (a `.preview` version is never a default and must be sent on every request). Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`.
        :type pay_version: str
        :param wcp_version: Synonym of `PAY-Version`, sent by existing wallet SDKs. See `PAY-Version`.
        :type wcp_version: str
        :param api_version: Synonym of `PAY-Version`, sent by some SDKs. See `PAY-Version`.
        :type api_version: str
        :param sdk_name: Name of the calling SDK, for diagnostics.
        :type sdk_name: str
        :param sdk_version: Version of the calling SDK, for diagnostics.
        :type sdk_version: str
        :param sdk_platform: Platform of the calling SDK (e.g. `node`, `ios`, `android`, `web`), for diagnostics.
        :type sdk_platform: str
        :param _request_timeout: timeout setting for this request. If one
                                 number provided, it will be total request
                                 timeout. It can also be a pair (tuple) of
                                 (connection, read) timeouts.
        :type _request_timeout: int, tuple(int, int), optional
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the
                              authentication in the spec for a single request.
        :type _request_auth: dict, optional
        :param _content_type: force content-type for the request.
        :type _content_type: str, Optional
        :param _headers: set to override the headers for a single
                         request; this effectively ignores the headers
                         in the spec for a single request.
        :type _headers: dict, optional
        :param _host_index: set to override the host_index for a single
                            request; this effectively ignores the host_index
                            in the spec for a single request.
        :type _host_index: int, optional
        :return: Returns the result object.
        """ # noqa: E501

        _param = self._update_webhook_endpoint_serialize(
            endpoint_id=endpoint_id,
            update_webhook_endpoint_request=update_webhook_endpoint_request,
            pay_version=pay_version,
            wcp_version=wcp_version,
            api_version=api_version,
            sdk_name=sdk_name,
            sdk_version=sdk_version,
            sdk_platform=sdk_platform,
            _request_auth=_request_auth,
            _content_type=_content_type,
            _headers=_headers,
            _host_index=_host_index
        )

        _response_types_map: Dict[str, Optional[str]] = {
            '200': "WebhookEndpointResponse",
            '400': "ApiError",
            '401': "ApiError",
            '403': "ApiError",
            '404': "ApiError",
            '413': "ApiError",
            '415': "ApiError",
            '422': "ApiError",
            '429': "ApiError",
            '500': "ApiError",
            '503': "ApiError",
        }
        response_data = self.api_client.call_api(
            *_param,
            _request_timeout=_request_timeout
        )
        return response_data.response


    def _update_webhook_endpoint_serialize(
        self,
        endpoint_id,
        update_webhook_endpoint_request,
        pay_version,
        wcp_version,
        api_version,
        sdk_name,
        sdk_version,
        sdk_platform,
        _request_auth,
        _content_type,
        _headers,
        _host_index,
    ) -> RequestSerialized:

        _host = None

        _collection_formats: Dict[str, str] = {
        }

        _path_params: Dict[str, str] = {}
        _query_params: List[Tuple[str, str]] = []
        _header_params: Dict[str, Optional[str]] = _headers or {}
        _form_params: List[Tuple[str, str]] = []
        _files: Dict[
            str, Union[str, bytes, List[str], List[bytes], List[Tuple[str, bytes]]]
        ] = {}
        _body_params: Optional[bytes] = None

        # process the path parameters
        if endpoint_id is not None:
            _path_params['endpointId'] = endpoint_id
        # process the query parameters
        # process the header parameters
        if pay_version is not None:
            _header_params['PAY-Version'] = pay_version
        if wcp_version is not None:
            _header_params['WCP-Version'] = wcp_version
        if api_version is not None:
            _header_params['Api-Version'] = api_version
        if sdk_name is not None:
            _header_params['Sdk-Name'] = sdk_name
        if sdk_version is not None:
            _header_params['Sdk-Version'] = sdk_version
        if sdk_platform is not None:
            _header_params['Sdk-Platform'] = sdk_platform
        # process the form parameters
        # process the body parameter
        if update_webhook_endpoint_request is not None:
            _body_params = update_webhook_endpoint_request


        # set the HTTP header `Accept`
        if 'Accept' not in _header_params:
            _header_params['Accept'] = self.api_client.select_header_accept(
                [
                    'application/json'
                ]
            )

        # set the HTTP header `Content-Type`
        if _content_type:
            _header_params['Content-Type'] = _content_type
        else:
            _default_content_type = (
                self.api_client.select_header_content_type(
                    [
                        'application/json'
                    ]
                )
            )
            if _default_content_type is not None:
                _header_params['Content-Type'] = _default_content_type

        # authentication setting
        _auth_settings: List[str] = [
            'ApiKey'
        ]

        return self.api_client.param_serialize(
            method='PATCH',
            resource_path='/v1/webhook-endpoints/{endpointId}',
            path_params=_path_params,
            query_params=_query_params,
            header_params=_header_params,
            body=_body_params,
            post_params=_form_params,
            files=_files,
            auth_settings=_auth_settings,
            collection_formats=_collection_formats,
            _host=_host,
            _request_auth=_request_auth
        )


