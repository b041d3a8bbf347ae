/* tslint:disable */
/* eslint-disable */
/**
 * paygate API
 * paygate lets a partner account accept crypto payments on behalf of its merchants. The **merchant API** (tags Merchants, Settlements, Payments) is called by the partner\'s backend; the **gateway API** (tag Gateway) is called by the buyer\'s wallet to get payment options, sign and confirm.  ## Getting started  1. **Get a key.** The operator of this service creates your partner account and shows the API key once    (`npm run --silent admin -- accounts create --name \"Acme\"`). Send it in `Api-Key` on every request. 2. **Create a merchant** (the business that is paid):    `POST /v1/merchants` with `Idempotency-Key: <uuid>` and    `{\"merchantName\": \"Coffee Shop\", \"merchantEmail\": \"owner@coffee.example.com\"}` answers 201 with    `merchant.id` (`mrch_…`). 3. **Say where its funds settle**: `POST /v1/merchants/{merchantId}/settlements/crypto` with    `{\"settlements\": [{\"asset\": \"eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\",    \"destination\": \"eip155:8453:0x…\"}]}` (USDC on Base to the merchant\'s wallet). 4. **Create a payment**: `POST /v1/payments` with `Merchant-Id: mrch_…` and    `{\"referenceId\": \"order-42\", \"amount\": {\"unit\": \"iso4217/USD\", \"value\": \"1000\"}}` (USD 10.00).    The response carries `paymentId` and `gatewayUrl`, the buyer link: open it in a browser for the    hosted payment page (merchant, amount, a QR code of the link, live status), or hand it to a wallet. 5. **Follow it**: `GET /v1/payments/{id}/status?maxPollMs=25000` long-polls until the status changes;    stop when `isFinal` is true. Webhooks are the production alternative.  ```sh curl -s $BASE/v1/payments -H \"Api-Key: $KEY\" -H \"Merchant-Id: $MERCHANT\" -H \'Content-Type: application/json\' \\   -d \'{\"referenceId\":\"order-42\",\"amount\":{\"unit\":\"iso4217/USD\",\"value\":\"1000\"}}\' ```  The wallet\'s side is the Gateway flow below. This reference is served by every paygate instance at `/docs/<version>` (`/docs` opens the stable version).  ## Authentication  - Merchant API: send the partner\'s API key in the `Api-Key` header. Payment operations also need   `Merchant-Id`, naming the merchant the request acts for. - Gateway API: send a wallet key in `Api-Key`, or identify the app with `App-Id` and `Client-Id`.   Gateway access is not scoped to an account: the payment id in the buyer link is the capability. - No or unknown key: 401. A valid key acting on another account\'s merchant or payment: 403.  ## Gateway flow  A wallet reads the payment (`GET /v1/gateway/payment/{id}`), asks for options with the buyer\'s CAIP-10 accounts, runs each option\'s actions (an EIP-712 `eth_signTypedData_v4` of an EIP-3009 authorization on the token: `ReceiveWithAuthorization` to this service\'s collector, or, for accounts in direct mode, `TransferWithAuthorization` to the merchant\'s settlement destination; for tokens without EIP-3009, such as USDT, a Permit2 `PermitTransferFrom` whose spender is this service\'s relayer, preceded, until the buyer has approved Permit2 for the token, by an `eth_sendTransaction` of that approve, whose gas the buyer pays once per token and chain), confirms with the results in the actions\' order (and, above the account\'s threshold, the buyer\'s collected data), then polls the status (`maxPollMs` long-polls) until `succeeded`. Confirm checks the signature and simulates the transfer on chain first: an authorization that cannot succeed (say, `insufficient_funds`) is refused and the payment stays payable. `succeeded` is published at the chain\'s confirmation depth, with `info.txId`; in collector mode a settlement transfer of amount minus fee to the merchant\'s destination follows, shown as `settlement.successful` on the payment (and a `payment.settled` event). The buyer may cancel (`cancelled_by_user`) or decline (`failed`, `declined_user`) while the payment is `requires_action`. Without a version header, an `App-Id` caller gets the default version of the app\'s account.  ## Payment states  A payment starts in `requires_action` (waiting for the buyer). `succeeded`, `failed`, `expired` and `cancelled` are final: a final payment never changes again, its status has `isFinal: true` and `pollInMs: null`. Every transition is one database transaction that also emits one event.  ```text                        confirm                  chain_confirmed (create) --> requires_action ------------> processing ------------> succeeded                   |                            |                   |                            | chain_failed                   |                            v                   +--- decline --------------> failed    (failureCode declined_user)                   |                   +--- merchant_cancel, buyer_cancel ---> cancelled                   |                   +--- expire (past expiresAt) ---------> expired ```  | From | Transition | To | |---|---|---| | `requires_action` | `confirm` (gateway confirm accepted) | `processing` | | `processing` | `chain_confirmed` | `succeeded` | | `processing` | `chain_failed` | `failed` | | `requires_action` | `merchant_cancel` (`POST /v1/payments/{id}/cancel`) | `cancelled` | | `requires_action` | `buyer_cancel` (`POST /v1/gateway/payment/{id}/cancel`) | `cancelled` | | `requires_action` | `expire` (past `expiresAt`) | `expired` | | `requires_action` | `decline` (`POST /v1/gateway/payment/{id}/decline`) | `failed` |  A refund (`POST /v1/refunds`) sends the paid tokens back to the account that paid, from this service\'s collector, funded from the partner account\'s available balance there; it does not change the status of a `succeeded` payment, and once the whole payment is refunded it sets `refundedAt`.  ## Versioning  Versions are dates, chosen per request with the `PAY-Version` header (`WCP-Version` and `Api-Version` are accepted synonyms; if several are sent they must agree). Without a header the account\'s default version is used, pinned when the account is created. Every response echoes the version used in a `PAY-Version` header. Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`; there is no silent fallback. Paths keep `/v1/` whatever the date version.  | Version | Status | Contents | |---|---|---| | `2026-02-18` | stable | Merchants, settlements, payments, refunds, gateway. | | `2026-02-19.preview` | preview | `2026-02-18` plus optional `checkout` redirect URLs on payment creation, webhooks, partial refunds and the Refund object, and `GET /v1/balance`. A preview version must be sent on every request; it is never an account default and may still change. |  Within a version the service may add optional response fields: clients must ignore unknown fields.  Policy:  - A change that could break a client (a removed or renamed field, a new required input, a changed   meaning) is only ever released as a new dated version. Within a version only compatible additions   are made (new optional fields, new operations, new error codes). - Pin a version by sending `PAY-Version` on every request; the account default protects clients that   do not, and never moves on its own. - A `.preview` version is opt-in per request and may still change before it becomes a dated stable   version. Each preview is a compatible superset of the stable version it builds on (checked by a   diff tool in CI), so switching to it breaks nothing that works today. - Older versions keep working; retiring one is announced well in advance.  ## Errors  Every 4xx and 5xx response has the same JSON body, and every response (success too) carries a `Request-Id` header:  ```json {\"code\": \"params_validation\", \"message\": \"Request is invalid.\",  \"issues\": [{\"field\": \"/amount/value\", \"message\": \"must match pattern \\\"^[1-9][0-9]{0,30}$\\\"\"}],  \"requestId\": \"req_01JKZ3W8Q4T6N2M5B7C9D1F3GH\"} ```  Branch on `code`, never on `message`. On the operations of the hosted service\'s contract, the codes it documents for an operation and status are the ones answered there, and `reason` carries this service\'s more specific code: merchant, settlement and refund operations answer every 404 as `not_found` (`reason`: `merchant_not_found`, `settlement_not_found`, `payment_not_found`) and `invalid_params` as `params_validation`; gateway and payment operations answer an unknown option and missing buyer data as 400 `invalid_params` (`reason`: `option_not_found`, `collect_data_required`) and a malformed buyer account as 400 `params_validation` (`reason`: `invalid_account`); `idempotency_conflict` is 409 there, and a key still running is 409 `idempotency_conflict` (`reason`: `idempotency_in_progress`), except on refunds. Each operation\'s responses list its codes.   | Code | HTTP | Meaning | |---|---|---| | `params_validation` | 400 | The request does not match the schema; `issues` lists each problem. | | `invalid_params` | 400 | The body is not valid JSON, nests arrays and objects deeper than 32 levels, or a value is not acceptable. | | `missing_idempotency_key` | 400 | This operation requires the `Idempotency-Key` header. | | `collect_data_required` | 400 | The option needs buyer data that was not supplied. | | `payment_not_succeeded` | 400 | Only a succeeded payment can be refunded. | | `unknown_api_version` | 400 | The requested API version does not exist. | | `invalid_api_version` | 400 | The version header is malformed. | | `conflicting_api_versions` | 400 | `PAY-Version`, `WCP-Version` and `Api-Version` disagree. | | `missing_api_key` | 401 | No API key was sent. | | `invalid_api_key` | 401 | The API key is unknown or revoked. | | `invalid_token` | 401 | An operational endpoint (`/metrics` with `METRICS_TOKEN` set) needs `Authorization: Bearer <token>`. | | `session_required` | 401 | The partner dashboard\'s routes (`/dashboard/auth/_*`, `/dashboard/api/_*`, not API operations): no session cookie, or its session has expired or ended. | | `invalid_credentials` | 401 | Dashboard sign-in: the email or the password is wrong (the same answer for both). | | `totp_required` | 401 | Dashboard sign-in: this user signs in with a TOTP code too; send `totpCode`. Answered with 400 when an owner\'s invitation is accepted without one. | | `invalid_totp` | 401 | Dashboard sign-in or invitation: the TOTP code is wrong. | | `missing_merchant_id` | 401 | This operation requires the `Merchant-Id` header. | | `payment_required` | 402 | (Preview) `GET /v1/gateway/payment/{id}/x402`: pay over x402; the `PAYMENT-REQUIRED` header holds the payment\'s requirements, and its `error` why a payload was refused. | | `forbidden` | 403 | The key is valid but may not act on this account, merchant or payment. | | `key_restricted` | 403 | (Preview) The key is restricted and may not call this operation: a read-only key calls GET operations only, a key limited to merchants (`merchantIds`) only the operations naming one of them. | | `csrf_failed` | 403 | The partner dashboard: a request that changes something lacks `X-CSRF-Token`, or it is not the session\'s. | | `not_found` | 404 | No such route or resource. | | `payment_not_found` | 404 | No such payment. | | `merchant_not_found` | 404 | No such merchant (or it was deleted). | | `option_not_found` | 404 | No such payment option for this payment. | | `settlement_not_found` | 404 | No such crypto settlement for this merchant. | | `refund_not_found` | 404 | Preview: no such refund of this merchant. | | `webhook_endpoint_not_found` | 404 | No such webhook endpoint (or it was deleted). | | `event_not_found` | 404 | No such event. | | `api_key_not_found` | 404 | (Preview) No such API key of this account and mode. | | `invite_not_found` | 404 | The partner dashboard: the invitation is unknown, used or expired. | | `method_not_allowed` | 405 | The path exists but not with this method; see the `Allow` header. | | `idempotency_in_progress` | 409 | A request with the same `Idempotency-Key` is still running. | | `api_key_limit` | 409 | (Preview) The account has 100 API keys not revoked: revoke one first. | | `settlement_asset_conflict` | 409 | The merchant already has a settlement for this asset. | | `invalid_state` | 409 | The payment or merchant state does not allow this operation. | | `quote_expired` | 409 | The payment option expired; fetch options again. | | `approval_pending` | 409 | Confirm: the buyer\'s approve of Permit2 (its hash in the results) is not mined yet; confirm again after `Retry-After`. | | `transaction_not_found` | 409 | Confirm of a native-coin option: the chain\'s node does not know the transaction hash in the results yet (waited for a few seconds); confirm again after `Retry-After`. | | `price_stale` | 409 | Fetch of a native-coin option: the chain\'s price feed has not been updated within its heartbeat; ask for options again later. | | `price_moved` | 409 | Fetch of a native-coin option: the feed\'s price moved beyond the quote\'s tolerance since the option was quoted; ask for options again. | | `already_refunded` | 409 | The payment was already refunded. | | `refund_exceeds_payment` | 409 | Preview: the refund\'s `amount` is larger than what is left of the payment to refund (refunds not failed count). | | `too_many_refunds` | 409 | Preview: a payment takes at most 10 refunds not failed (the operator\'s `REFUND_MAX_PER_PAYMENT`), the last of them a refund of all that is left; a partial refund that would be the last is refused (a refund of all that is left never is). | | `webhook_endpoint_limit` | 409 | The account already has 16 webhook endpoints. | | `webhook_endpoint_disabled` | 409 | The webhook endpoint is disabled; enable it first. | | `no_webhook_endpoint` | 409 | No enabled webhook endpoint is subscribed to the event\'s type. | | `payment_expired` | 410 | The payment expired. | | `payload_too_large` | 413 | The request body is too large. | | `unsupported_media_type` | 415 | The request body must be `application/json`. | | `refund_below_minimum` | 422 | Preview: a partial refund\'s `amount` is below the minimum of its currency and chain (the message names it): the operator\'s floor, or what the refund\'s transfer costs in gas at the chain\'s fees now. A refund of all that is left is never refused for it. | | `idempotency_conflict` | 422 | The `Idempotency-Key` was already used with a different request (409 on the hosted contract\'s operations). | | `invalid_account` | 422 | A buyer account is not a valid CAIP-10 account id. | | `invalid_signature` | 422 | A signature does not verify against the option (as an EOA\'s, an ERC-1271 wallet\'s, or an ERC-6492 wallet\'s not deployed yet). | | `insufficient_funds` | 422 | Confirm: the buyer\'s token balance is below the option\'s amount (the payment stays payable). | | `allowance_insufficient` | 422 | Confirm: the buyer\'s allowance to Permit2 is below a Permit2 option\'s amount; send the option\'s approve first (the payment stays payable). | | `authorization_used` | 422 | Confirm: the authorization\'s nonce (or the Permit2 permit\'s nonce) was already used or cancelled on chain. | | `authorization_expired` | 422 | Confirm: the authorization\'s validity window (or the permit\'s deadline) has passed; fetch options again. | | `authorization_not_yet_valid` | 422 | Confirm: the authorization\'s `validAfter` is in the future. | | `token_refused` | 422 | Confirm: the token refuses the transfer (blacklisted account or paused token). | | `transaction_reverted` | 422 | Confirm: the token would revert the authorization for another reason. | | `transaction_mismatch` | 422 | Confirm of a native-coin option: the transaction is not the option\'s pay call (another chain, sender, recipient, value or calldata). | | `contract_wallet_not_accepted` | 422 | Confirm: the signer is a smart-contract wallet (ERC-1271, or ERC-6492 not deployed yet) whose signatures this service does not accept. | | `destination_zero_address` | 422 | Settlements: the destination is the zero address (tokens sent there are lost). | | `destination_token_contract` | 422 | Settlements: the destination is the asset\'s own token contract. | | `destination_permit2` | 422 | Settlements: the destination is the Permit2 contract. | | `destination_instance_key` | 422 | Settlements: the destination is one of this service\'s collector or relayer addresses. | | `destination_blacklisted` | 422 | Settlements: the token\'s issuer blacklists the destination, so the transfer would revert. | | `chain_not_served` | 422 | Settlements: the asset is on a chain this service does not settle on (`CHAINS`, the development chains). | | `asset_not_served` | 422 | Settlements: the asset is not one this service serves on its chain. Payment creation (409 `invalid_state`, `reason: asset_not_served`): none of the merchant\'s settlements in the payment\'s currency is on a chain that takes payments. | | `rate_limited` | 429 | Too many requests; see `Retry-After`. | | `too_many_reverts` | 429 | Confirm: too many of the buyer address\'s, the credential\'s or the account\'s payments\' submissions reverted on chain in the last 24 hours or are still in flight; see `Retry-After`. | | `internal_error` | 500 | Unexpected server error (never carries internals). | | `not_implemented` | 501 | The operation is not implemented in this release. | | `bad_gateway` | 502 | An upstream dependency returned an invalid response. | | `service_unavailable` | 503 | A dependency (e.g. the database) is unavailable; retry later. |  New codes may be added; treat an unknown code by its HTTP status.  ## Idempotency  `POST` operations accept an `Idempotency-Key` header (1 to 255 characters, e.g. a UUID); creating a merchant and creating crypto settlements require it. Keys are retained for **24 hours**. A retry with the same key and the same request returns the stored response, with `Idempotent-Replayed: true`, and has no further effect. The same key with a different request fails with `idempotency_conflict` (409 on the hosted contract\'s operations, 422 on the others); while the first request is still running, with 409 `idempotency_in_progress` and `Retry-After` (on the hosted contract\'s operations but refunds: 409 `idempotency_conflict` with `reason: idempotency_in_progress`). Keys are scoped to the account (gateway callers: to the calling key or app). After 24 hours a key is forgotten and may be reused for a new request.  ## Webhooks (2026-02-19.preview)  The preview version adds webhook endpoints (`/v1/webhook-endpoints`) and the events API (`/v1/events`). Every change of a payment writes one event in the same transaction; each event is POSTed to every enabled endpoint subscribed to its type, at least once, retried with exponential backoff and jitter for up to 3 days. Deliveries follow Standard Webhooks: `webhook-id` (the event id, the same on every retry), `webhook-timestamp`, and `webhook-signature` = `v1,` + base64 HMAC-SHA256 of `id.timestamp.rawBody` keyed with the base64-decoded part of the `whsec_` secret (two signatures while a rotated secret overlaps). Verify the raw body as received, and keep the highest `data.payment.version` applied per payment: events can arrive late or twice. Only a 2xx answer within the timeout counts; an endpoint that fails every attempt for 3 days is disabled with the reason recorded.  ## Pagination  Lists are cursor-based and ordered newest first (ties broken by id). Pass `limit` for the page size and, for the next page, the previous response\'s `nextCursor` as `cursor`; `nextCursor` is null on the last page. Cursors are opaque and stay valid while new items are inserted.  ## Money  Amounts are strings of integers in the smallest unit, never floats: fiat in minor units (`{\"unit\": \"iso4217/USD\", \"value\": \"1000\"}` is USD 10.00), tokens in their smallest unit (`{\"unit\": \"caip19/eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\", \"value\": \"10000000\"}` is 10 USDC on Base). Assets are CAIP-19 ids, accounts CAIP-10, chains CAIP-2. The payment lists\' stats are the exception the hosted contract imposes: their revenue is a JSON number in the currency\'s major unit (`40.5` is USD 40.50), written exactly from the integer minor units, and the deprecated list\'s `fiat_amount` a JSON integer. 
 *
 * The version of the OpenAPI document: 2026-02-19.preview
 * 
 *
 * NOTE: This class is auto generated by OpenAPI Generator (https://openapi-generator.tech).
 * https://openapi-generator.tech
 * Do not edit the class manually.
 */

import * as runtime from '../runtime';
import {
    type AccountSettingsResponse,
    AccountSettingsResponseFromJSON,
    AccountSettingsResponseToJSON,
} from '../models/AccountSettingsResponse';
import {
    type ApiError,
    ApiErrorFromJSON,
    ApiErrorToJSON,
} from '../models/ApiError';
import {
    type UpdateAccountSettingsRequest,
    UpdateAccountSettingsRequestFromJSON,
    UpdateAccountSettingsRequestToJSON,
} from '../models/UpdateAccountSettingsRequest';

export interface GetAccountSettingsRequest {
    pAYVersion?: GetAccountSettingsPAYVersionEnum;
    wCPVersion?: GetAccountSettingsWCPVersionEnum;
    apiVersion?: GetAccountSettingsApiVersionEnum;
    sdkName?: string;
    sdkVersion?: string;
    sdkPlatform?: string;
}

export interface UpdateAccountSettingsOperationRequest {
    updateAccountSettingsRequest: UpdateAccountSettingsRequest;
    pAYVersion?: UpdateAccountSettingsOperationPAYVersionEnum;
    wCPVersion?: UpdateAccountSettingsOperationWCPVersionEnum;
    apiVersion?: UpdateAccountSettingsOperationApiVersionEnum;
    sdkName?: string;
    sdkVersion?: string;
    sdkPlatform?: string;
}

/**
 * 
 */
export class AccountApi extends runtime.BaseAPI {

    /**
     * Creates request options for getAccountSettings without sending the request
     */
    async getAccountSettingsRequestOpts(requestParameters: GetAccountSettingsRequest): Promise<runtime.RequestOpts> {
        const queryParameters: any = {};

        const headerParameters: runtime.HTTPHeaders = {};

        if (requestParameters['pAYVersion'] != null) {
            headerParameters['PAY-Version'] = String(requestParameters['pAYVersion']);
        }

        if (requestParameters['wCPVersion'] != null) {
            headerParameters['WCP-Version'] = String(requestParameters['wCPVersion']);
        }

        if (requestParameters['apiVersion'] != null) {
            headerParameters['Api-Version'] = String(requestParameters['apiVersion']);
        }

        if (requestParameters['sdkName'] != null) {
            headerParameters['Sdk-Name'] = String(requestParameters['sdkName']);
        }

        if (requestParameters['sdkVersion'] != null) {
            headerParameters['Sdk-Version'] = String(requestParameters['sdkVersion']);
        }

        if (requestParameters['sdkPlatform'] != null) {
            headerParameters['Sdk-Platform'] = String(requestParameters['sdkPlatform']);
        }

        if (this.configuration && this.configuration.apiKey) {
            headerParameters["Api-Key"] = await this.configuration.apiKey("Api-Key"); // ApiKey authentication
        }


        let urlPath = `/v1/account/settings`;

        return {
            path: urlPath,
            method: 'GET',
            headers: headerParameters,
            query: queryParameters,
        };
    }

    /**
     * The key\'s account\'s settings: its refund reserve (docs/ledger.md \"Refund reserve\"), its own terms or the operator\'s defaults; and x402\'s `payTo` in collector mode, the account\'s own deposit address (docs/x402.md).
     * Get the account\'s settings
     */
    async getAccountSettingsRaw(requestParameters: GetAccountSettingsRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<runtime.ApiResponse<AccountSettingsResponse>> {
        const requestOptions = await this.getAccountSettingsRequestOpts(requestParameters);
        const response = await this.request(requestOptions, initOverrides);

        return new runtime.JSONApiResponse(response, (jsonValue) => AccountSettingsResponseFromJSON(jsonValue));
    }

    /**
     * The key\'s account\'s settings: its refund reserve (docs/ledger.md \"Refund reserve\"), its own terms or the operator\'s defaults; and x402\'s `payTo` in collector mode, the account\'s own deposit address (docs/x402.md).
     * Get the account\'s settings
     */
    async getAccountSettings(requestParameters: GetAccountSettingsRequest = {}, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<AccountSettingsResponse> {
        const response = await this.getAccountSettingsRaw(requestParameters, initOverrides);
        return await response.value();
    }

    /**
     * Creates request options for updateAccountSettings without sending the request
     */
    async updateAccountSettingsRequestOpts(requestParameters: UpdateAccountSettingsOperationRequest): Promise<runtime.RequestOpts> {
        if (requestParameters['updateAccountSettingsRequest'] == null) {
            throw new runtime.RequiredError(
                'updateAccountSettingsRequest',
                'Required parameter "updateAccountSettingsRequest" was null or undefined when calling updateAccountSettings().'
            );
        }

        const queryParameters: any = {};

        const headerParameters: runtime.HTTPHeaders = {};

        headerParameters['Content-Type'] = 'application/json';

        if (requestParameters['pAYVersion'] != null) {
            headerParameters['PAY-Version'] = String(requestParameters['pAYVersion']);
        }

        if (requestParameters['wCPVersion'] != null) {
            headerParameters['WCP-Version'] = String(requestParameters['wCPVersion']);
        }

        if (requestParameters['apiVersion'] != null) {
            headerParameters['Api-Version'] = String(requestParameters['apiVersion']);
        }

        if (requestParameters['sdkName'] != null) {
            headerParameters['Sdk-Name'] = String(requestParameters['sdkName']);
        }

        if (requestParameters['sdkVersion'] != null) {
            headerParameters['Sdk-Version'] = String(requestParameters['sdkVersion']);
        }

        if (requestParameters['sdkPlatform'] != null) {
            headerParameters['Sdk-Platform'] = String(requestParameters['sdkPlatform']);
        }

        if (this.configuration && this.configuration.apiKey) {
            headerParameters["Api-Key"] = await this.configuration.apiKey("Api-Key"); // ApiKey authentication
        }


        let urlPath = `/v1/account/settings`;

        return {
            path: urlPath,
            method: 'PUT',
            headers: headerParameters,
            query: queryParameters,
            body: UpdateAccountSettingsRequestToJSON(requestParameters['updateAccountSettingsRequest']),
        };
    }

    /**
     * Sets the account\'s refund reserve: `bps` basis points of each collected payment\'s merchant share held for `windowMinutes` minutes for refunds (payments collected from now on), or null to follow the operator\'s defaults. A value out of range is 400 `params_validation` with the field in `issues`.
     * Change the account\'s settings
     */
    async updateAccountSettingsRaw(requestParameters: UpdateAccountSettingsOperationRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<runtime.ApiResponse<AccountSettingsResponse>> {
        const requestOptions = await this.updateAccountSettingsRequestOpts(requestParameters);
        const response = await this.request(requestOptions, initOverrides);

        return new runtime.JSONApiResponse(response, (jsonValue) => AccountSettingsResponseFromJSON(jsonValue));
    }

    /**
     * Sets the account\'s refund reserve: `bps` basis points of each collected payment\'s merchant share held for `windowMinutes` minutes for refunds (payments collected from now on), or null to follow the operator\'s defaults. A value out of range is 400 `params_validation` with the field in `issues`.
     * Change the account\'s settings
     */
    async updateAccountSettings(requestParameters: UpdateAccountSettingsOperationRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<AccountSettingsResponse> {
        const response = await this.updateAccountSettingsRaw(requestParameters, initOverrides);
        return await response.value();
    }

}

/**
 * @export
 */
export const GetAccountSettingsPAYVersionEnum = {
    _20260218: '2026-02-18',
    _20260219Preview: '2026-02-19.preview'
} as const;
export type GetAccountSettingsPAYVersionEnum = typeof GetAccountSettingsPAYVersionEnum[keyof typeof GetAccountSettingsPAYVersionEnum];
/**
 * @export
 */
export const GetAccountSettingsWCPVersionEnum = {
    _20260218: '2026-02-18',
    _20260219Preview: '2026-02-19.preview'
} as const;
export type GetAccountSettingsWCPVersionEnum = typeof GetAccountSettingsWCPVersionEnum[keyof typeof GetAccountSettingsWCPVersionEnum];
/**
 * @export
 */
export const GetAccountSettingsApiVersionEnum = {
    _20260218: '2026-02-18',
    _20260219Preview: '2026-02-19.preview'
} as const;
export type GetAccountSettingsApiVersionEnum = typeof GetAccountSettingsApiVersionEnum[keyof typeof GetAccountSettingsApiVersionEnum];
/**
 * @export
 */
export const UpdateAccountSettingsOperationPAYVersionEnum = {
    _20260218: '2026-02-18',
    _20260219Preview: '2026-02-19.preview'
} as const;
export type UpdateAccountSettingsOperationPAYVersionEnum = typeof UpdateAccountSettingsOperationPAYVersionEnum[keyof typeof UpdateAccountSettingsOperationPAYVersionEnum];
/**
 * @export
 */
export const UpdateAccountSettingsOperationWCPVersionEnum = {
    _20260218: '2026-02-18',
    _20260219Preview: '2026-02-19.preview'
} as const;
export type UpdateAccountSettingsOperationWCPVersionEnum = typeof UpdateAccountSettingsOperationWCPVersionEnum[keyof typeof UpdateAccountSettingsOperationWCPVersionEnum];
/**
 * @export
 */
export const UpdateAccountSettingsOperationApiVersionEnum = {
    _20260218: '2026-02-18',
    _20260219Preview: '2026-02-19.preview'
} as const;
export type UpdateAccountSettingsOperationApiVersionEnum = typeof UpdateAccountSettingsOperationApiVersionEnum[keyof typeof UpdateAccountSettingsOperationApiVersionEnum];
