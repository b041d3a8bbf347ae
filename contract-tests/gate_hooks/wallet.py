"""The hooks' buyer as a wallet: runs an option's actions and hands back one result each, as the hosted service's
wallet SDKs do. An EIP-3009 option has one action (the signature); a Permit2 option first asks for an approve of
Permit2 (`eth_sendTransaction`, while the buyer's allowance is short), then the PermitTransferFrom signature."""

import json
import threading
import time

import requests
from eth_account import Account

from .settings import BUYER, CHAIN_NUMBER, RPC_URL

APPROVE_GAS = 100_000


class Wallet:
    def __init__(self):
        self.lock = threading.Lock()
        # Token address -> the hash of the buyer's approve of Permit2. Sent once per token: the allowance is then
        # the maximum, and Tether reverts an approve from one non-zero allowance to another. An option made
        # before that approve was mined still lists the approve; its result is then the hash already sent.
        self.approvals = {}

    def results(self, actions):
        """The walletRpc results of the actions, in their order."""
        return [{"type": "walletRpc", "data": [self.run(a["data"])]} for a in actions]

    def run(self, call):
        if call["method"] == "eth_signTypedData_v4":
            return Account.sign_typed_data(BUYER.key, full_message=json.loads(call["params"][1])).signature.to_0x_hex()
        if call["method"] == "eth_sendTransaction":
            return self.approve(call["params"][0])  # the transaction object, as JSON-RPC takes it
        raise RuntimeError(f"contract hooks: the wallet cannot run {call['method']}")

    def approve(self, tx):
        if tx["from"].lower() != BUYER.address.lower():
            raise RuntimeError(f"contract hooks: an approve from {tx['from']}, not the hooks' buyer")
        token = tx["to"].lower()
        with self.lock:  # --workers 2: the other thread waits for the same approve instead of sending a second
            if token not in self.approvals:
                self.approvals[token] = self.send(tx)
            return self.approvals[token]

    def send(self, tx):
        """Signs and sends the transaction from the buyer (it pays the gas), and waits until it is mined."""
        nonce = int(_rpc("eth_getTransactionCount", BUYER.address, "pending"), 16)
        gas_price = 2 * int(_rpc("eth_gasPrice"), 16)
        signed = Account.sign_transaction(
            {"to": tx["to"], "data": tx["data"], "value": int(tx["value"], 16), "gas": APPROVE_GAS, "gasPrice": gas_price, "nonce": nonce, "chainId": CHAIN_NUMBER},
            BUYER.key,
        )
        tx_hash = _rpc("eth_sendRawTransaction", signed.raw_transaction.to_0x_hex())
        deadline = time.time() + 60
        while time.time() < deadline:
            receipt = _rpc("eth_getTransactionReceipt", tx_hash)
            if receipt is not None:
                if receipt["status"] != "0x1":
                    raise RuntimeError(f"contract hooks: the buyer's approve {tx_hash} reverted")
                return tx_hash
            time.sleep(0.1)
        raise RuntimeError(f"contract hooks: the buyer's approve {tx_hash} was not mined within 60 s")


def _rpc(method, *params):
    body = requests.post(RPC_URL, json={"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}, timeout=30).json()
    if "error" in body:
        raise RuntimeError(f"contract hooks: {method} answered {body['error']}")
    return body["result"]
