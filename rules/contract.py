"""Pieces of the battle room contract that every engine shares (``docs/battle-contract.md``).

The web application asks each engine the same questions with the same shapes:
who declares this round (``round-participants``), what a participant may
declare as a given viewer knows the battle (``declaration-options``), whether
one participant's declaration would pass ``resolve-round`` (``check-declaration``),
what a viewer may read of the state and of a resolved round (``visible-state``,
``visible-round``), and how the battle stands (``outcome`` and ``strength`` in
every state).  The rules behind each answer stay in the engine packages; this
module only holds the shapes, so that five engines cannot spell them five ways.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import Field

from rules.errors import InvalidInput
from rules.validate import parse

GM = "gm"
"""The viewer who sees everything: the game master."""

PUBLIC = "public"
"""The viewer who plays no side (a spectator): ``visible-state`` and ``visible-round`` give it only what
every side may see, so that watching a battle can never tell a side's secret to anyone."""

Viewer = Annotated[str, Field(min_length=1, max_length=40,
                              description='"gm", a side id, or "public" (visible-state and visible-round only).')]

Answer = Annotated[dict[str, Any], Field(max_length=500)]
"""One participant's declaration as the web collects it: ``{option path: value}``."""

Known = Annotated[dict[Annotated[str, Field(max_length=200)], Any], Field(
    max_length=500, description="The other declarations known so far: the engine's object, answers by participant "
                                "key ({key: {path: value}}) or one answer ({path: value}).")]
"""The ``declarations`` of ``check-declaration`` and ``declaration-options``, in any of the shapes
:func:`declarations_shape` tells apart."""

Setup = Annotated[dict[Annotated[str, Field(max_length=40)], Any], Field(max_length=20)]
"""The ``setup`` of ``place-piece``: a ``new-battle`` input as the web kept it (its own fields included)."""


def setup_as(model, setup: dict):
    """``setup`` parsed as ``model`` (the engine's ``new-battle`` input), its run's ``dice`` and ``seed`` left
    out, and its refusals given on the ``setup.<path>`` fields ``place-piece`` was asked with."""
    try:
        return parse(model, {k: v for k, v in setup.items() if k not in ("dice", "seed")})
    except InvalidInput as exc:
        def at(path: str) -> str:
            return f"setup.{path}" if path else "setup"

        raise InvalidInput(exc.error, {at(path): problem for path, problem in exc.fields.items()},
                           {at(path): message for path, message in exc.messages.items()}) from None


def participant_key(kind: str, ident: str = "") -> str:
    """The stable key of a participant: ``"<kind>:<id>"`` (``"gm"`` alone for the game master)."""
    return f"{kind}:{ident}" if ident else kind


def outcome(*, over: bool, reason: str, winner: str | None = None, tie: bool = False, one_more_round: bool = False,
            gm_names_winner: bool | None = None) -> dict:
    """The uniform ``outcome`` every state carries; ``reason`` is a log key of the engine.

    Two answers for whoever ends the battle: ``one_more_round``, whether the rules stopped it on a
    tie the GM settles, by a draw (``end-battle``) or by one more round (D&D 5e S7.7): then it
    waits for the GM rather than end; ``gm_names_winner``, whether ``end-battle`` takes the GM's
    winner now (by default: while the battle runs, the GM who stops it names the winner).
    """
    return {"over": over, "winner": winner, "tie": tie, "reason": reason, "one_more_round": one_more_round,
            "gm_names_winner": (not over) if gm_names_winner is None else gm_names_winner}


def hidden_from(everything: dict[str, str], seen_by: dict[str, dict[str, str]]) -> dict[str, list[str]]:
    """``round-participants``' ``hidden_from`` (asked as the GM): for each side, the ids the engine's ``names``
    of the whole battle hold and its ``names`` for that side leave out, i.e. what that side's
    ``visible-state`` hides (a hidden unit, an enemy character), so that the web says who takes part
    only to whoever may know it."""
    return {side: sorted(set(everything) - set(names)) for side, names in sorted(seen_by.items())}


KEY = re.compile(r"gm|[a-z_]+:.+", re.DOTALL)
"""A participant key as ``round-participants`` gives it: ``"gm"`` or ``"<kind>:<id>"`` (an id may hold dots)."""

ANSWERS, ANSWER, OBJECT = "answers", "answer", "object"
"""The three shapes of "the other declarations known so far" (``declarations_shape``)."""


def declarations_shape(value: dict | None) -> str:
    """Which shape the ``declarations`` of ``check-declaration`` or ``declaration-options`` came in.

    - ``ANSWERS``: answers by participant key, ``{"side:a": {path: value}, "gm": {...}}`` (what
      ``merge-declarations`` takes): every top-level key is a participant key and every value an object;
    - ``ANSWER``: one flat answer (or several merged), ``{path: value}``: a top-level key holds a dot;
    - ``OBJECT``: the engine's own declarations object (what ``resolve-round`` takes and
      ``merge-declarations`` returns); nothing at all reads as an empty one.

    Participant keys are tried first, since a key's id may hold a dot (``formation:A.melee``). No
    engine's object has a top-level key with a colon; two have a ``gm`` part, so ``{"gm": {...}}`` alone
    is the GM's answer only when that answer is written with paths (or is empty), else it is the object.
    """
    if not value:
        return OBJECT
    keyed = all(isinstance(key, str) and KEY.fullmatch(key) and isinstance(answer, dict)
                for key, answer in value.items())
    if keyed and (set(value) != {GM} or not value[GM] or is_flat(value[GM])):
        return ANSWERS
    return ANSWER if is_flat(value) else OBJECT


def is_flat(declaration: dict) -> bool:
    """Whether a declaration is written as ``{option path: value}`` (a top-level key holds a dot)."""
    return any("." in key for key in declaration)


def expand(answer: dict, split=lambda path: path.split(".")) -> dict:
    """Nest ``{"a.b.c": v}`` into ``{"a": {"b": {"c": v}}}``.

    ``split`` cuts a path into keys; an engine whose ids hold dots passes its own.
    A key without a dot is kept as it is (already nested).
    """
    nested: dict = {}
    for path, value in sorted(answer.items()):
        if "." not in path:
            merge_into(nested, {path: value})
            continue
        *parents, last = split(path)
        node = nested
        for name in parents:
            child = node.get(name)
            if not isinstance(child, dict):
                child = node[name] = {}
            node = child
        node[last] = value
    return nested


def merge_into(base: dict, extra: dict) -> dict:
    """Merge ``extra`` into ``base`` in place, dict by dict (a list or scalar in ``extra`` replaces)."""
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            merge_into(base[key], value)
        else:
            base[key] = value
    return base


def check_result(error: InvalidInput | None = None, messages: dict[str, dict] | None = None) -> dict:
    """The answer of ``check-declaration``: ``ok``, one sentence per refused path, and each refusal
    as a message (``rule``, ``key``, ``params``, ``text``) for the web to say in the reader's language."""
    fields = dict(error.fields) if error is not None else {}
    messages = dict(messages or {})
    for path, text in fields.items():
        messages.setdefault(path, {"rule": "", "key": "declaration.refused", "params": {"reason": text},
                                   "text": text})
    return {"ok": not fields, "fields": fields, "messages": messages}
