"""
    paygate API

    paygate lets a partner account accept crypto payments on behalf of its merchants. The **merchant API** (tags Merchants, Settlements, Payments) is called by the partner's backend; the **gateway API** (tag Gateway) is called by the buyer's wallet to get payment options, sign and confirm.  ## Getting started  1. **Get a key.** The operator of this service creates your partner account and shows the API key once    (`npm run --silent admin -- accounts create --name \"Acme\"`). Send it in `Api-Key` on every request. 2. **Create a merchant** (the business that is paid):    `POST /v1/merchants` with `Idempotency-Key: <uuid>` and    `{\"merchantName\": \"Coffee Shop\", \"merchantEmail\": \"owner@coffee.example.com\"}` answers 201 with    `merchant.id` (`mrch_…`). 3. **Say where its funds settle**: `POST /v1/merchants/{merchantId}/settlements/crypto` with    `{\"settlements\": [{\"asset\": \"eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\",    \"destination\": \"eip155:8453:0x…\"}]}` (USDC on Base to the merchant's wallet). 4. **Create a payment**: `POST /v1/payments` with `Merchant-Id: mrch_…` and    `{\"referenceId\": \"order-42\", \"amount\": {\"unit\": \"iso4217/USD\", \"value\": \"1000\"}}` (USD 10.00).    The response carries `paymentId` and `gatewayUrl`, the buyer link: open it in a browser for the    hosted payment page (merchant, amount, a QR code of the link, live status), or hand it to a wallet. 5. **Follow it**: `GET /v1/payments/{id}/status?maxPollMs=25000` long-polls until the status changes;    stop when `isFinal` is true. Webhooks are the production alternative.  ```sh curl -s $BASE/v1/payments -H \"Api-Key: $KEY\" -H \"Merchant-Id: $MERCHANT\" -H 'Content-Type: application/json' \\   -d '{\"referenceId\":\"order-42\",\"amount\":{\"unit\":\"iso4217/USD\",\"value\":\"1000\"}}' ```  The wallet's side is the Gateway flow below. This reference is served by every paygate instance at `/docs/<version>` (`/docs` opens the stable version).  ## Authentication  - Merchant API: send the partner's API key in the `Api-Key` header. Payment operations also need   `Merchant-Id`, naming the merchant the request acts for. - Gateway API: send a wallet key in `Api-Key`, or identify the app with `App-Id` and `Client-Id`.   Gateway access is not scoped to an account: the payment id in the buyer link is the capability. - No or unknown key: 401. A valid key acting on another account's merchant or payment: 403.  ## Gateway flow  A wallet reads the payment (`GET /v1/gateway/payment/{id}`), asks for options with the buyer's CAIP-10 accounts, runs each option's actions (an EIP-712 `eth_signTypedData_v4` of an EIP-3009 authorization on the token: `ReceiveWithAuthorization` to this service's collector, or, for accounts in direct mode, `TransferWithAuthorization` to the merchant's settlement destination; for tokens without EIP-3009, such as USDT, a Permit2 `PermitTransferFrom` whose spender is this service's relayer, preceded, until the buyer has approved Permit2 for the token, by an `eth_sendTransaction` of that approve, whose gas the buyer pays once per token and chain), confirms with the results in the actions' order (and, above the account's threshold, the buyer's collected data), then polls the status (`maxPollMs` long-polls) until `succeeded`. Confirm checks the signature and simulates the transfer on chain first: an authorization that cannot succeed (say, `insufficient_funds`) is refused and the payment stays payable. `succeeded` is published at the chain's confirmation depth, with `info.txId`; in collector mode a settlement transfer of amount minus fee to the merchant's destination follows, shown as `settlement.successful` on the payment (and a `payment.settled` event). The buyer may cancel (`cancelled_by_user`) or decline (`failed`, `declined_user`) while the payment is `requires_action`. Without a version header, an `App-Id` caller gets the default version of the app's account.  ## Payment states  A payment starts in `requires_action` (waiting for the buyer). `succeeded`, `failed`, `expired` and `cancelled` are final: a final payment never changes again, its status has `isFinal: true` and `pollInMs: null`. Every transition is one database transaction that also emits one event.  ```text                        confirm                  chain_confirmed (create) --> requires_action ------------> processing ------------> succeeded                   |                            |                   |                            | chain_failed                   |                            v                   +--- decline --------------> failed    (failureCode declined_user)                   |                   +--- merchant_cancel, buyer_cancel ---> cancelled                   |                   +--- expire (past expiresAt) ---------> expired ```  | From | Transition | To | |---|---|---| | `requires_action` | `confirm` (gateway confirm accepted) | `processing` | | `processing` | `chain_confirmed` | `succeeded` | | `processing` | `chain_failed` | `failed` | | `requires_action` | `merchant_cancel` (`POST /v1/payments/{id}/cancel`) | `cancelled` | | `requires_action` | `buyer_cancel` (`POST /v1/gateway/payment/{id}/cancel`) | `cancelled` | | `requires_action` | `expire` (past `expiresAt`) | `expired` | | `requires_action` | `decline` (`POST /v1/gateway/payment/{id}/decline`) | `failed` |  A refund (`POST /v1/refunds`) sends the paid tokens back to the account that paid, from this service's collector, funded from the partner account's available balance there; it does not change the status of a `succeeded` payment, and once the whole payment is refunded it sets `refundedAt`.  ## Versioning  Versions are dates, chosen per request with the `PAY-Version` header (`WCP-Version` and `Api-Version` are accepted synonyms; if several are sent they must agree). Without a header the account's default version is used, pinned when the account is created. Every response echoes the version used in a `PAY-Version` header. Unknown versions fail with 400 `unknown_api_version`, malformed ones with 400 `invalid_api_version`; there is no silent fallback. Paths keep `/v1/` whatever the date version.  | Version | Status | Contents | |---|---|---| | `2026-02-18` | stable | Merchants, settlements, payments, refunds, gateway. | | `2026-02-19.preview` | preview | `2026-02-18` plus optional `checkout` redirect URLs on payment creation, webhooks, partial refunds and the Refund object, and `GET /v1/balance`. A preview version must be sent on every request; it is never an account default and may still change. |  Within a version the service may add optional response fields: clients must ignore unknown fields.  Policy:  - A change that could break a client (a removed or renamed field, a new required input, a changed   meaning) is only ever released as a new dated version. Within a version only compatible additions   are made (new optional fields, new operations, new error codes). - Pin a version by sending `PAY-Version` on every request; the account default protects clients that   do not, and never moves on its own. - A `.preview` version is opt-in per request and may still change before it becomes a dated stable   version. Each preview is a compatible superset of the stable version it builds on (checked by a   diff tool in CI), so switching to it breaks nothing that works today. - Older versions keep working; retiring one is announced well in advance.  ## Errors  Every 4xx and 5xx response has the same JSON body, and every response (success too) carries a `Request-Id` header:  ```json {\"code\": \"params_validation\", \"message\": \"Request is invalid.\",  \"issues\": [{\"field\": \"/amount/value\", \"message\": \"must match pattern \\\"^[1-9][0-9]{0,30}$\\\"\"}],  \"requestId\": \"req_01JKZ3W8Q4T6N2M5B7C9D1F3GH\"} ```  Branch on `code`, never on `message`. On the operations of the hosted service's contract, the codes it documents for an operation and status are the ones answered there, and `reason` carries this service's more specific code: merchant, settlement and refund operations answer every 404 as `not_found` (`reason`: `merchant_not_found`, `settlement_not_found`, `payment_not_found`) and `invalid_params` as `params_validation`; gateway and payment operations answer an unknown option and missing buyer data as 400 `invalid_params` (`reason`: `option_not_found`, `collect_data_required`) and a malformed buyer account as 400 `params_validation` (`reason`: `invalid_account`); `idempotency_conflict` is 409 there, and a key still running is 409 `idempotency_conflict` (`reason`: `idempotency_in_progress`), except on refunds. Each operation's responses list its codes.   | Code | HTTP | Meaning | |---|---|---| | `params_validation` | 400 | The request does not match the schema; `issues` lists each problem. | | `invalid_params` | 400 | The body is not valid JSON, nests arrays and objects deeper than 32 levels, or a value is not acceptable. | | `missing_idempotency_key` | 400 | This operation requires the `Idempotency-Key` header. | | `collect_data_required` | 400 | The option needs buyer data that was not supplied. | | `payment_not_succeeded` | 400 | Only a succeeded payment can be refunded. | | `unknown_api_version` | 400 | The requested API version does not exist. | | `invalid_api_version` | 400 | The version header is malformed. | | `conflicting_api_versions` | 400 | `PAY-Version`, `WCP-Version` and `Api-Version` disagree. | | `missing_api_key` | 401 | No API key was sent. | | `invalid_api_key` | 401 | The API key is unknown or revoked. | | `invalid_token` | 401 | An operational endpoint (`/metrics` with `METRICS_TOKEN` set) needs `Authorization: Bearer <token>`. | | `session_required` | 401 | The partner dashboard's routes (`/dashboard/auth/*`, `/dashboard/api/*`, not API operations): no session cookie, or its session has expired or ended. | | `invalid_credentials` | 401 | Dashboard sign-in: the email or the password is wrong (the same answer for both). | | `totp_required` | 401 | Dashboard sign-in: this user signs in with a TOTP code too; send `totpCode`. Answered with 400 when an owner's invitation is accepted without one. | | `invalid_totp` | 401 | Dashboard sign-in or invitation: the TOTP code is wrong. | | `missing_merchant_id` | 401 | This operation requires the `Merchant-Id` header. | | `payment_required` | 402 | (Preview) `GET /v1/gateway/payment/{id}/x402`: pay over x402; the `PAYMENT-REQUIRED` header holds the payment's requirements, and its `error` why a payload was refused. | | `forbidden` | 403 | The key is valid but may not act on this account, merchant or payment. | | `key_restricted` | 403 | (Preview) The key is restricted and may not call this operation: a read-only key calls GET operations only, a key limited to merchants (`merchantIds`) only the operations naming one of them. | | `csrf_failed` | 403 | The partner dashboard: a request that changes something lacks `X-CSRF-Token`, or it is not the session's. | | `not_found` | 404 | No such route or resource. | | `payment_not_found` | 404 | No such payment. | | `merchant_not_found` | 404 | No such merchant (or it was deleted). | | `option_not_found` | 404 | No such payment option for this payment. | | `settlement_not_found` | 404 | No such crypto settlement for this merchant. | | `refund_not_found` | 404 | Preview: no such refund of this merchant. | | `webhook_endpoint_not_found` | 404 | No such webhook endpoint (or it was deleted). | | `event_not_found` | 404 | No such event. | | `api_key_not_found` | 404 | (Preview) No such API key of this account and mode. | | `invite_not_found` | 404 | The partner dashboard: the invitation is unknown, used or expired. | | `method_not_allowed` | 405 | The path exists but not with this method; see the `Allow` header. | | `idempotency_in_progress` | 409 | A request with the same `Idempotency-Key` is still running. | | `api_key_limit` | 409 | (Preview) The account has 100 API keys not revoked: revoke one first. | | `settlement_asset_conflict` | 409 | The merchant already has a settlement for this asset. | | `invalid_state` | 409 | The payment or merchant state does not allow this operation. | | `quote_expired` | 409 | The payment option expired; fetch options again. | | `approval_pending` | 409 | Confirm: the buyer's approve of Permit2 (its hash in the results) is not mined yet; confirm again after `Retry-After`. | | `transaction_not_found` | 409 | Confirm of a native-coin option: the chain's node does not know the transaction hash in the results yet (waited for a few seconds); confirm again after `Retry-After`. | | `price_stale` | 409 | Fetch of a native-coin option: the chain's price feed has not been updated within its heartbeat; ask for options again later. | | `price_moved` | 409 | Fetch of a native-coin option: the feed's price moved beyond the quote's tolerance since the option was quoted; ask for options again. | | `already_refunded` | 409 | The payment was already refunded. | | `refund_exceeds_payment` | 409 | Preview: the refund's `amount` is larger than what is left of the payment to refund (refunds not failed count). | | `too_many_refunds` | 409 | Preview: a payment takes at most 10 refunds not failed (the operator's `REFUND_MAX_PER_PAYMENT`), the last of them a refund of all that is left; a partial refund that would be the last is refused (a refund of all that is left never is). | | `webhook_endpoint_limit` | 409 | The account already has 16 webhook endpoints. | | `webhook_endpoint_disabled` | 409 | The webhook endpoint is disabled; enable it first. | | `no_webhook_endpoint` | 409 | No enabled webhook endpoint is subscribed to the event's type. | | `payment_expired` | 410 | The payment expired. | | `payload_too_large` | 413 | The request body is too large. | | `unsupported_media_type` | 415 | The request body must be `application/json`. | | `refund_below_minimum` | 422 | Preview: a partial refund's `amount` is below the minimum of its currency and chain (the message names it): the operator's floor, or what the refund's transfer costs in gas at the chain's fees now. A refund of all that is left is never refused for it. | | `idempotency_conflict` | 422 | The `Idempotency-Key` was already used with a different request (409 on the hosted contract's operations). | | `invalid_account` | 422 | A buyer account is not a valid CAIP-10 account id. | | `invalid_signature` | 422 | A signature does not verify against the option (as an EOA's, an ERC-1271 wallet's, or an ERC-6492 wallet's not deployed yet). | | `insufficient_funds` | 422 | Confirm: the buyer's token balance is below the option's amount (the payment stays payable). | | `allowance_insufficient` | 422 | Confirm: the buyer's allowance to Permit2 is below a Permit2 option's amount; send the option's approve first (the payment stays payable). | | `authorization_used` | 422 | Confirm: the authorization's nonce (or the Permit2 permit's nonce) was already used or cancelled on chain. | | `authorization_expired` | 422 | Confirm: the authorization's validity window (or the permit's deadline) has passed; fetch options again. | | `authorization_not_yet_valid` | 422 | Confirm: the authorization's `validAfter` is in the future. | | `token_refused` | 422 | Confirm: the token refuses the transfer (blacklisted account or paused token). | | `transaction_reverted` | 422 | Confirm: the token would revert the authorization for another reason. | | `transaction_mismatch` | 422 | Confirm of a native-coin option: the transaction is not the option's pay call (another chain, sender, recipient, value or calldata). | | `contract_wallet_not_accepted` | 422 | Confirm: the signer is a smart-contract wallet (ERC-1271, or ERC-6492 not deployed yet) whose signatures this service does not accept. | | `destination_zero_address` | 422 | Settlements: the destination is the zero address (tokens sent there are lost). | | `destination_token_contract` | 422 | Settlements: the destination is the asset's own token contract. | | `destination_permit2` | 422 | Settlements: the destination is the Permit2 contract. | | `destination_instance_key` | 422 | Settlements: the destination is one of this service's collector or relayer addresses. | | `destination_blacklisted` | 422 | Settlements: the token's issuer blacklists the destination, so the transfer would revert. | | `chain_not_served` | 422 | Settlements: the asset is on a chain this service does not settle on (`CHAINS`, the development chains). | | `asset_not_served` | 422 | Settlements: the asset is not one this service serves on its chain. Payment creation (409 `invalid_state`, `reason: asset_not_served`): none of the merchant's settlements in the payment's currency is on a chain that takes payments. | | `rate_limited` | 429 | Too many requests; see `Retry-After`. | | `too_many_reverts` | 429 | Confirm: too many of the buyer address's, the credential's or the account's payments' submissions reverted on chain in the last 24 hours or are still in flight; see `Retry-After`. | | `internal_error` | 500 | Unexpected server error (never carries internals). | | `not_implemented` | 501 | The operation is not implemented in this release. | | `bad_gateway` | 502 | An upstream dependency returned an invalid response. | | `service_unavailable` | 503 | A dependency (e.g. the database) is unavailable; retry later. |  New codes may be added; treat an unknown code by its HTTP status.  ## Idempotency  `POST` operations accept an `Idempotency-Key` header (1 to 255 characters, e.g. a UUID); creating a merchant and creating crypto settlements require it. Keys are retained for **24 hours**. A retry with the same key and the same request returns the stored response, with `Idempotent-Replayed: true`, and has no further effect. The same key with a different request fails with `idempotency_conflict` (409 on the hosted contract's operations, 422 on the others); while the first request is still running, with 409 `idempotency_in_progress` and `Retry-After` (on the hosted contract's operations but refunds: 409 `idempotency_conflict` with `reason: idempotency_in_progress`). Keys are scoped to the account (gateway callers: to the calling key or app). After 24 hours a key is forgotten and may be reused for a new request.  ## Webhooks (2026-02-19.preview)  The preview version adds webhook endpoints (`/v1/webhook-endpoints`) and the events API (`/v1/events`). Every change of a payment writes one event in the same transaction; each event is POSTed to every enabled endpoint subscribed to its type, at least once, retried with exponential backoff and jitter for up to 3 days. Deliveries follow Standard Webhooks: `webhook-id` (the event id, the same on every retry), `webhook-timestamp`, and `webhook-signature` = `v1,` + base64 HMAC-SHA256 of `id.timestamp.rawBody` keyed with the base64-decoded part of the `whsec_` secret (two signatures while a rotated secret overlaps). Verify the raw body as received, and keep the highest `data.payment.version` applied per payment: events can arrive late or twice. Only a 2xx answer within the timeout counts; an endpoint that fails every attempt for 3 days is disabled with the reason recorded.  ## Pagination  Lists are cursor-based and ordered newest first (ties broken by id). Pass `limit` for the page size and, for the next page, the previous response's `nextCursor` as `cursor`; `nextCursor` is null on the last page. Cursors are opaque and stay valid while new items are inserted.  ## Money  Amounts are strings of integers in the smallest unit, never floats: fiat in minor units (`{\"unit\": \"iso4217/USD\", \"value\": \"1000\"}` is USD 10.00), tokens in their smallest unit (`{\"unit\": \"caip19/eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\", \"value\": \"10000000\"}` is 10 USDC on Base). Assets are CAIP-19 ids, accounts CAIP-10, chains CAIP-2. The payment lists' stats are the exception the hosted contract imposes: their revenue is a JSON number in the currency's major unit (`40.5` is USD 40.50), written exactly from the integer minor units, and the deprecated list's `fiat_amount` a JSON integer. 

    The version of the OpenAPI document: 2026-02-19.preview
    Generated by OpenAPI Generator (https://openapi-generator.tech)

    Do not edit the class manually.
"""  # noqa: E501



import datetime
from dateutil.parser import parse
from enum import Enum
import decimal
import json
import mimetypes
import os
import re
import tempfile
import uuid

from urllib.parse import quote
from typing import Tuple, Optional, List, Dict, Union
from pydantic import SecretStr

from paygate_client.configuration import Configuration
from paygate_client.api_response import ApiResponse, T as ApiResponseT
import paygate_client.models
from paygate_client import rest
from paygate_client.exceptions import (
    ApiValueError,
    ApiException,
    BadRequestException,
    UnauthorizedException,
    ForbiddenException,
    NotFoundException,
    ServiceException
)

RequestSerialized = Tuple[str, str, Dict[str, str], Optional[str], List[str]]

class ApiClient:
    """Generic API client for OpenAPI client library builds.

    OpenAPI generic API client. This client handles the client-
    server communication, and is invariant across implementations. Specifics of
    the methods and models for each application are generated from the OpenAPI
    templates.

    :param configuration: .Configuration object for this client
    :param header_name: a header to pass when making calls to the API.
    :param header_value: a header value to pass when making calls to
        the API.
    :param cookie: a cookie to include in the header when making calls
        to the API
    """

    PRIMITIVE_TYPES = (float, bool, bytes, str, int)
    NATIVE_TYPES_MAPPING = {
        'int': int,
        'long': int, # TODO remove as only py3 is supported?
        'float': float,
        'str': str,
        'bool': bool,
        'date': datetime.date,
        'datetime': datetime.datetime,
        'decimal': decimal.Decimal,
        'UUID': uuid.UUID,
        'object': object,
    }
    _pool = None

    def __init__(
        self,
        configuration=None,
        header_name=None,
        header_value=None,
        cookie=None
    ) -> None:
        # use default configuration if none is provided
        if configuration is None:
            configuration = Configuration.get_default()
        self.configuration = configuration

        self.rest_client = rest.RESTClientObject(configuration)
        self.default_headers = {}
        if header_name is not None:
            self.default_headers[header_name] = header_value
        self.cookie = cookie
        # Set default User-Agent.
        self.user_agent = 'OpenAPI-Generator/0.1.0b20260219/python'
        self.client_side_validation = configuration.client_side_validation

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        pass

    @property
    def user_agent(self):
        """User agent for this API client"""
        return self.default_headers['User-Agent']

    @user_agent.setter
    def user_agent(self, value):
        self.default_headers['User-Agent'] = value

    def set_default_header(self, header_name, header_value):
        self.default_headers[header_name] = header_value


    _default = None

    @classmethod
    def get_default(cls):
        """Return new instance of ApiClient.

        This method returns newly created, based on default constructor,
        object of ApiClient class or returns a copy of default
        ApiClient.

        :return: The ApiClient object.
        """
        if cls._default is None:
            cls._default = ApiClient()
        return cls._default

    @classmethod
    def set_default(cls, default):
        """Set default instance of ApiClient.

        It stores default ApiClient.

        :param default: object of ApiClient.
        """
        cls._default = default

    def param_serialize(
        self,
        method,
        resource_path,
        path_params=None,
        query_params=None,
        header_params=None,
        body=None,
        post_params=None,
        files=None, auth_settings=None,
        collection_formats=None,
        _host=None,
        _request_auth=None
    ) -> RequestSerialized:

        """Builds the HTTP request params needed by the request.
        :param method: Method to call.
        :param resource_path: Path to method endpoint.
        :param path_params: Path parameters in the url.
        :param query_params: Query parameters in the url.
        :param header_params: Header parameters to be
            placed in the request header.
        :param body: Request body.
        :param post_params dict: Request post form parameters,
            for `application/x-www-form-urlencoded`, `multipart/form-data`.
        :param auth_settings list: Auth Settings names for the request.
        :param files dict: key -> filename, value -> filepath,
            for `multipart/form-data`.
        :param collection_formats: dict of collection formats for path, query,
            header, and post parameters.
        :param _request_auth: set to override the auth_settings for an a single
                              request; this effectively ignores the authentication
                              in the spec for a single request.
        :return: tuple of form (path, http_method, query_params, header_params,
            body, post_params, files)
        """

        config = self.configuration

        # header parameters
        header_params = header_params or {}
        header_params.update(self.default_headers)
        if self.cookie:
            header_params['Cookie'] = self.cookie
        if header_params:
            header_params = self.sanitize_for_serialization(header_params)
            header_params = dict(
                self.parameters_to_tuples(header_params,collection_formats)
            )

        # path parameters
        if path_params:
            path_params = self.sanitize_for_serialization(path_params)
            path_params = self.parameters_to_tuples(
                path_params,
                collection_formats
            )
            for k, v in path_params:
                # specified safe chars, encode everything
                resource_path = resource_path.replace(
                    '{%s}' % k,
                    quote(str(v), safe=config.safe_chars_for_path_param)
                )

        # post parameters
        if post_params or files:
            post_params = post_params if post_params else []
            post_params = self.sanitize_for_serialization(post_params)
            post_params = self.parameters_to_tuples(
                post_params,
                collection_formats
            )
            if files:
                post_params.extend(self.files_parameters(files))

        # auth setting
        self.update_params_for_auth(
            header_params,
            query_params,
            auth_settings,
            resource_path,
            method,
            body,
            request_auth=_request_auth
        )

        # body
        if body:
            body = self.sanitize_for_serialization(body)

        # request url
        if _host is None or self.configuration.ignore_operation_servers:
            url = self.configuration.host + resource_path
        else:
            # use server/host defined in path or operation instead
            url = _host + resource_path

        # query parameters
        if query_params:
            query_params = self.sanitize_for_serialization(query_params)
            url_query = self.parameters_to_url_query(
                query_params,
                collection_formats
            )
            url += "?" + url_query

        return method, url, header_params, body, post_params


    def call_api(
        self,
        method,
        url,
        header_params=None,
        body=None,
        post_params=None,
        _request_timeout=None
    ) -> rest.RESTResponse:
        """Makes the HTTP request (synchronous)
        :param method: Method to call.
        :param url: Path to method endpoint.
        :param header_params: Header parameters to be
            placed in the request header.
        :param body: Request body.
        :param post_params dict: Request post form parameters,
            for `application/x-www-form-urlencoded`, `multipart/form-data`.
        :param _request_timeout: timeout setting for this request.
        :return: RESTResponse
        """

        try:
            # perform request and return response
            response_data = self.rest_client.request(
                method, url,
                headers=header_params,
                body=body, post_params=post_params,
                _request_timeout=_request_timeout
            )

        except ApiException as e:
            raise e

        return response_data

    def response_deserialize(
        self,
        response_data: rest.RESTResponse,
        response_types_map: Optional[Dict[str, ApiResponseT]]=None
    ) -> ApiResponse[ApiResponseT]:
        """Deserializes response into an object.
        :param response_data: RESTResponse object to be deserialized.
        :param response_types_map: dict of response types.
        :return: ApiResponse
        """

        msg = "RESTResponse.read() must be called before passing it to response_deserialize()"
        assert response_data.data is not None, msg

        response_type = response_types_map.get(str(response_data.status), None)
        if not response_type and isinstance(response_data.status, int) and 100 <= response_data.status <= 599:
            # if not found, look for '1XX', '2XX', etc.
            response_type = response_types_map.get(str(response_data.status)[0] + "XX", None)

        # deserialize response data
        response_text = None
        return_data = None
        try:
            if response_type in ("bytearray", "bytes"):
                return_data = response_data.data
            elif response_type == "file":
                return_data = self.__deserialize_file(response_data)
            elif response_type is not None:
                match = None
                content_type = response_data.headers.get('content-type')
                if content_type is not None:
                    match = re.search(r"charset=([a-zA-Z\-\d]+)[\s;]?", content_type)
                encoding = match.group(1) if match else "utf-8"
                response_text = response_data.data.decode(encoding)
                return_data = self.deserialize(response_text, response_type, content_type)
        finally:
            if not 200 <= response_data.status <= 299:
                raise ApiException.from_response(
                    http_resp=response_data,
                    body=response_text,
                    data=return_data,
                )

        return ApiResponse(
            status_code = response_data.status,
            data = return_data,
            headers = response_data.headers,
            raw_data = response_data.data
        )

    def sanitize_for_serialization(self, obj):
        """Builds a JSON POST object.

        If obj is None, return None.
        If obj is SecretStr, return obj.get_secret_value()
        If obj is str, int, long, float, bool, return directly.
        If obj is datetime.datetime, datetime.date
            convert to string in iso8601 format.
        If obj is decimal.Decimal return string representation.
        If obj is list, sanitize each element in the list.
        If obj is dict, return the dict.
        If obj is OpenAPI model, return the properties dict.

        :param obj: The data to serialize.
        :return: The serialized form of data.
        """
        if obj is None:
            return None
        elif isinstance(obj, Enum):
            return obj.value
        elif isinstance(obj, SecretStr):
            return obj.get_secret_value()
        elif isinstance(obj, self.PRIMITIVE_TYPES):
            return obj
        elif isinstance(obj, uuid.UUID):
            return str(obj)
        elif isinstance(obj, list):
            return [
                self.sanitize_for_serialization(sub_obj) for sub_obj in obj
            ]
        elif isinstance(obj, tuple):
            return tuple(
                self.sanitize_for_serialization(sub_obj) for sub_obj in obj
            )
        elif isinstance(obj, (datetime.datetime, datetime.date)):
            return obj.isoformat()
        elif isinstance(obj, decimal.Decimal):
            return str(obj)
        elif isinstance(obj, dict):
            return {
                key: self.sanitize_for_serialization(val)
                for key, val in obj.items()
            }

        # Convert model obj to dict except
        # attributes `openapi_types`, `attribute_map`
        # and attributes which value is not None.
        # Convert attribute name to json key in
        # model definition for request.
        if hasattr(obj, 'to_dict') and callable(getattr(obj, 'to_dict')):
            obj_dict = obj.to_dict()
        else:
            obj_dict = obj.__dict__

        return self.sanitize_for_serialization(obj_dict)


    def deserialize(self, response_text: str, response_type: str, content_type: Optional[str]):
        """Deserializes response into an object.

        :param response: RESTResponse object to be deserialized.
        :param response_type: class literal for
            deserialized object, or string of class name.
        :param content_type: content type of response.

        :return: deserialized object.
        """

        # fetch data from response object
        if content_type is None:
            try:
                data = json.loads(response_text)
            except ValueError:
                data = response_text
        elif re.match(r'^application/(json|[\w!#$&.+\-^_]+\+json)\s*(;|$)', content_type, re.IGNORECASE):
            if response_text == "":
                data = ""
            else:
                data = json.loads(response_text)
        elif re.match(r'^text\/[a-z.+-]+\s*(;|$)', content_type, re.IGNORECASE):
            data = response_text
        else:
            raise ApiException(
                status=0,
                reason="Unsupported content type: {0}".format(content_type)
            )

        return self.__deserialize(data, response_type)

    def __deserialize(self, data, klass):
        """Deserializes dict, list, str into an object.

        :param data: dict, list or str.
        :param klass: class literal, or string of class name.

        :return: object.
        """
        if data is None:
            return None

        if isinstance(klass, str):
            if klass.startswith('List['):
                m = re.match(r'List\[(.*)]', klass)
                assert m is not None, "Malformed List type definition"
                sub_kls = m.group(1)
                return [self.__deserialize(sub_data, sub_kls)
                        for sub_data in data]

            if klass.startswith('Dict['):
                m = re.match(r'Dict\[([^,]*), (.*)]', klass)
                assert m is not None, "Malformed Dict type definition"
                sub_kls = m.group(2)
                return {k: self.__deserialize(v, sub_kls)
                        for k, v in data.items()}

            # convert str to class
            if klass in self.NATIVE_TYPES_MAPPING:
                klass = self.NATIVE_TYPES_MAPPING[klass]
            else:
                klass = getattr(paygate_client.models, klass)

        if klass in self.PRIMITIVE_TYPES:
            return self.__deserialize_primitive(data, klass)
        elif klass is object:
            return self.__deserialize_object(data)
        elif klass is datetime.date:
            return self.__deserialize_date(data)
        elif klass is datetime.datetime:
            return self.__deserialize_datetime(data)
        elif klass is decimal.Decimal:
            return decimal.Decimal(data)
        elif klass is uuid.UUID:
            return uuid.UUID(data)
        elif issubclass(klass, Enum):
            return self.__deserialize_enum(data, klass)
        else:
            return self.__deserialize_model(data, klass)

    def parameters_to_tuples(self, params, collection_formats):
        """Get parameters as list of tuples, formatting collections.

        :param params: Parameters as dict or list of two-tuples
        :param dict collection_formats: Parameter collection formats
        :return: Parameters as list of tuples, collections formatted
        """
        new_params: List[Tuple[str, str]] = []
        if collection_formats is None:
            collection_formats = {}
        for k, v in params.items() if isinstance(params, dict) else params:
            if k in collection_formats:
                collection_format = collection_formats[k]
                if collection_format == 'multi':
                    new_params.extend((k, value) for value in v)
                else:
                    if collection_format == 'ssv':
                        delimiter = ' '
                    elif collection_format == 'tsv':
                        delimiter = '\t'
                    elif collection_format == 'pipes':
                        delimiter = '|'
                    else:  # csv is the default
                        delimiter = ','
                    new_params.append(
                        (k, delimiter.join(str(value) for value in v)))
            else:
                new_params.append((k, v))
        return new_params

    def parameters_to_url_query(self, params, collection_formats):
        """Get parameters as list of tuples, formatting collections.

        :param params: Parameters as dict or list of two-tuples
        :param dict collection_formats: Parameter collection formats
        :return: URL query string (e.g. a=Hello%20World&b=123)
        """
        new_params: List[Tuple[str, str]] = []
        if collection_formats is None:
            collection_formats = {}
        for k, v in params.items() if isinstance(params, dict) else params:
            if isinstance(v, bool):
                v = str(v).lower()
            if isinstance(v, (int, float)):
                v = str(v)
            if isinstance(v, dict):
                v = json.dumps(v)

            if k in collection_formats:
                collection_format = collection_formats[k]
                if collection_format == 'multi':
                    new_params.extend((k, quote(str(value))) for value in v)
                else:
                    if collection_format == 'ssv':
                        delimiter = ' '
                    elif collection_format == 'tsv':
                        delimiter = '\t'
                    elif collection_format == 'pipes':
                        delimiter = '|'
                    else:  # csv is the default
                        delimiter = ','
                    new_params.append(
                        (k, delimiter.join(quote(str(value)) for value in v))
                    )
            else:
                new_params.append((k, quote(str(v))))

        return "&".join(["=".join(map(str, item)) for item in new_params])

    def files_parameters(
        self,
        files: Dict[str, Union[str, bytes, List[str], List[bytes], Tuple[str, bytes]]],
    ):
        """Builds form parameters.

        :param files: File parameters.
        :return: Form parameters with files.
        """
        params = []
        for k, v in files.items():
            if isinstance(v, str):
                with open(v, 'rb') as f:
                    filename = os.path.basename(f.name)
                    filedata = f.read()
            elif isinstance(v, bytes):
                filename = k
                filedata = v
            elif isinstance(v, tuple):
                filename, filedata = v
            elif isinstance(v, list):
                for file_param in v:
                    params.extend(self.files_parameters({k: file_param}))
                continue
            else:
                raise ValueError("Unsupported file value")
            mimetype = (
                mimetypes.guess_type(filename)[0]
                or 'application/octet-stream'
            )
            params.append(
                tuple([k, tuple([filename, filedata, mimetype])])
            )
        return params

    def select_header_accept(self, accepts: List[str]) -> Optional[str]:
        """Returns `Accept` based on an array of accepts provided.

        :param accepts: List of headers.
        :return: Accept (e.g. application/json).
        """
        if not accepts:
            return None

        for accept in accepts:
            if re.search('json', accept, re.IGNORECASE):
                return accept

        return accepts[0]

    def select_header_content_type(self, content_types):
        """Returns `Content-Type` based on an array of content_types provided.

        :param content_types: List of content-types.
        :return: Content-Type (e.g. application/json).
        """
        if not content_types:
            return None

        for content_type in content_types:
            if re.search('json', content_type, re.IGNORECASE):
                return content_type

        return content_types[0]

    def update_params_for_auth(
        self,
        headers,
        queries,
        auth_settings,
        resource_path,
        method,
        body,
        request_auth=None
    ) -> None:
        """Updates header and query params based on authentication setting.

        :param headers: Header parameters dict to be updated.
        :param queries: Query parameters tuple list to be updated.
        :param auth_settings: Authentication setting identifiers list.
        :resource_path: A string representation of the HTTP request resource path.
        :method: A string representation of the HTTP request method.
        :body: A object representing the body of the HTTP request.
        The object type is the return value of sanitize_for_serialization().
        :param request_auth: if set, the provided settings will
                             override the token in the configuration.
        """
        if not auth_settings:
            return

        if request_auth:
            self._apply_auth_params(
                headers,
                queries,
                resource_path,
                method,
                body,
                request_auth
            )
        else:
            for auth in auth_settings:
                auth_setting = self.configuration.auth_settings().get(auth)
                if auth_setting:
                    self._apply_auth_params(
                        headers,
                        queries,
                        resource_path,
                        method,
                        body,
                        auth_setting
                    )

    def _apply_auth_params(
        self,
        headers,
        queries,
        resource_path,
        method,
        body,
        auth_setting
    ) -> None:
        """Updates the request parameters based on a single auth_setting

        :param headers: Header parameters dict to be updated.
        :param queries: Query parameters tuple list to be updated.
        :resource_path: A string representation of the HTTP request resource path.
        :method: A string representation of the HTTP request method.
        :body: A object representing the body of the HTTP request.
        The object type is the return value of sanitize_for_serialization().
        :param auth_setting: auth settings for the endpoint
        """
        if auth_setting['in'] == 'cookie':
            headers['Cookie'] = auth_setting['value']
        elif auth_setting['in'] == 'header':
            if auth_setting['type'] != 'http-signature':
                headers[auth_setting['key']] = auth_setting['value']
        elif auth_setting['in'] == 'query':
            queries.append((auth_setting['key'], auth_setting['value']))
        else:
            raise ApiValueError(
                'Authentication token must be in `query` or `header`'
            )

    def __deserialize_file(self, response):
        """Deserializes body to file

        Saves response body into a file in a temporary folder,
        using the filename from the `Content-Disposition` header if provided.

        handle file downloading
        save response body into a tmp file and return the instance

        :param response:  RESTResponse.
        :return: file path.
        """
        fd, path = tempfile.mkstemp(dir=self.configuration.temp_folder_path)
        os.close(fd)
        os.remove(path)

        content_disposition = response.headers.get("Content-Disposition")
        if content_disposition:
            m = re.search(
                r'filename=[\'"]?([^\'"\s]+)[\'"]?',
                content_disposition
            )
            assert m is not None, "Unexpected 'content-disposition' header value"
            filename = os.path.basename(m.group(1))  # Strip any directory traversal
            if filename in ("", ".", ".."):  # fall back to tmp filename
                filename = os.path.basename(path)
            path = os.path.join(os.path.dirname(path), filename)

        with open(path, "wb") as f:
            f.write(response.data)

        return path

    def __deserialize_primitive(self, data, klass):
        """Deserializes string to primitive type.

        :param data: str.
        :param klass: class literal.

        :return: int, long, float, str, bool.
        """
        try:
            return klass(data)
        except UnicodeEncodeError:
            return str(data)
        except TypeError:
            return data

    def __deserialize_object(self, value):
        """Return an original value.

        :return: object.
        """
        return value

    def __deserialize_date(self, string):
        """Deserializes string to date.

        :param string: str.
        :return: date.
        """
        try:
            return parse(string).date()
        except ImportError:
            return string
        except ValueError:
            raise rest.ApiException(
                status=0,
                reason="Failed to parse `{0}` as date object".format(string)
            )

    def __deserialize_datetime(self, string):
        """Deserializes string to datetime.

        The string should be in iso8601 datetime format.

        :param string: str.
        :return: datetime.
        """
        try:
            return parse(string)
        except ImportError:
            return string
        except ValueError:
            raise rest.ApiException(
                status=0,
                reason=(
                    "Failed to parse `{0}` as datetime object"
                    .format(string)
                )
            )

    def __deserialize_enum(self, data, klass):
        """Deserializes primitive type to enum.

        :param data: primitive type.
        :param klass: class literal.
        :return: enum value.
        """
        try:
            return klass(data)
        except ValueError:
            raise rest.ApiException(
                status=0,
                reason=(
                    "Failed to parse `{0}` as `{1}`"
                    .format(data, klass)
                )
            )

    def __deserialize_model(self, data, klass):
        """Deserializes list or dict to model.

        :param data: dict, list.
        :param klass: class literal.
        :return: model object.
        """

        return klass.from_dict(data)
