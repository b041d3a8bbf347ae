"""Fixtures of the Python SDK smoke test: a live service (PAYGATE_URL), a partner account and a wallet key made
with the admin command (it reads DATABASE_URL), as an operator would, and the service's development chain
(`admin devnet info`, which reads DEVNET_DIR). sdk-tests/run.mjs provides all three.

PAYGATE_VERSION: the PAY-Version sent (default the stable version). PAYGATE_SDK_INSTALLED=1: the client must
be the one installed into this interpreter's environment (from an SDK wheel), not a source folder on the path."""
import json
import os
import pathlib
import subprocess
import sys
import uuid

import pytest

import paygate_client as pg

ROOT = pathlib.Path(__file__).resolve().parents[2]
VERSION = os.environ.get("PAYGATE_VERSION", "2026-02-18")
if os.environ.get("PAYGATE_SDK_INSTALLED") == "1":
    assert pathlib.Path(pg.__file__).resolve().is_relative_to(pathlib.Path(sys.prefix).resolve()), f"paygate_client from {pg.__file__}, not from {sys.prefix}"


def admin(*args: str) -> dict:
    out = subprocess.run(["node", str(ROOT / "dist/src/cli/admin.js"), *args], cwd=ROOT, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def client_for(api_key: str) -> pg.ApiClient:
    config = pg.Configuration(host=os.environ["PAYGATE_URL"])
    config.api_key["ApiKey"] = api_key  # the spec's security scheme name; sent as the Api-Key header
    client = pg.ApiClient(config)
    client.set_default_header("PAY-Version", VERSION)
    return client


@pytest.fixture(scope="session")
def account() -> dict:
    return admin("accounts", "create", "--name", f"Python SDK smoke {uuid.uuid4()}")


@pytest.fixture(scope="session")
def partner(account) -> pg.ApiClient:
    return client_for(account["apiKey"])


@pytest.fixture(scope="session")
def wallet(account) -> pg.ApiClient:
    """A wallet key of the same account: it may call the gateway API only."""
    return client_for(admin("keys", "create", "--account", account["accountId"], "--type", "wallet")["apiKey"])


@pytest.fixture(scope="session")
def devnet() -> dict:
    """{"chainId", "rpcUrl", "assets": [{"asset", "symbol", "decimals", "pegCurrency"}]}"""
    return admin("devnet", "info")


@pytest.fixture
def key() -> str:
    return str(uuid.uuid4())
