"""A guard against the tool itself (not a check exclusion), installed on import."""

import ast

import hypothesis.internal.lambda_sources as _lambda_sources

# Tool guard (not a check exclusion): Hypothesis describes lambdas for its reports by re-parsing their
# module source with `ast.parse`. On CPython 3.11.7 (this machine), parsing deep in the call stack can
# raise SystemError "AST constructor recursion depth mismatch" (a CPython bug fixed in later 3.11/3.12
# releases) instead of SyntaxError, and Hypothesis only expects the latter: the coverage phase of an
# operation then aborts with a Runtime Error that has nothing to do with our API. Treating that
# SystemError as "source not parseable" makes Hypothesis fall back to describing the lambda as
# "<unknown>"; only report text changes, never what is generated, sent or checked.
class _AstGuard:
    def __getattr__(self, name):
        return getattr(ast, name)

    @staticmethod
    def parse(*args, **kwargs):
        try:
            return ast.parse(*args, **kwargs)
        except SystemError as e:
            raise SyntaxError(str(e)) from e


_lambda_sources.ast = _AstGuard()
