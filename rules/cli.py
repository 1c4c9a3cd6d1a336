"""``python -m rules``: the engines on the command line.

* ``python -m rules list`` — the slugs and their display names;
* ``python -m rules <slug> ops`` — the operations with the JSON Schema of their input;
* ``python -m rules <slug> <op> [--seed N]`` — input JSON on stdin, output JSON on stdout;
* ``python -m rules <slug> simulate [--battles N] [--seed S] [--policy default|random|greedy|engage]
  [--workers W] [--round-cap R]`` — a ``new-battle`` input on stdin, the odds of N simulated battles
  on stdout (``rules.simulate``), with ``seconds``, the wall time they took.

Exit codes follow the contract: 0 done, 2 invalid input (the error object is
printed on stdout), 1 only for a bug.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TextIO

from rules import registry, simulate
from rules.errors import InvalidInput, UnknownOperation
from rules.simulate_policy import POLICIES
from rules.validate import load_json

SIMULATE = "simulate"
SIMULATION_ONLY = ("battles", "policy", "workers", "round_cap")


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
    parser.add_argument("--battles", type=int, help=f"{SIMULATE}: how many battles (default 100)")
    parser.add_argument("--policy", choices=POLICIES, help=f"{SIMULATE}: how sides choose their orders")
    parser.add_argument("--workers", type=int, help=f"{SIMULATE}: processes to play them in (default 1)")
    parser.add_argument("--round-cap", type=int, help=f"{SIMULATE}: rounds after which a battle is unfinished")
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
        if args.op == SIMULATE:
            _print(_simulate(args, load_json(stdin.read())), stdout)
            return 0
        given = [name for name in SIMULATION_ONLY if getattr(args, name) is not None]
        if given:
            raise InvalidInput(f"--{given[0].replace('_', '-')} only goes with {SIMULATE}.", {"argv": given[0]})
        if args.op not in ruleset.operations:
            raise UnknownOperation(f"{args.slug} has no operation {args.op!r}")
        payload = load_json(stdin.read())
        _print(ruleset.run(args.op, payload, seed=args.seed), stdout)
        return 0
    except InvalidInput as exc:
        return _refuse(exc.error, exc.fields, stdout)
    except UnknownOperation as exc:
        return _refuse(f"Unknown ruleset or operation: {exc}.", {"argv": str(exc)}, stdout)


def _simulate(args: argparse.Namespace, setup: object) -> dict:
    """``simulate``: the settings given on the command line, the figures and the wall time they took."""
    settings = {name: getattr(args, name) for name in SIMULATION_ONLY if getattr(args, name) is not None}
    started = time.perf_counter()
    result = simulate.simulate_battles(args.slug, setup=setup, seed=args.seed or 0, **settings)
    return {**result, "seconds": round(time.perf_counter() - started, 3)}
