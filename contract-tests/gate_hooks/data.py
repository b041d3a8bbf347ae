"""Real payments and options for the cases, made through the API as a partner and a wallet would."""

import json
import os
import threading
import time
import uuid

import requests

from .settings import BUYER_ACCOUNT, DESTINATION, EVENT_TYPES, PAID_UNIT, PAYMENT_ASSETS, SEEN_FOR, SERVICE, SETTLED_ASSET, WEBHOOK_URL
from .wallet import Wallet


class Data:
    """Real payments and options for the cases, made through the API as a partner and a wallet would."""

    def __init__(self):
        self.lock = threading.Lock()  # --workers 2: two threads call the hooks
        self.http = threading.local()
        # Payment ids the run saw the service issue, with when: the fuzzer's own payments expire after the
        # default 5 minutes, so an id older than SEEN_FOR is replaced like an unknown one.
        self.seen = {}
        self.actions = {}  # option id -> its actions, which the hooks' wallet runs for a confirm
        self.turn = 0  # which of a payment's options the next case pays: each settled asset in turn
        self.option_of = {}  # option id -> the payment it is an option of
        self.recent = None  # (payment id, created at) shared by read-only cases, renewed every minute
        self.paid = None
        self.merchant = None
        self.test_merchant = None  # the test-mode merchant of the test helpers' payments
        self.target = None  # (merchant id, settlement id): the merchant whose settlements cases change
        self.merchants = set()  # merchant ids seen in responses
        self.settlements = set()  # settlement ids seen in responses
        self.events = set()  # event ids seen in responses (preview)
        self.recent_event = None  # (event id, fetched at), renewed every minute like the recent payment
        self.endpoint = None  # the hooks' webhook endpoint for redelivery cases (preview)
        self.endpoint_lock = threading.Lock()  # one thread checks or makes it at a time
        self.wallet = Wallet()
        self.each_lock = threading.Lock()
        self.each_paid = False  # pay_each_asset ran

    def api(self, method, path, body=None, merchant=True, test=False, wait=True, **params):
        """The service's answer (status, JSON); 503 is waited out, and 429 unless `wait` is False. `test`: as the
        account's test key, whose objects live apart from the live ones (`merchant` is then the test merchant's
        id, or False)."""
        session = getattr(self.http, "session", None)
        if session is None:
            session = self.http.session = requests.Session()
        key = os.environ["CONTRACT_TEST_API_KEY"] if test else os.environ["CONTRACT_API_KEY"]
        headers = {"Api-Key": key, "PAY-Version": os.environ["CONTRACT_VERSION"]}
        if merchant:
            headers["Merchant-Id"] = merchant if test else self.merchant_id()
        if path in ("/v1/merchants", "/v1/webhook-endpoints") or path.endswith("/settlements/crypto"):
            headers["Idempotency-Key"] = f"st-hooks-{uuid.uuid4().hex}"
        for _ in range(20):
            r = session.request(method, SERVICE + path, json=body, headers=headers, params=params, timeout=60)
            if r.status_code not in (429, 503) or (r.status_code == 429 and not wait):
                break
            time.sleep(float(r.headers.get("Retry-After", "1")))
        return r.status_code, r.json()

    def ok(self, method, path, body=None, merchant=True, test=False, **params):
        status, out = self.api(method, path, body, merchant, test, **params)
        if status >= 300:
            raise RuntimeError(f"contract hooks: {method} {path} answered {status}: {json.dumps(out)[:300]}")
        return out

    def merchant_id(self, renew=False):
        with self.lock:
            if self.merchant is not None and not renew:
                return self.merchant
        mid, _ = self.merchant_with_settlement("Contract hooks shop", PAYMENT_ASSETS)
        with self.lock:
            self.merchant = mid
            self.recent = self.paid = None  # payments of the deleted merchant are not this one's
        return mid

    def new_payment(self):
        # An hour to live: a valid case must never meet an expired payment (410), the run lasts minutes.
        body = {"referenceId": f"st-{uuid.uuid4().hex}", "amount": {"unit": PAID_UNIT, "value": "100"}, "expiresAt": int(time.time()) + 3600}
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

    def merchant_with_settlement(self, name, assets=(SETTLED_ASSET,), test=False):
        """A new merchant settling the assets (the development chain's USDC by default): (merchant id, first settlement id)."""
        created = self.ok("POST", "/v1/merchants", {"merchantName": name, "merchantEmail": "hooks@contract-gate.example.com"}, merchant=False, test=test)
        mid = created["merchant"]["id"]
        settled = self.ok("POST", f"/v1/merchants/{mid}/settlements/crypto", {"settlements": [{"asset": a, "destination": DESTINATION} for a in assets]}, merchant=False, test=test)
        return mid, settled["settlements"][0]["id"]

    def test_payment(self):
        """A fresh open payment of test mode, for a test helper (they answer test keys only): the fuzzer's live key
        never sees it, so no other case pays, changes or deletes it."""
        with self.lock:
            merchant = self.test_merchant
        if merchant is None:
            merchant, _ = self.merchant_with_settlement("Contract hooks test shop", test=True)
            with self.lock:
                self.test_merchant = merchant
        body = {"referenceId": f"st-test-{uuid.uuid4().hex}", "amount": {"unit": PAID_UNIT, "value": "100"}, "expiresAt": int(time.time()) + 3600}
        return self.ok("POST", "/v1/payments", body, merchant=merchant, test=True)["paymentId"]

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

    def throwaway_key(self):
        """A fresh API key of the gate's account (preview) for a revocation case: never a key the gate calls with, which a
        revocation would lock out (the service refuses only a key revoking itself)."""
        return self.ok("POST", "/v1/api-keys", {"name": "Contract hooks throwaway"}, merchant=False)["apiKey"]["id"]

    def revoke_key(self, key_id):
        """Revokes a key a case created, so that the fuzzer's keys never fill the account's 100 (409 api_key_limit)."""
        self.api("DELETE", f"/v1/api-keys/{key_id}", merchant=False)

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
                    if isinstance(option["actions"], list) and option["actions"]:
                        self.actions[option["id"]] = option["actions"]
                        self.option_of[option["id"]] = payment_id
                except (KeyError, TypeError):
                    pass

    def option(self, payment_id, asset=None):
        """An option of the payment for the hooks' buyer (in `asset`; else each settled asset in turn), or None when
        the payment no longer takes options."""
        # A 429 here is the payment's cap of valid quotes for the buyer, free again only when the oldest expires:
        # a fresh payment is quicker than waiting (fetch cases waited minutes for it).
        status, body = self.api("POST", f"/v1/gateway/payment/{payment_id}/options", {"accounts": [BUYER_ACCOUNT]}, merchant=False, wait=False)
        if status in (409, 429):
            return None
        if status != 200:
            raise RuntimeError(f"contract hooks: options of {payment_id} answered {status}: {json.dumps(body)[:300]}")
        self.remember_options(payment_id, body)
        options = [o for o in body.get("options") or [] if asset is None or o["amount"]["unit"] == f"caip19/{asset}"]
        if not options:
            return None
        with self.lock:
            self.turn += 1
            return options[self.turn % len(options)]["id"]

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

    def results(self, option_id):
        """The confirm's results for the option: its actions run by the hooks' wallet, one result each."""
        with self.lock:
            actions = self.actions[option_id]
        return self.wallet.results(actions)

    def paid_payment(self):
        """One payment the hooks paid (on chain) and saw succeed, for refunds; made once per run."""
        with self.lock:
            if self.paid is not None:
                return self.paid
        pid, _ = self.pay(SETTLED_ASSET)
        with self.lock:
            self.paid = pid
        return pid

    def pay_each_asset(self):
        """Before the first confirm case: a payment paid and seen succeed in each asset the hooks' merchant settles,
        so that a form of payment that no longer works (Permit2's approve and permit, EIP-3009's authorization)
        fails the gate as an errored case instead of hiding among refusals. Once per run."""
        with self.each_lock:  # the other thread waits: its confirm comes after these
            if self.each_paid:
                return
            for asset, form in PAYMENT_ASSETS.items():
                pid, actions = self.pay(asset)
                print(f"contract hooks: {pid} paid in {form} with {actions} wallet actions, succeeded", flush=True)
            self.each_paid = True

    def pay(self, asset):
        """A new payment paid with its option in `asset` (the wallet runs every action), once it succeeded: its id
        and how many actions the option had."""
        pid = self.new_payment()
        option = self.option(pid, asset)
        if option is None:
            raise RuntimeError(f"contract hooks: payment {pid} has no option in {asset} for the hooks' buyer")
        results = self.results(option)
        self.ok("POST", f"/v1/gateway/payment/{pid}/confirm", {"optionId": option, "results": results}, merchant=False)
        deadline = time.time() + 120
        while time.time() < deadline:
            status = self.ok("GET", f"/v1/gateway/payment/{pid}/status", merchant=False, maxPollMs=5000)
            if status["isFinal"]:
                if status["status"] != "succeeded":
                    raise RuntimeError(f"contract hooks: the hooks' payment {pid} in {asset} ended {status}")
                return pid, len(results)
        raise RuntimeError(f"contract hooks: the hooks' payment {pid} in {asset} did not succeed within 120 s")
