"""The contract gate's Schemathesis hooks, in parts (contract-tests/hooks.py is the entry point Schemathesis loads)."""
