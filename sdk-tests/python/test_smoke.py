"""The generated Python client (generated/2026-02-18/sdk/python) against the live service: what it sends
is accepted, and what the service answers parses into the SDK's models with the right values."""
import datetime
import time

import pytest

import paygate_client as pg
from paygate_client.exceptions import UnauthorizedException
from conftest import client_for

USDC_BASE = "eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
DESTINATION = "eip155:8453:0x52908400098527886E0F7030069857D2E4169EE7"


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


def test_creates_a_payment_for_a_merchant_that_settles_usdc_on_base(partner, key):
    merchant = new_merchant(partner, key, "Python Tea")
    settled = pg.SettlementsApi(partner).create_crypto_settlements(
        merchant_id=merchant.id, idempotency_key=f"{key}-settlement",
        create_crypto_settlements_request=pg.CreateCryptoSettlementsRequest(settlements=[pg.CryptoSettlementInput(asset=USDC_BASE, destination=DESTINATION)]),
    )
    assert [(s.asset, s.destination) for s in settled.settlements] == [(USDC_BASE, DESTINATION)]

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


def test_an_unknown_key_raises_with_the_error_body():
    with pytest.raises(UnauthorizedException) as caught:
        pg.MerchantsApi(client_for("pgk_not_a_key")).list_merchants()
    assert caught.value.status == 401
    assert caught.value.data is None or caught.value.data.code == "invalid_api_key"
    assert '"invalid_api_key"' in caught.value.body
