"""The generated Python client (generated/2026-02-18/sdk/python) against the live service: what it sends
is accepted, and what the service answers parses into the SDK's models with the right values. Payments
are paid for real on the service's development chain: a buyer funded with `admin devnet fund` signs the
option's EIP-712 authorization with eth-account; a USDT payment goes through Permit2: the buyer, with native
coin for gas, sends the option's approve transaction, waits for its receipt, then signs the permit.
sdk-tests/run.mjs also runs the payment alone with each
version's wheel installed in a fresh virtualenv (see conftest.py)."""
import datetime
import json
import re
import time
import urllib.request

import pytest
from eth_account import Account

import paygate_client as pg
from paygate_client.exceptions import UnauthorizedException
from conftest import admin, client_for

MERCHANT_ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7"
TX_HASH = re.compile(r"^0x[0-9a-f]{64}$")


def asset_of(devnet: dict, symbol: str = "USDC") -> str:
    return next(a["asset"] for a in devnet["assets"] if a["symbol"] == symbol)


def usdc(devnet: dict) -> str:
    return asset_of(devnet, "USDC")


def rpc(devnet: dict, method: str, params: list):
    """One JSON-RPC call to the development chain; its result."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
    request = urllib.request.Request(devnet["rpcUrl"], data=body, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        reply = json.load(answer)
    if "error" in reply:
        raise RuntimeError(f"{method}: {reply['error']}")
    return reply["result"]


def balance_of(devnet: dict, holder: str, symbol: str = "USDC") -> int:
    """The holder's token balance, read from the chain (ERC-20 balanceOf over JSON-RPC eth_call)."""
    token = asset_of(devnet, symbol).split(":")[-1]
    call = {"to": token, "data": "0x70a08231" + holder[2:].lower().rjust(64, "0")}
    return int(rpc(devnet, "eth_call", [call, "latest"]), 16)


def run_action(devnet: dict, buyer, action: "pg.WalletRpcAction") -> str:
    """The buyer's wallet running one walletRpc action: eth_signTypedData_v4 signs the typed data;
    eth_sendTransaction signs and broadcasts the transaction (its one parameter, the {from, to, value, data}
    object) and waits for its receipt. Its result."""
    data = action.data
    if data.method == "eth_signTypedData_v4":
        return Account.sign_typed_data(buyer.key, full_message=json.loads(data.params[1])).signature.to_0x_hex()
    assert data.method == "eth_sendTransaction"
    tx = data.params[0]  # the transaction object, as JSON-RPC takes it
    assert isinstance(tx, dict) and tx["value"].startswith("0x"), tx
    assert tx["from"].lower() == buyer.address.lower()
    signed = Account.sign_transaction({
        "to": tx["to"], "value": int(tx["value"], 16), "data": tx["data"], "gas": 100_000,
        "gasPrice": 2 * int(rpc(devnet, "eth_gasPrice", []), 16),
        "nonce": int(rpc(devnet, "eth_getTransactionCount", [buyer.address, "pending"]), 16),
        "chainId": int(data.chain_id.split(":")[1]),
    }, buyer.key)
    tx_hash = rpc(devnet, "eth_sendRawTransaction", [signed.raw_transaction.to_0x_hex()])
    deadline = time.time() + 30
    while (receipt := rpc(devnet, "eth_getTransactionReceipt", [tx_hash])) is None and time.time() < deadline:
        time.sleep(0.2)
    assert receipt is not None and receipt["status"] == "0x1"
    return tx_hash


def settle(partner: pg.ApiClient, devnet: dict, merchant: pg.Merchant, key: str, address: str = MERCHANT_ADDRESS, symbol: str = "USDC") -> pg.CreateCryptoSettlementsResponse:
    entry = pg.CryptoSettlementInput(asset=asset_of(devnet, symbol), destination=f"{devnet['chainId']}:{address}")
    return pg.SettlementsApi(partner).create_crypto_settlements(
        merchant_id=merchant.id, idempotency_key=f"{key}-settlement-{symbol}",
        create_crypto_settlements_request=pg.CreateCryptoSettlementsRequest(settlements=[entry]),
    )


def new_merchant(partner: pg.ApiClient, key: str, name: str = "Python Coffee") -> pg.Merchant:
    request = pg.CreateMerchantRequest(merchant_name=name, merchant_email="owner@py.example.com")
    return pg.MerchantsApi(partner).create_merchant(idempotency_key=key, create_merchant_request=request).merchant


def test_creates_a_merchant_and_replays_it_for_the_same_idempotency_key(partner, key):
    merchant = new_merchant(partner, key)
    assert merchant.id.startswith("mrch_")
    assert (merchant.name, merchant.email, merchant.status, merchant.icon_url) == ("Python Coffee", "owner@py.example.com", pg.MerchantStatus.ACTIVE, None)
    assert abs(merchant.created_at - datetime.datetime.now(datetime.timezone.utc)) < datetime.timedelta(minutes=1)

    replay = new_merchant(partner, key)
    assert replay.id == merchant.id
    details = pg.MerchantsApi(partner).get_merchant(merchant_id=merchant.id)
    assert details.merchant.id == merchant.id and details.merchant.name == "Python Coffee"


def test_creates_a_payment_for_a_merchant_that_settles_usdc_on_the_development_chain(partner, devnet, key):
    merchant = new_merchant(partner, key, "Python Tea")
    settled = settle(partner, devnet, merchant, key)
    assert [(s.asset, s.destination) for s in settled.settlements] == [(usdc(devnet), f"{devnet['chainId']}:{MERCHANT_ADDRESS}")]

    payments = pg.PaymentsApi(partner)
    created = payments.create_payment(
        merchant_id=merchant.id, idempotency_key=f"{key}-payment",
        create_payment_request=pg.CreatePaymentRequest(reference_id="py-order-1", amount=pg.FiatAmount(unit="iso4217/USD", value="1250")),
    )
    assert created.payment_id.startswith("pay_")
    assert (created.status, created.is_final) == (pg.PaymentStatus.REQUIRES_ACTION, False)
    assert created.gateway_url.endswith(f"/?pid={created.payment_id}")
    assert time.time() < created.expires_at <= time.time() + 301

    details = payments.get_payment(id=created.payment_id, merchant_id=merchant.id)
    assert (details.payment_id, details.merchant_id, details.reference_id) == (created.payment_id, merchant.id, "py-order-1")
    assert (details.amount.unit, details.amount.value, details.status) == ("iso4217/USD", "1250", pg.PaymentStatus.REQUIRES_ACTION)
    assert details.refunded_at is None


def test_a_wallet_pays_on_chain_and_the_merchant_sees_it_succeed_and_settle(partner, wallet, devnet, key):
    payout = Account.create().address  # a fresh merchant wallet: its balance is this payment's settlement
    merchant = new_merchant(partner, key, "Python Bakery")
    settle(partner, devnet, merchant, key, payout)
    payments = pg.PaymentsApi(partner)
    created = payments.create_payment(
        merchant_id=merchant.id, idempotency_key=f"{key}-payment",
        create_payment_request=pg.CreatePaymentRequest(reference_id="py-paid-1", amount=pg.FiatAmount(unit="iso4217/USD", value="1250")),
    )

    # The wallet: a fresh key, funded with the development chain's USDC through the admin command.
    buyer = Account.create()
    gateway = pg.GatewayApi(wallet)
    offered = gateway.get_payment_options(id=created.payment_id, payment_options_request=pg.PaymentOptionsRequest(accounts=[f"{devnet['chainId']}:{buyer.address}"]))
    assert len(offered.options) == 1
    option = offered.options[0]
    assert (option.amount.unit, option.amount.value) == (f"caip19/{usdc(devnet)}", "12500000")
    action = option.actions[0].actual_instance
    assert isinstance(action, pg.WalletRpcAction)
    assert (action.data.chain_id, action.data.method, action.data.params[0]) == (devnet["chainId"], "eth_signTypedData_v4", buyer.address)
    funded = admin("devnet", "fund", "--address", buyer.address, "--asset", usdc(devnet), "--amount", option.amount.value)
    assert TX_HASH.match(funded["txHash"])

    signature = Account.sign_typed_data(buyer.key, full_message=json.loads(action.data.params[1])).signature.to_0x_hex()
    confirmed = gateway.confirm_payment(
        id=created.payment_id,
        confirm_payment_request=pg.ConfirmPaymentRequest(option_id=option.id, results=[pg.ActionResult(type="walletRpc", data=[signature])]),
    )
    assert confirmed.status in (pg.PaymentStatus.PROCESSING, pg.PaymentStatus.SUCCEEDED)
    status = confirmed
    deadline = time.time() + 60
    while not status.is_final and time.time() < deadline:
        status = gateway.get_gateway_payment_status(id=created.payment_id, max_poll_ms=5000)
    assert status.status == pg.PaymentStatus.SUCCEEDED
    assert TX_HASH.match(status.info.tx_id)
    assert status.info.option_amount.value == "12500000"

    # The merchant sees the same transaction, then the settlement of amount minus fee (none) to its wallet.
    details = payments.get_payment(id=created.payment_id, merchant_id=merchant.id)
    while details.settlement is None and time.time() < deadline:
        time.sleep(0.5)
        details = payments.get_payment(id=created.payment_id, merchant_id=merchant.id)
    assert (details.status, details.info.tx_id) == (pg.PaymentStatus.SUCCEEDED, status.info.tx_id)
    settled = details.settlement.successful
    assert (settled.amount.unit, settled.amount.value) == (f"caip19/{usdc(devnet)}", "12500000")
    assert TX_HASH.match(settled.tx_id) and settled.tx_id != status.info.tx_id
    assert (balance_of(devnet, buyer.address), balance_of(devnet, payout)) == (0, 12_500_000)


def test_a_wallet_pays_on_chain_in_usdt_through_permit2_approve_then_permit(partner, wallet, devnet, key):
    payout = Account.create().address
    merchant = new_merchant(partner, key, "Python Tether Shop")
    settle(partner, devnet, merchant, key, payout, "USDT")
    created = pg.PaymentsApi(partner).create_payment(
        merchant_id=merchant.id, idempotency_key=f"{key}-payment",
        create_payment_request=pg.CreatePaymentRequest(reference_id="py-usdt-1", amount=pg.FiatAmount(unit="iso4217/USD", value="300")),
    )
    buyer = Account.create()
    admin("devnet", "fund", "--address", buyer.address, "--asset", asset_of(devnet, "USDT"), "--amount", "3000000")
    admin("devnet", "fund", "--address", buyer.address, "--asset", f"{devnet['chainId']}/slip44:60", "--amount", str(10**17))
    gateway = pg.GatewayApi(wallet)
    offered = gateway.get_payment_options(id=created.payment_id, payment_options_request=pg.PaymentOptionsRequest(accounts=[f"{devnet['chainId']}:{buyer.address}"]))
    [option] = offered.options
    assert (option.amount.unit, option.amount.value, option.amount.display.asset_symbol) == (f"caip19/{asset_of(devnet, 'USDT')}", "3000000", "USDT")
    actions = [a.actual_instance for a in option.actions]
    assert [a.data.method for a in actions] == ["eth_sendTransaction", "eth_signTypedData_v4"]

    # The wallet runs the actions in order (the approve mined before the permit is signed); one result each.
    results = [pg.ActionResult(type="walletRpc", data=[run_action(devnet, buyer, a)]) for a in actions]
    confirmed = gateway.confirm_payment(id=created.payment_id, confirm_payment_request=pg.ConfirmPaymentRequest(option_id=option.id, results=results))
    assert confirmed.status in (pg.PaymentStatus.PROCESSING, pg.PaymentStatus.SUCCEEDED)
    status = confirmed
    deadline = time.time() + 60
    while not status.is_final and time.time() < deadline:
        status = gateway.get_gateway_payment_status(id=created.payment_id, max_poll_ms=5000)
    assert status.status == pg.PaymentStatus.SUCCEEDED and TX_HASH.match(status.info.tx_id)
    details = pg.PaymentsApi(partner).get_payment(id=created.payment_id, merchant_id=merchant.id)
    while details.settlement is None and time.time() < deadline:
        time.sleep(0.5)
        details = pg.PaymentsApi(partner).get_payment(id=created.payment_id, merchant_id=merchant.id)
    assert details.settlement.successful.amount.value == "3000000"
    assert (balance_of(devnet, buyer.address, "USDT"), balance_of(devnet, payout, "USDT")) == (0, 3_000_000)


def test_an_unknown_key_raises_with_the_error_body():
    with pytest.raises(UnauthorizedException) as caught:
        pg.MerchantsApi(client_for("pgk_not_a_key")).list_merchants()
    assert caught.value.status == 401
    assert caught.value.data is None or caught.value.data.code == "invalid_api_key"
    assert '"invalid_api_key"' in caught.value.body


def test_a_wallet_holding_only_eth_pays_an_eth_option_through_its_build_action(partner, wallet, devnet, key):
    """The chain's own coin (docs/native.md): the option's one action is a build; fetch answers the router transaction,
    which the wallet signs and broadcasts unchanged; confirm carries its hash; the merchant is settled in ETH."""
    payout = Account.create().address
    merchant = new_merchant(partner, key, "Python Ether Shop")
    eth = f"{devnet['chainId']}/slip44:60"
    entry = pg.CryptoSettlementInput(asset=eth, destination=f"{devnet['chainId']}:{payout}")
    pg.SettlementsApi(partner).create_crypto_settlements(
        merchant_id=merchant.id, idempotency_key=f"{key}-settlement-eth",
        create_crypto_settlements_request=pg.CreateCryptoSettlementsRequest(settlements=[entry]),
    )
    created = pg.PaymentsApi(partner).create_payment(
        merchant_id=merchant.id, idempotency_key=f"{key}-payment",
        create_payment_request=pg.CreatePaymentRequest(reference_id="py-eth-1", amount=pg.FiatAmount(unit="iso4217/USD", value="500")),
    )
    buyer = Account.create()
    admin("devnet", "fund", "--address", buyer.address, "--asset", eth, "--amount", str(10**18))
    gateway = pg.GatewayApi(wallet)
    offered = gateway.get_payment_options(id=created.payment_id, payment_options_request=pg.PaymentOptionsRequest(accounts=[f"{devnet['chainId']}:{buyer.address}"]))
    [option] = offered.options
    assert (option.amount.unit, option.amount.display.asset_symbol, option.amount.display.decimals) == (f"caip19/{eth}", "ETH", 18)
    [build] = [a.actual_instance for a in option.actions]
    assert isinstance(build, pg.BuildAction)
    fetched = gateway.fetch_payment_actions(
        id=created.payment_id, fetch_actions_request=pg.FetchActionsRequest(option_id=option.id, data=build.data.data),
    )
    [action] = [a.actual_instance for a in fetched.actions]
    assert isinstance(action, pg.WalletRpcAction) and action.data.method == "eth_sendTransaction"
    assert int(action.data.params[0]["value"], 16) == int(option.amount.value)

    tx_hash = run_action(devnet, buyer, action)
    confirmed = gateway.confirm_payment(
        id=created.payment_id,
        confirm_payment_request=pg.ConfirmPaymentRequest(option_id=option.id, results=[pg.ActionResult(type="walletRpc", data=[tx_hash])]),
    )
    assert confirmed.status in (pg.PaymentStatus.PROCESSING, pg.PaymentStatus.SUCCEEDED)
    status = confirmed
    deadline = time.time() + 60
    while not status.is_final and time.time() < deadline:
        status = gateway.get_gateway_payment_status(id=created.payment_id, max_poll_ms=5000)
    assert (status.status, status.info.tx_id) == (pg.PaymentStatus.SUCCEEDED, tx_hash)
    details = pg.PaymentsApi(partner).get_payment(id=created.payment_id, merchant_id=merchant.id)
    while details.settlement is None and time.time() < deadline:
        time.sleep(0.5)
        details = pg.PaymentsApi(partner).get_payment(id=created.payment_id, merchant_id=merchant.id)
    settled = details.settlement.successful
    assert settled.amount.unit == f"caip19/{eth}"
    assert int(rpc(devnet, "eth_getBalance", [payout, "latest"]), 16) == int(settled.amount.value) > 0
