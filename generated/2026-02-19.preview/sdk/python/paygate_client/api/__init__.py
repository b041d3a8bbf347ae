# flake8: noqa

# import apis into api package
from paygate_client.api.api_keys_api import APIKeysApi
from paygate_client.api.account_api import AccountApi
from paygate_client.api.balance_api import BalanceApi
from paygate_client.api.gateway_api import GatewayApi
from paygate_client.api.merchants_api import MerchantsApi
from paygate_client.api.payments_api import PaymentsApi
from paygate_client.api.settlements_api import SettlementsApi
from paygate_client.api.test_helpers_api import TestHelpersApi
from paygate_client.api.webhooks_api import WebhooksApi
from paygate_client.api.x402_api import X402Api

