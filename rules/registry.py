"""Rulesets and their operations, found by slug.

Each engine package (``rules/<slug>/``) builds one :class:`Ruleset` named
``ruleset`` and registers its operations on it with the
:meth:`Ruleset.operation` decorator::

    ruleset = Ruleset("synapse", {"en": "SYNAPSE — mass combat", "fr": "SYNAPSE — Le combat de masse"})

    @ruleset.operation("battle-scale", BattleScaleInput, summary="Sequence duration (S4.1).")
    def battle_scale(data: BattleScaleInput, ctx: Context) -> dict:
        ctx.log.add("S4.1", "scale.duration", "A sequence lasts {minutes} min.", minutes=10)
        return {"minutes": 10}

:func:`rulesets` discovers every engine package below ``rules`` that defines
``ruleset``, so a new engine appears in the CLI and the web API as soon as its
package exists.  :meth:`Ruleset.run` is the single path by which anything
runs an operation: it validates, sets up the dice and the log, calls the
engine and assembles the output (``dice`` and ``log`` included).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from pydantic import BaseModel

import rules
from rules.dice import MAX_GIVEN_ROLLS, Dice, is_int
from rules.errors import InvalidInput, UnknownOperation
from rules.explain import Log
from rules.validate import check_depth, parse

SEED_LIMIT = 2**63


@dataclass
class Context:
    """What an engine function receives besides its validated input."""

    dice: Dice
    log: Log = field(default_factory=Log)


@dataclass(frozen=True)
class Operation:
    name: str
    input_model: type[BaseModel]
    func: Callable[[Any, Context], dict]
    summary: str
    rolls: bool

    def input_schema(self) -> dict:
        """JSON Schema of the input, with the ``seed`` and ``dice`` every input may carry."""
        schema = self.input_model.model_json_schema()
        properties = schema.setdefault("properties", {})
        properties["seed"] = {
            "type": "integer",
            "description": "Seeds the dice that are not given.",
            "minimum": -(SEED_LIMIT - 1),
            "maximum": SEED_LIMIT - 1,
        }
        if self.rolls:
            properties["dice"] = {
                "type": "object",
                "description": "Named rolls to use instead of drawing them (see the spec's dice names).",
                "maxProperties": MAX_GIVEN_ROLLS,
            }
        return schema


class Ruleset:
    def __init__(
        self,
        slug: str,
        names: dict[str, str],
        *,
        messages: dict[str, dict[str, str]] | None = None,
        always_echo_dice: bool = False,
    ):
        """``names`` holds the display name by language (``en``, ``fr``).

        ``messages`` maps every log key the engine emits to its sentence
        templates by language (``{"en": "...", "fr": "..."}``, placeholders
        named as the step's params), for the web layer to render logs in the
        reader's language.  ``always_echo_dice``: the spec wants ``"dice"`` in
        every output, even of operations that never roll (7th Sea, HÉROS).
        """
        self.slug = slug
        self.names = names
        self.messages = messages or {}
        self.always_echo_dice = always_echo_dice
        self.operations: dict[str, Operation] = {}

    def operation(self, name: str, input_model: type[BaseModel], *, summary: str, rolls: bool = False):
        def register(func: Callable[[Any, Context], dict]) -> Callable[[Any, Context], dict]:
            if name in self.operations:
                raise ValueError(f"{self.slug}: operation {name} registered twice")
            self.operations[name] = Operation(name, input_model, func, summary, rolls)
            return func

        return register

    def run(self, op_name: str, payload: Any, seed: int | None = None, *, nested_checked: bool = False) -> dict:
        """Run one operation on a decoded JSON payload.

        ``seed``, when given (the CLI's ``--seed``), overrides the payload's.
        ``nested_checked``: the caller built the payload from this engine's own
        outputs or from input already checked (the simulator, hundreds of
        calls a battle), so the nesting check, a walk of every value that
        only guards input from outside, is skipped; nothing else changes.
        Raises :class:`InvalidInput` for anything the contract calls invalid,
        :class:`UnknownOperation` for a name this ruleset lacks.
        """
        operation = self.operations.get(op_name)
        if operation is None:
            raise UnknownOperation(f"{self.slug} has no operation {op_name!r}")
        if not isinstance(payload, dict):
            raise InvalidInput("The input must be a JSON object.", {"": "must be an object"})
        if not nested_checked:
            check_depth(payload)
        body = dict(payload)
        body_seed = body.pop("seed", None)
        given_dice = body.pop("dice", None)
        if body_seed is not None and not (is_int(body_seed) and abs(body_seed) < SEED_LIMIT):
            raise InvalidInput.field("seed", "must be an integer of magnitude below 2^63")
        data = parse(operation.input_model, body)
        ctx = Context(Dice(given_dice, body_seed if seed is None else seed))
        result = dict(operation.func(data, ctx))
        if operation.rolls or self.always_echo_dice:
            result["dice"] = ctx.dice.used
        result["log"] = ctx.log.steps
        return result

    def describe(self) -> dict:
        """The ``ops`` listing: every operation with its summary and input schema."""
        return {
            "slug": self.slug,
            "names": self.names,
            "operations": {
                op.name: {"summary": op.summary, "rolls": op.rolls, "input_schema": op.input_schema()}
                for op in self.operations.values()
            },
        }


@cache
def _discover() -> dict[str, Ruleset]:
    found: dict[str, Ruleset] = {}
    for module in pkgutil.iter_modules(rules.__path__):
        if not module.ispkg:
            continue
        package = importlib.import_module(f"rules.{module.name}")
        ruleset = getattr(package, "ruleset", None)
        if isinstance(ruleset, Ruleset):
            found[ruleset.slug] = ruleset
    return dict(sorted(found.items()))


def rulesets() -> list[Ruleset]:
    """Every registered ruleset, sorted by slug."""
    return list(_discover().values())


def get(slug: str) -> Ruleset:
    try:
        return _discover()[slug]
    except KeyError:
        raise UnknownOperation(f"no ruleset {slug!r}") from None


def run(slug: str, op_name: str, payload: Any, seed: int | None = None) -> dict:
    """Run ``op_name`` of ruleset ``slug``: the entry point of the CLI and the web bridge."""
    return get(slug).run(op_name, payload, seed)
