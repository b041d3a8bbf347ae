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
   a valid case that carries a `cursor` gets a real one, issued during seeding (CONTRACT_CURSOR).
"""

import os
import uuid

import schemathesis
from schemathesis.core.parameters import ParameterLocation

VERSION_SYNONYMS = ("WCP-Version", "Api-Version")


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
    cursor = os.environ.get("CONTRACT_CURSOR")
    if query and cursor and "cursor" in query and _positive(case, ParameterLocation.QUERY):
        query["cursor"] = cursor
