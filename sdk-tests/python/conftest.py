"""Fixtures of the Python SDK smoke test: a live service (PAYGATE_URL) and a partner account made with the
admin command (it reads DATABASE_URL), as an operator would. sdk-tests/run.mjs provides both."""
import json
import os
import pathlib
import subprocess
import uuid

import pytest

import paygate_client as pg

ROOT = pathlib.Path(__file__).resolve().parents[2]
VERSION = "2026-02-18"


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
def partner() -> pg.ApiClient:
    account = admin("accounts", "create", "--name", f"Python SDK smoke {uuid.uuid4()}")
    return client_for(account["apiKey"])


@pytest.fixture
def key() -> str:
    return str(uuid.uuid4())
