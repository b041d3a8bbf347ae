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
import time
import uuid

import hypothesis.internal.lambda_sources as _lambda_sources
import schemathesis
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
BUYER_ACCOUNT = f"{_DEVNET['chainId']}:0x52908400098527886E0F7030069857D2E4169EE7"


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
        for location in list(meta.components):
            meta.mark_dirty(location)
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
    query = case.query
    path = case.operation.path
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
            # in production, never unspecified or link-local addresses): a valid case uses a receiver URL
            # the gate's service accepts (it allows private networks, as in tests).
            body["url"] = "https://127.0.0.1:9/contract-hook"
        elif path == "/v1/payments" and isinstance(body.get("expiresAt"), (int, float)):
            body["expiresAt"] = int(time.time()) + 3600
