"""Schemathesis hooks of the contract gate (the entry point; the parts are in contract-tests/gate_hooks/).

They only encode cross-request and cross-parameter rules that JSON Schema cannot state, and only for
cases Schemathesis generated as *valid* (positive) in that location; negative cases are sent untouched.
Schemathesis revalidates a case after `before_call` edits it, so the checks judge what is really sent.

1. Version synonyms must agree. `PAY-Version`, `WCP-Version` and `Api-Version` are synonyms; each one
   alone may be any known version, but several that differ are refused (400
   `conflicting_api_versions`). The gate pins `PAY-Version` with `-H`, so a valid case that also carries
   a synonym gets the same value.
2. An `Idempotency-Key` names one request. Reusing a key with a different request is refused
   (`idempotency_conflict`: 409 on the hosted contract's operations, 422 on ours), by design.
   Generators repeat values (examples, boundary values), so each valid case gets a fresh key; replay and conflict behaviour are covered by the integration tests.
3. Cursors are issued by the service. The schema can state their shape, not their provenance (a
   well-formed string the service never issued is refused with 400 `params_validation`, by design), so
   a valid case that carries a `cursor` gets a real one, issued during seeding (CONTRACT_CURSOR for the
   merchant list, CONTRACT_PAYMENTS_CURSOR for the payment lists). A payments cursor also names the sort
   it was issued for (keyset pagination), so such a case is given that sort (createdAt, desc).
4. Semantics the schema cannot state, for valid bodies only: a settlement's asset must be one the registry
   knows and its destination on the asset's chain (the seed settles the development chain's USDC, so
   valid entries use that asset and a destination on that chain; the asset id is read from the chain's
   devnet.json in DEVNET_DIR, which contract-tests/stack.mjs exports); a payment's `expiresAt` must lie in
   the future (at most 30 days). The refusals themselves (unknown asset, other chain, past expiry) are
   covered by the integration tests. Gateway option requests name buyer accounts as CAIP-10 strings; the
   schema leaves them free-form so that a malformed one is answered 400 `params_validation` with
   `reason: invalid_account` (the hosted contract's status, our wallet-facing code in `reason`), so valid
   cases use a well-formed account on the development chain. A webhook endpoint's URL is acceptable only if its host resolves to an address deliveries may reach (refused: unspecified,
   link-local; private networks only where allowed), so valid cases use a receiver URL the gate allows.

5. Real data for the money path. A random payment or option id is answered 404, so on its own the fuzzer
   would test the gateway and the payment operations with ids that do not exist. For a valid path, a payment
   id the run has not seen the service issue becomes a real one: a fresh payment for the operations that
   change it (cancel, decline, confirm), a recent one otherwise; a valid `Merchant-Id` becomes the hooks'
   merchant's. The hooks make their merchant and its settlement through the API, and make a new one when
   a case has deleted it (the fuzzer deletes merchants whose ids it has seen, as it should). A valid confirm body gets an option of that payment and the results of its actions, run by
   the gate's buyer (CONTRACT_BUYER_KEY, funded with gas, USDC and USDT on the development chain by seed.mjs),
   so the confirm pays for real. The hooks' merchant settles USDC (EIP-3009: one action, the signed
   authorization) and USDT (Permit2: the approve of Permit2, sent once and mined, then the signed permit), and
   the hooks pay each payment's options in turn, so both forms are confirmed. Before the first confirm case
   the hooks pay one payment in each asset and wait for it to succeed (an errored case otherwise), so a form of
   payment that stopped working fails the gate instead of hiding among refusals. Generated `collectedData` is dropped (its
   field ids must be the option's, which the schema cannot state; the gate's payments are below the
   threshold). A valid fetch body gets a real option id; a valid refund body a payment the hooks paid (and a
   partial refund's `amount` that payment's currency: another is rightly 400, which the schema cannot state); a
   valid event path (preview) an event of the account unless the run saw that id, and a valid redelivery an
   enabled endpoint of the hooks subscribed to every event type (re-enabled, or made again when a case
   deleted it, making room when the account's 16 are taken), named in the body when the body names one (one
   the run saw may have been disabled or deleted since); a valid settlement path
   (create, update) of a merchant the run has not seen a merchant the hooks keep for that, and a delete a
   settlement made for it. Links
   (options -> fetch/confirm) keep their ids: those the run saw the service issue are left alone, and an
   option seen in an options response is paid as it is. A valid `maxPollMs` is capped at 100 ms: the
   long-poll itself is tested by the integration suite, and a 30 s wait per case would only slow the gate.

And one guard against the tool itself: Schemathesis 4.32.5 may fill a parameter from values seen in
earlier responses (its "semantic pool") without checking that parameter's own schema, e.g. a 256-char
merchant name into `Sdk-Name` (maxLength 128), and still label the case valid; the service then rightly
answers 400 and ST202 blames it. Seen in the stateful phase only; there the hook asks Schemathesis to revalidate every component, so
a case is labelled by what is really sent. Nothing is filtered: a case that is invalid becomes negative
and must then be rejected (ST201). The same pool puts merchant names such as "Ą" into `Sdk-Name`; HTTP
header values are Latin-1 bytes, so Python cannot even send that request and the whole stateful phase
aborts ("'latin-1' codec can't encode"). Such a value never reaches the service; the hook drops that
optional header from the step instead (required headers are left alone and would surface as errors).
"""


import os
import pathlib
import sys
import time
import uuid

import schemathesis
from schemathesis.core import NOT_SET
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.meta import ComponentInfo
from schemathesis.generation.modes import GenerationMode

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # the gate_hooks package beside this file

from gate_hooks import toolguard  # noqa: E402,F401 (installed on import)
from gate_hooks.data import Data  # noqa: E402
from gate_hooks.settings import (  # noqa: E402
    BUYER_ACCOUNT,
    CHANGES_PAYMENT,
    DESTINATION,
    MAX_POLL_MS,
    PAID_UNIT,
    PAYMENT_PATHS,
    SETTLED_ASSET,
    SETTLEMENT_CHANGES,
    TEST_HELPER_PAYMENT_PATH,
    TEST_HELPERS,
    VERSION_SYNONYMS,
    WEBHOOK_URL,
)

_DATA = Data()


def _latin1(value):
    try:
        value.encode("latin-1")
        return True
    except UnicodeEncodeError:
        return False


def _positive(case, location):
    meta = case.meta
    return meta is None or not meta.is_negative_at(location)


def _find(container, name):
    for key in container:
        if key.lower() == name.lower():
            return key
    return None


# The seven payment types of the hosted 2026-05-18 webhook payload format (docs/webhooks.md).
HOSTED_TYPES = ["payment.created", "payment.processing", "payment.succeeded", "payment.failed", "payment.expired",
                "payment.cancelled", "payment.settled"]


def _hosted_types_only(body, method):
    # An endpoint in the 2026-05-18 format lists only that format's types (documented; a schema cannot say it for an
    # endpoint whose stored format a PATCH leaves as it is): a valid case of that format, or a PATCH of an endpoint
    # that may be in it, subscribes to those (both formats take them), and a PATCH to that format names them.
    fmt = body.get("payloadFormat")
    if fmt != "2026-05-18" and not (method.upper() == "PATCH" and fmt != "paygate"):
        return
    events = body.get("enabledEvents")
    if isinstance(events, list):
        kept = [e for e in events if e in HOSTED_TYPES]
        body["enabledEvents"] = kept or ["payment.created"]
    elif body.get("payloadFormat") == "2026-05-18":
        body["enabledEvents"] = list(HOSTED_TYPES)


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    meta = case.meta
    if meta is not None and meta.phase.name.value == "stateful":
        if case.headers:
            required = {p.name.lower() for p in case.operation.headers if p.is_required}
            for name, value in list(case.headers.items()):
                if isinstance(value, str) and name.lower() not in required and not _latin1(value):
                    del case.headers[name]
        # An optional request body that is absent is valid, yet the stateful phase labels such a case negative
        # by its body (seen on rotate-secret: "Schema-violating request accepted ... positive test case").
        body_absent = case.body is NOT_SET or case.body is None
        body_optional = not any(getattr(b, "is_required", True) for b in case.operation.body)
        for location in list(meta.components):
            if location == ParameterLocation.BODY and body_absent and body_optional:
                meta.components[location] = ComponentInfo(mode=GenerationMode.POSITIVE)
            else:
                meta.mark_dirty(location)
        if all(info.mode.is_positive for info in meta.components.values()):
            meta.generation.mode = GenerationMode.POSITIVE
    headers = case.headers
    if headers and _positive(case, ParameterLocation.HEADER):
        version = os.environ["CONTRACT_VERSION"]
        for name in VERSION_SYNONYMS:
            key = _find(headers, name)
            if key is not None:
                headers[key] = version
        key = _find(headers, "Idempotency-Key")
        if key is not None:
            headers[key] = f"st-{uuid.uuid4().hex}"
        key = _find(headers, "Merchant-Id")
        if key is not None:
            headers[key] = _DATA.merchant_id()
    query = case.query
    path = case.operation.path
    payment_id = None
    if path.startswith(PAYMENT_PATHS) and case.path_parameters and "id" in case.path_parameters and _positive(case, ParameterLocation.PATH):
        payment_id = case.path_parameters["id"]
        if not _DATA.usable(payment_id):
            payment_id = _DATA.new_payment() if path.endswith(CHANGES_PAYMENT) else _DATA.recent_payment()
            case.path_parameters["id"] = payment_id
    if path.startswith(TEST_HELPERS) and headers and _positive(case, ParameterLocation.HEADER):
        # The test helpers answer a test key only (a live key gets 404): a valid case sends the account's test key.
        key = _find(headers, "Api-Key")
        if key is not None:
            headers[key] = os.environ["CONTRACT_TEST_API_KEY"]
    if path.startswith(TEST_HELPER_PAYMENT_PATH) and case.path_parameters and "id" in case.path_parameters \
            and _positive(case, ParameterLocation.PATH):
        # A test helper changes its payment (expires it, stalls its next transaction): always a fresh test-mode
        # payment of its own, which no other case pays, refunds or reads.
        case.path_parameters["id"] = _DATA.test_payment()
    if path == "/x402/settlements/{id}" and case.path_parameters and "id" in case.path_parameters \
            and _positive(case, ParameterLocation.PATH):
        case.path_parameters["id"] = os.environ["CONTRACT_X402_SETTLEMENT"]  # the seed's x402 settlement
    if path.startswith("/v1/events/{eventId}") and "eventId" in (case.path_parameters or {}) \
            and _positive(case, ParameterLocation.PATH):
        with _DATA.lock:
            known = case.path_parameters["eventId"] in _DATA.events
        if not known:
            case.path_parameters["eventId"] = _DATA.event_id()
        if path.endswith("/redeliver") and _positive(case, ParameterLocation.BODY):
            # A redelivery needs an enabled endpoint subscribed to the event's type (else 409
            # no_webhook_endpoint), and a named one must be the account's (else 404).
            # Always the hooks' endpoint: one the run saw may have been disabled or deleted by a case since.
            endpoint = _DATA.redelivery_endpoint()
            if isinstance(case.body, dict) and "endpointId" in case.body:
                case.body["endpointId"] = endpoint
    stateful = meta is not None and meta.phase.name.value == "stateful"
    if (case.method.upper(), path) in SETTLEMENT_CHANGES and not stateful and _positive(case, ParameterLocation.PATH):
        # A settlement of a merchant the run has not seen becomes one of the hooks' settlement merchant (its
        # settlement for a PUT); a DELETE gets a settlement of its own, made for it.
        # Not in the stateful phase: its links give these operations real ids, and substituting them there
        # left scenarios errored (55 of 254 in one replay).
        params = case.path_parameters
        with _DATA.lock:
            known = params.get("merchantId") in _DATA.merchants and ("id" not in params or params["id"] in _DATA.settlements)
        if not known:
            deletes = case.method.upper() == "DELETE"
            params["merchantId"], settlement = _DATA.merchant_with_settlement("Contract hooks throwaway") if deletes else _DATA.settlement_target()
            if "id" in params:
                params["id"] = settlement
    if path == "/v1/api-keys/{keyId}" and not stateful and "keyId" in (case.path_parameters or {}) \
            and _positive(case, ParameterLocation.PATH):
        # A revocation revokes a key made for it: an id the fuzzer saw in a list may be the gate's own wallet key.
        case.path_parameters["keyId"] = _DATA.throwaway_key()
    if query and "maxPollMs" in query and _positive(case, ParameterLocation.QUERY):
        value = query["maxPollMs"]
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool) and value > MAX_POLL_MS:
            query["maxPollMs"] = MAX_POLL_MS
    if path == "/v1/test-helpers/blacklist" and query and isinstance(query.get("account"), str) \
            and _positive(case, ParameterLocation.QUERY):
        # The undo of a blacklisting: a fresh account of the development chain, as for the blacklisting itself (the
        # gate's buyer would be another account's address). It was never blacklisted by the gate's test key, so the
        # answer is 403 forbidden (the undo itself is tested by tests/integration/testHelperScope.own.test.ts).
        query["account"] = f"{BUYER_ACCOUNT.rsplit(':', 1)[0]}:0x{uuid.uuid4().hex}{uuid.uuid4().hex[:8]}"
    if query and "cursor" in query and _positive(case, ParameterLocation.QUERY):
        if path == "/v1/merchants":
            query["cursor"] = os.environ.get("CONTRACT_CURSOR") or query["cursor"]
        elif os.environ.get("CONTRACT_PAYMENTS_CURSOR"):
            query["cursor"] = os.environ["CONTRACT_PAYMENTS_CURSOR"]
            snake = "sort_by" in query or path.endswith("{merchant_id}/payments")
            query["sort_by" if snake else "sortBy"] = "created_at" if snake else "createdAt"
            query["sort_dir" if snake else "sortDir"] = "desc"
    body = case.body
    if isinstance(body, dict) and _positive(case, ParameterLocation.BODY):
        if path.endswith("/settlements/crypto") and isinstance(body.get("settlements"), list):
            for entry in body["settlements"]:
                if isinstance(entry, dict):
                    entry["asset"] = SETTLED_ASSET
                    entry["destination"] = DESTINATION
        elif path.endswith("/settlements/crypto/{id}") and "destination" in body:
            body["destination"] = DESTINATION
        elif path.endswith("/options") and isinstance(body.get("accounts"), list):
            body["accounts"] = [BUYER_ACCOUNT for _ in body["accounts"]]
        elif path.startswith("/v1/webhook-endpoints") and isinstance(body.get("url"), str):
            # Whether a URL is acceptable depends on where its host resolves (never loopback-only names
            # in production, never unspecified or link-local addresses): a valid case uses the gate's
            # receiver (contract-tests/webhookSink.mjs, on loopback, which the gate's service allows as
            # in tests); it answers 200, so deliveries are not retried.
            body["url"] = WEBHOOK_URL
            _hosted_types_only(body, case.method)
        elif path.startswith("/v1/webhook-endpoints") and ("enabledEvents" in body or "payloadFormat" in body):
            _hosted_types_only(body, case.method)
        elif path == "/v1/api-keys" and ("expiresAt" in body or "merchantIds" in body):
            # A key's expiry must be ahead (and within 10 years), which a date-time schema cannot say.
            if "expiresAt" in body:
                body["expiresAt"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 86400))
            # The merchants a key is limited to must be the account's (404 otherwise): the hooks' merchant, and none
            # for a wallet key (400: it reaches the gateway only). The key is revoked after the case, as any other.
            if "merchantIds" in body:
                if body.get("type") == "wallet":
                    del body["merchantIds"]
                else:
                    body["merchantIds"] = [_DATA.merchant_id()]
        elif path in ("/v1/payments", "/v1/merchant/payment") and isinstance(body.get("expiresAt"), (int, float)):
            body["expiresAt"] = int(time.time()) + 3600
        elif payment_id and path.endswith(("/confirm", "/fetch")) and "optionId" in body:
            if path.endswith("/confirm"):
                _DATA.pay_each_asset()
            with _DATA.lock:
                # An option seen in a response is kept only on its own payment's path: the path's id may have
                # been replaced above, and another payment's option is rightly 404 there.
                linked = body["optionId"] in _DATA.actions and _DATA.option_of.get(body["optionId"]) == payment_id
            if not linked:
                body["optionId"] = _DATA.payable_option(case, payment_id)
            if path.endswith("/confirm"):
                body.pop("collectedData", None)
                body["results"] = _DATA.results(body["optionId"])
        elif path == "/v1/refunds" and "paymentId" in body:
            body["paymentId"] = _DATA.paid_payment()
            if isinstance(body.get("amount"), dict):
                # A partial refund is in the payment's own currency (documented; a schema cannot say which).
                body["amount"]["unit"] = PAID_UNIT
        elif path == "/v1/test-helpers/blacklist" and isinstance(body.get("account"), str):
            # A fresh account of the development chain: never the gate's buyer, whose account responses show (the
            # fuzzer's pool of seen values), or every later payment of the gate would be refused.
            body["account"] = f"{BUYER_ACCOUNT.rsplit(':', 1)[0]}:0x{uuid.uuid4().hex}{uuid.uuid4().hex[:8]}"


@schemathesis.hook
def after_call(ctx, case, response):
    """Records the payment and option ids the service issues, so that cases filled by links keep them."""
    if response.status_code >= 300 or case.operation.path.startswith(TEST_HELPER_PAYMENT_PATH):
        return
    try:
        body = response.json()
    except ValueError:
        return
    if not isinstance(body, dict):
        return
    if case.operation.path == "/v1/api-keys" and case.method.upper() == "POST" and isinstance(body.get("apiKey"), dict):
        _DATA.revoke_key(body["apiKey"]["id"])
    elif case.operation.path.endswith("/options") and case.path_parameters:
        _DATA.remember_options(case.path_parameters.get("id"), body)
    elif not _remember_ids(body) and isinstance(body.get("paymentId"), str):
        _DATA.saw(body["paymentId"])


# Where the ids of each kind of object seen in responses are kept: the field of one object, the field of a
# list of them, and the set.
_SEEN_IDS = (("merchant", None, "merchants"), (None, "settlements", "settlements"), (None, "events", "events"))


def _remember_ids(body):
    """Records the ids of the merchants, settlements or events in a response; False if it has none."""
    for one, many, kept in _SEEN_IDS:
        items = [body[one]] if one and isinstance(body.get(one), dict) else body.get(many) if many and isinstance(body.get(many), list) else None
        if items is not None:
            with _DATA.lock:
                getattr(_DATA, kept).update(i["id"] for i in items if isinstance(i, dict) and isinstance(i.get("id"), str))
            return True
    return False
