"""Schemathesis hooks of the contract gate.

They only encode cross-request and cross-parameter rules that JSON Schema cannot state, and only for
cases Schemathesis generated as *valid* (positive) in that location; negative cases are sent untouched.
Schemathesis revalidates a case after `before_call` edits it, so the checks judge what is really sent.

1. Version synonyms must agree. `PAY-Version`, `WCP-Version` and `Api-Version` are synonyms; each one
   alone may be any known version, but several that differ are refused (400
   `conflicting_api_versions`). The gate pins `PAY-Version` with `-H`, so a valid case that also carries
   a synonym gets the same value.
2. An `Idempotency-Key` names one request. Reusing a key with a different request is refused (422
   `idempotency_conflict`), by design. Generators repeat values (examples, boundary values), so each
   valid case gets a fresh key; replay and conflict behaviour are covered by the integration tests.
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
   schema leaves them free-form so that a malformed one is answered 422 `invalid_account` (a wallet-facing
   code), so valid cases use a well-formed account on the development chain. A webhook endpoint's URL is
   acceptable only if its host resolves to an address deliveries may reach (refused: unspecified,
   link-local; private networks only where allowed), so valid cases use a receiver URL the gate allows.

5. Real data for the money path. A random payment or option id is answered 404, so on its own the fuzzer
   would test the gateway and the payment operations with ids that do not exist. For a valid path, a payment
   id the run has not seen the service issue becomes a real one: a fresh payment for the operations that
   change it (cancel, decline, confirm), a recent one otherwise; a valid `Merchant-Id` becomes the hooks'
   merchant's. The hooks make their merchant and its settlement through the API, and make a new one when
   a case has deleted it (the fuzzer deletes merchants whose ids it has seen, as it should). A valid confirm body gets an option of that payment and the result of its action: the
   option's EIP-712 authorization signed by the gate's buyer (CONTRACT_BUYER_KEY, funded with USDC on the
   development chain by seed.mjs), so the confirm pays for real. Generated `collectedData` is dropped (its
   field ids must be the option's, which the schema cannot state; the gate's payments are below the
   threshold). A valid fetch body gets a real option id; a valid refund body a payment the hooks paid; a
   valid event path (preview) an event of the account unless the run saw that id, and a valid redelivery an
   enabled endpoint of the hooks subscribed to every event type (re-enabled, or made again when a case
   deleted it, making room when the account's 16 are taken), named in the body when the body names one (one
   the run saw may have been disabled or deleted since); a valid settlement path
   (create, update) of a merchant the run has not seen a merchant the hooks keep for that, and a delete a
   settlement made for it. Links
   (options -> fetch/confirm) keep their ids: those the run saw the service issue are left alone, and an
   option seen in an options response is signed as it is. A valid `maxPollMs` is capped at 100 ms: the
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

import ast
import json
import os
import pathlib
import threading
import time
import uuid

import hypothesis.internal.lambda_sources as _lambda_sources
import requests
import schemathesis
from eth_account import Account
from schemathesis.core import NOT_SET
from schemathesis.generation.meta import ComponentInfo
from schemathesis.generation.modes import GenerationMode
from schemathesis.core.parameters import ParameterLocation

# Tool guard (not a check exclusion): Hypothesis describes lambdas for its reports by re-parsing their
# module source with `ast.parse`. On CPython 3.11.7 (this machine), parsing deep in the call stack can
# raise SystemError "AST constructor recursion depth mismatch" (a CPython bug fixed in later 3.11/3.12
# releases) instead of SyntaxError, and Hypothesis only expects the latter: the coverage phase of an
# operation then aborts with a Runtime Error that has nothing to do with our API. Treating that
# SystemError as "source not parseable" makes Hypothesis fall back to describing the lambda as
# "<unknown>"; only report text changes, never what is generated, sent or checked.
class _AstGuard:
    def __getattr__(self, name):
        return getattr(ast, name)

    @staticmethod
    def parse(*args, **kwargs):
        try:
            return ast.parse(*args, **kwargs)
        except SystemError as e:
            raise SyntaxError(str(e)) from e


_lambda_sources.ast = _AstGuard()

VERSION_SYNONYMS = ("WCP-Version", "Api-Version")
# The development chain the gate's service runs (contract-tests/stack.mjs exports its DEVNET_DIR).
_DEVNET = json.loads((pathlib.Path(os.environ["DEVNET_DIR"]) / "devnet.json").read_text())
SETTLED_ASSET = next(a["asset"] for a in _DEVNET["assets"] if a["symbol"] == "USDC")
DESTINATION = f"{_DEVNET['chainId']}:0x71C7656EC7ab88b098defB751B7401B5f6d8976F"
BUYER = Account.from_key(os.environ["CONTRACT_BUYER_KEY"])
BUYER_ACCOUNT = f"{_DEVNET['chainId']}:{BUYER.address}"
SERVICE = os.environ["CONTRACT_SERVICE_URL"]
# The gate's webhook receiver (contract-tests/webhookSink.mjs), for the URL of a valid endpoint registration.
WEBHOOK_URL = os.environ["CONTRACT_WEBHOOK_URL"]
MAX_POLL_MS = 100
# Every webhook event type the version's document names (preview; empty where it has no webhooks).
_DOCUMENT = json.loads((pathlib.Path(__file__).parent.parent / "generated" / os.environ["CONTRACT_VERSION"] / "openapi.json").read_text())
EVENT_TYPES = _DOCUMENT["components"]["schemas"].get("WebhookEventType", {}).get("enum", [])
# Operations that change a merchant's settlements, with a valid path given the hooks' merchant (see before_call).
SETTLEMENT_CHANGES = {
    ("POST", "/v1/merchants/{merchantId}/settlements/crypto"),
    ("PUT", "/v1/merchants/{merchantId}/settlements/crypto/{id}"),
    ("DELETE", "/v1/merchants/{merchantId}/settlements/crypto/{id}"),
}
SEEN_FOR = 180  # seconds a payment id seen in a response is used as it is (the default expiry is 300 s)
# Operations whose path `{id}` is a payment id, and those of them that change the payment.
PAYMENT_PATHS = ("/v1/payments/{id}", "/v1/gateway/payment/{id}", "/v1/merchant/payment/{id}")
CHANGES_PAYMENT = ("/cancel", "/decline", "/confirm")


class _Data:
    """Real payments and options for the cases, made through the API as a partner and a wallet would."""

    def __init__(self):
        self.lock = threading.Lock()  # --workers 2: two threads call the hooks
        self.http = threading.local()
        # Payment ids the run saw the service issue, with when: the fuzzer's own payments expire after the
        # default 5 minutes, so an id older than SEEN_FOR is replaced like an unknown one.
        self.seen = {}
        self.typed = {}  # option id -> the EIP-712 typed data of its action
        self.option_of = {}  # option id -> the payment it is an option of
        self.recent = None  # (payment id, created at) shared by read-only cases, renewed every minute
        self.paid = None
        self.merchant = None
        self.target = None  # (merchant id, settlement id): the merchant whose settlements cases change
        self.merchants = set()  # merchant ids seen in responses
        self.settlements = set()  # settlement ids seen in responses
        self.events = set()  # event ids seen in responses (preview)
        self.recent_event = None  # (event id, fetched at), renewed every minute like the recent payment
        self.endpoint = None  # the hooks' webhook endpoint for redelivery cases (preview)
        self.endpoint_lock = threading.Lock()  # one thread checks or makes it at a time

    def api(self, method, path, body=None, merchant=True, **params):
        """The service's answer (status, JSON); 429 and 503 are waited out."""
        session = getattr(self.http, "session", None)
        if session is None:
            session = self.http.session = requests.Session()
        headers = {"Api-Key": os.environ["CONTRACT_API_KEY"], "PAY-Version": os.environ["CONTRACT_VERSION"]}
        if merchant:
            headers["Merchant-Id"] = self.merchant_id()
        if path in ("/v1/merchants", "/v1/webhook-endpoints") or path.endswith("/settlements/crypto"):
            headers["Idempotency-Key"] = f"st-hooks-{uuid.uuid4().hex}"
        for _ in range(20):
            r = session.request(method, SERVICE + path, json=body, headers=headers, params=params, timeout=60)
            if r.status_code not in (429, 503):
                break
            time.sleep(float(r.headers.get("Retry-After", "1")))
        return r.status_code, r.json()

    def ok(self, method, path, body=None, merchant=True, **params):
        status, out = self.api(method, path, body, merchant, **params)
        if status >= 300:
            raise RuntimeError(f"contract hooks: {method} {path} answered {status}: {json.dumps(out)[:300]}")
        return out

    def merchant_id(self, renew=False):
        with self.lock:
            if self.merchant is not None and not renew:
                return self.merchant
        mid, _ = self.merchant_with_settlement("Contract hooks shop")
        with self.lock:
            self.merchant = mid
            self.recent = self.paid = None  # payments of the deleted merchant are not this one's
        return mid

    def new_payment(self):
        # An hour to live: a valid case must never meet an expired payment (410), the run lasts minutes.
        body = {"referenceId": f"st-{uuid.uuid4().hex}", "amount": {"unit": "iso4217/USD", "value": "100"}, "expiresAt": int(time.time()) + 3600}
        status, out = self.api("POST", "/v1/payments", body)
        if status == 409 or status == 404:  # a case deleted the hooks' merchant
            self.merchant_id(renew=True)
            status, out = self.api("POST", "/v1/payments", body)
        if status != 201:
            raise RuntimeError(f"contract hooks: POST /v1/payments answered {status}: {json.dumps(out)[:300]}")
        pid = out["paymentId"]
        with self.lock:
            self.seen[pid] = time.time() + 3600
        return pid

    def recent_payment(self):
        with self.lock:
            current = self.recent
        if current is None or time.time() - current[1] > 60:
            current = (self.new_payment(), time.time())
            with self.lock:
                self.recent = current
        return current[0]

    def merchant_with_settlement(self, name):
        """A new merchant settling the development chain's USDC: (merchant id, settlement id)."""
        created = self.ok("POST", "/v1/merchants", {"merchantName": name, "merchantEmail": "hooks@contract-gate.example.com"}, merchant=False)
        mid = created["merchant"]["id"]
        settled = self.ok("POST", f"/v1/merchants/{mid}/settlements/crypto", {"settlements": [{"asset": SETTLED_ASSET, "destination": DESTINATION}]}, merchant=False)
        return mid, settled["settlements"][0]["id"]

    def settlement_target(self):
        """A merchant of the hooks with one settlement, for cases that change settlements: never the merchant the
        hooks' payments are made for, whose options a changed or disabled settlement would take away."""
        with self.lock:
            if self.target is not None:
                return self.target
        target = self.merchant_with_settlement("Contract hooks settlements")
        with self.lock:
            self.target = target
            return target

    def event_id(self):
        """An event of the hooks' account (its payments write them)."""
        with self.lock:
            current = self.recent_event
        if current is None or time.time() - current[1] > 60:
            self.recent_payment()  # at least one payment, so at least one event
            events = self.ok("GET", "/v1/events", merchant=False, limit=1)["events"]
            current = (events[0]["id"], time.time())
            with self.lock:
                self.recent_event = current
                self.events.add(current[0])
        return current[0]

    def redelivery_endpoint(self):
        """An enabled endpoint of the hooks' account that takes every event type, so that a redelivery case has
        somewhere to go: the fuzzer may have disabled or deleted it, or filled the account's endpoints."""
        with self.endpoint_lock:
            if self.endpoint is not None:
                status, out = self.api("GET", f"/v1/webhook-endpoints/{self.endpoint}", merchant=False)
                if status == 200:
                    ep = out["endpoint"]
                    if ep["status"] != "enabled" or set(ep["enabledEvents"]) != set(EVENT_TYPES):
                        self.ok("PATCH", f"/v1/webhook-endpoints/{self.endpoint}", {"status": "enabled", "enabledEvents": EVENT_TYPES}, merchant=False)
                    return self.endpoint
            body = {"url": WEBHOOK_URL, "enabledEvents": EVENT_TYPES, "description": "contract hooks: redeliveries"}
            status, out = self.api("POST", "/v1/webhook-endpoints", body, merchant=False)
            if status == 409:  # the account has the most endpoints it may have: make room (the fuzzer's)
                others = self.ok("GET", "/v1/webhook-endpoints", merchant=False)["endpoints"]
                self.ok("DELETE", f"/v1/webhook-endpoints/{others[0]['id']}", merchant=False)
                status, out = self.api("POST", "/v1/webhook-endpoints", body, merchant=False)
            if status != 201:
                raise RuntimeError(f"contract hooks: POST /v1/webhook-endpoints answered {status}: {json.dumps(out)[:300]}")
            self.endpoint = out["endpoint"]["id"]
            return self.endpoint

    def usable(self, payment_id):
        with self.lock:
            return self.seen.get(payment_id, 0) > time.time()

    def saw(self, payment_id):
        with self.lock:
            self.seen.setdefault(payment_id, time.time() + SEEN_FOR)

    def remember_options(self, payment_id, body):
        self.saw(payment_id)
        with self.lock:
            for option in body.get("options") or []:
                try:
                    self.typed[option["id"]] = json.loads(option["actions"][0]["data"]["params"][1])
                    self.option_of[option["id"]] = payment_id
                except (KeyError, IndexError, TypeError, ValueError):
                    pass

    def option(self, payment_id):
        """An option of the payment for the hooks' buyer, or None when the payment no longer takes options."""
        status, body = self.api("POST", f"/v1/gateway/payment/{payment_id}/options", {"accounts": [BUYER_ACCOUNT]}, merchant=False)
        if status == 409:
            return None
        if status != 200:
            raise RuntimeError(f"contract hooks: options of {payment_id} answered {status}: {json.dumps(body)[:300]}")
        self.remember_options(payment_id, body)
        options = body.get("options") or []
        return options[0]["id"] if options else None

    def payable_option(self, case, payment_id):
        """An option of the case's payment; when that one is no longer payable, of a fresh payment put in the path."""
        option = self.option(payment_id)
        if option is None:
            payment_id = self.new_payment()
            case.path_parameters["id"] = payment_id
            option = self.option(payment_id)
        if option is None:
            raise RuntimeError(f"contract hooks: a fresh payment {payment_id} has no option for the hooks' buyer")
        return option

    def signed(self, option_id):
        typed = self.typed[option_id]
        return Account.sign_typed_data(BUYER.key, full_message=typed).signature.to_0x_hex()

    def paid_payment(self):
        """One payment the hooks paid (on chain) and saw succeed, for refunds; made once per run."""
        with self.lock:
            if self.paid is not None:
                return self.paid
        pid = self.new_payment()
        option = self.option(pid)
        self.ok("POST", f"/v1/gateway/payment/{pid}/confirm", {"optionId": option, "results": [{"type": "walletRpc", "data": [self.signed(option)]}]}, merchant=False)
        deadline = time.time() + 120
        while time.time() < deadline:
            status = self.ok("GET", f"/v1/gateway/payment/{pid}/status", merchant=False, maxPollMs=5000)
            if status["isFinal"]:
                if status["status"] != "succeeded":
                    raise RuntimeError(f"contract hooks: the hooks' payment {pid} ended {status}")
                with self.lock:
                    self.paid = pid
                return pid
        raise RuntimeError(f"contract hooks: the hooks' payment {pid} did not succeed within 120 s")


_DATA = _Data()


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
    if query and "maxPollMs" in query and _positive(case, ParameterLocation.QUERY):
        value = query["maxPollMs"]
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool) and value > MAX_POLL_MS:
            query["maxPollMs"] = MAX_POLL_MS
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
        elif path in ("/v1/payments", "/v1/merchant/payment") and isinstance(body.get("expiresAt"), (int, float)):
            body["expiresAt"] = int(time.time()) + 3600
        elif payment_id and path.endswith(("/confirm", "/fetch")) and "optionId" in body:
            with _DATA.lock:
                # An option seen in a response is kept only on its own payment's path: the path's id may have
                # been replaced above, and another payment's option is rightly 404 there.
                linked = body["optionId"] in _DATA.typed and _DATA.option_of.get(body["optionId"]) == payment_id
            if not linked:
                body["optionId"] = _DATA.payable_option(case, payment_id)
            if path.endswith("/confirm"):
                body.pop("collectedData", None)
                body["results"] = [{"type": "walletRpc", "data": [_DATA.signed(body["optionId"])]}]
        elif path == "/v1/refunds" and "paymentId" in body:
            body["paymentId"] = _DATA.paid_payment()


@schemathesis.hook
def after_call(ctx, case, response):
    """Records the payment and option ids the service issues, so that cases filled by links keep them."""
    if response.status_code >= 300:
        return
    try:
        body = response.json()
    except ValueError:
        return
    if not isinstance(body, dict):
        return
    if case.operation.path.endswith("/options") and case.path_parameters:
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
