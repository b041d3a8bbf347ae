"""What the hooks know of the gate's run: the development chain, the buyer, the service and the operations they edit."""

import json
import os
import pathlib

from eth_account import Account

VERSION_SYNONYMS = ("WCP-Version", "Api-Version")
# The development chain the gate's service runs (contract-tests/stack.mjs exports its DEVNET_DIR).
_DEVNET = json.loads((pathlib.Path(os.environ["DEVNET_DIR"]) / "devnet.json").read_text())
SETTLED_ASSET = next(a["asset"] for a in _DEVNET["assets"] if a["symbol"] == "USDC")
# The development chain's Tether-like USDT, paid through Permit2 (an approve of Permit2 first, then a signed permit).
PERMIT2_ASSET = next(a["asset"] for a in _DEVNET["assets"] if a["symbol"] == "USDT")
# What the hooks' merchant settles, and how each is paid: an option in each per buyer, so that confirms pay with
# EIP-3009 and with Permit2.
PAYMENT_ASSETS = {SETTLED_ASSET: "USDC (EIP-3009)", PERMIT2_ASSET: "USDT (Permit2)"}
# The currency of the hooks' payments (data.py), hence of a partial refund of one.
PAID_UNIT = "iso4217/USD"
RPC_URL = _DEVNET["rpcUrl"]
CHAIN_NUMBER = int(_DEVNET["chainId"].split(":")[1])
DESTINATION = f"{_DEVNET['chainId']}:0x71C7656EC7ab88b098defB751B7401B5f6d8976F"
BUYER = Account.from_key(os.environ["CONTRACT_BUYER_KEY"])
BUYER_ACCOUNT = f"{_DEVNET['chainId']}:{BUYER.address}"
SERVICE = os.environ["CONTRACT_SERVICE_URL"]
# The gate's webhook receiver (contract-tests/webhookSink.mjs), for the URL of a valid endpoint registration.
WEBHOOK_URL = os.environ["CONTRACT_WEBHOOK_URL"]
MAX_POLL_MS = 100
# Every webhook event type the version's document names (preview; empty where it has no webhooks).
_DOCUMENT = json.loads((pathlib.Path(__file__).resolve().parents[2] / "generated" / os.environ["CONTRACT_VERSION"] / "openapi.json").read_text())
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
# The test helpers (preview) that change a payment: expire it, stall its next transaction, reorg its block.
TEST_HELPER_PAYMENT_PATH = "/v1/test-helpers/payments/{id}"
TEST_HELPERS = "/v1/test-helpers/"


