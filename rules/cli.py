"""``python -m rules``: the engines on the command line.

* ``python -m rules list`` — the slugs and their display names;
* ``python -m rules <slug> ops`` — the operations with the JSON Schema of their input;
* ``python -m rules <slug> <op> [--seed N]`` — input JSON on stdin, output JSON on stdout.

Exit codes follow the contract: 0 done, 2 invalid input (the error object is
printed on stdout), 1 only for a bug.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from rules import registry
from rules.errors import InvalidInput, UnknownOperation
from rules.validate import load_json


def _print(data: object, out: TextIO) -> None:
    out.write(json.dumps(data, ensure_ascii=False))
    out.write("\n")


def _refuse(error: str, fields: dict[str, str], out: TextIO) -> int:
    _print({"error": error, "fields": fields}, out)
    return 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as the contract's error object (exit 2)."""

    def error(self, message: str):  # type: ignore[override]
        raise InvalidInput(f"Bad command line: {message}.", {"argv": message})


def main(argv: list[str] | None = None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    parser = _Parser(prog="python -m rules", description="Run a mass-combat rules engine.")
    parser.add_argument("slug", help="'list', or a ruleset slug")
    parser.add_argument("op", nargs="?", help="'ops', or an operation name")
    parser.add_argument("--seed", type=int, help="seed for the dice not given in the input")
    try:
        args = parser.parse_args(argv)
        if args.slug == "list":
            _print({rs.slug: rs.names for rs in registry.rulesets()}, stdout)
            return 0
        ruleset = registry.get(args.slug)
        if args.op is None:
            raise InvalidInput("Name an operation, or 'ops' to list them.", {"argv": "operation missing"})
        if args.op == "ops":
            _print(ruleset.describe(), stdout)
            return 0
        if args.op not in ruleset.operations:
            raise UnknownOperation(f"{args.slug} has no operation {args.op!r}")
        payload = load_json(stdin.read())
        _print(ruleset.run(args.op, payload, seed=args.seed), stdout)
        return 0
    except InvalidInput as exc:
        return _refuse(exc.error, exc.fields, stdout)
    except UnknownOperation as exc:
        return _refuse(f"Unknown ruleset or operation: {exc}.", {"argv": str(exc)}, stdout)
