"""The web app's one door to the rules engines (``docs/battle-contract.md``).

Every view, service, form and socket that needs a rule answer asks it here,
never :mod:`rules.registry` directly (``lint-imports`` holds that).  Keeping
one door gives one place to:

- name the battle room contract's operations as typed functions, so that the
  web layer reads :class:`Participant`, :class:`Check` and :class:`Outcome`
  instead of five engines' dictionaries;
- turn an engine's refusal (:class:`rules.errors.InvalidInput`) into
  :class:`Refused`, which the web shows on the field it concerns;
- find the engines' message templates, to say their sentences in the
  reader's language (:mod:`masscombat.core.explain` renders them);
- keep the engines' answers about a battle's state (:func:`cached`), keyed by
  the battle's version and a digest of the state.

Some callers read the engine itself rather than the battle room's contract:
the rosters and the maps validate their data by running an engine operation
and read its :class:`InvalidInput` (:func:`call`, :func:`operation_schema`,
:func:`model`, :func:`parse`), the rules API runs any operation
(:func:`call` within its own budget), the previews and the balance page run
the simulator (:func:`preview_round`, :func:`battle_figures`,
:func:`battle_part`).  They all come through here too, so that
``lint-imports`` can hold that nothing else in the web app imports ``rules``.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from dataclasses import dataclass, field
from typing import Any

from masscombat.core import engine_budget
from masscombat.core.cache import compute_once
from rules import contract, registry
from rules.errors import InvalidInput, UnknownOperation
from rules.simulate import Cancelled, battle_figures, battle_part, preview_round, round_figures, round_part
from rules.simulate_play import Job
from rules.simulate_worker import serve as serve_simulation_parts
from rules.validate import MAX_DEPTH, load_json, parse

GM = contract.GM
PUBLIC = contract.PUBLIC
"""The viewer of a spectator (no side): ``visible-state`` and ``visible-round`` give it what every side may see."""

# The engines' own names for the callers that read the engine itself (see the module's docstring): the refusal
# an operation raises, an unknown slug or operation, the JSON decoder the engines decode input with (and its
# depth limit), a model's validation, the simulator's entry points and its job description.
__all__ = ["MAX_DEPTH", "Cancelled", "InvalidInput", "Job", "UnknownOperation", "battle_figures", "battle_part",
           "load_json", "parse", "preview_round", "round_figures", "round_part", "serve_simulation_parts"]


class Refused(Exception):
    """The engine refused its input: ``error`` is one sentence, ``fields`` one message per JSON path, and
    ``messages`` the fields the engine says by message key (``{path: {"key", "params"}}``), which
    :func:`masscombat.core.explain.refusal` renders in the reader's language."""

    def __init__(self, error: str, fields: dict[str, str] | None = None, messages: dict[str, dict] | None = None):
        super().__init__(error)
        self.error = error
        self.fields = dict(fields or {})
        self.messages = dict(messages or {})

    def as_dict(self) -> dict:
        return {"error": self.error, "fields": self.fields}


@dataclass(frozen=True)
class Participant:
    """Who declares this round (``round-participants``)."""

    key: str
    ref: dict  # {"kind", "id"}: what declaration-options and check-declaration take
    side: str | None  # None for the game master
    name: str
    must_declare: bool
    commands: tuple[str, ...] = ()
    default: dict = field(default_factory=dict)
    declared_by: str = "controller"  # "gm" where the GM gives its orders this round (D&D 5e's broken units, S11.1)


@dataclass(frozen=True)
class Check:
    """``check-declaration``'s verdict on one participant's declaration."""

    ok: bool
    fields: dict[str, str]
    messages: dict[str, dict]


@dataclass(frozen=True)
class Outcome:
    """The state's ``outcome``: whether the battle is over, who won, and what whoever ends it may do."""

    over: bool
    winner: str | None
    tie: bool
    reason: str
    one_more_round: bool = False  # stopped on a tie the GM settles: a draw, or one more round (D&D 5e S7.7)
    gm_names_winner: bool = False  # end-battle takes the GM's winner now


def run(slug: str, op: str, payload: dict, *, seed: int | None = None) -> dict:
    """Run one operation (within the request's budget, when it has one: :mod:`masscombat.core.engine_budget`);
    the engine's refusal becomes :class:`Refused`."""
    try:
        return engine_budget.run(registry.run, slug, op, payload, seed=seed)
    except InvalidInput as exc:
        raise Refused(exc.error, exc.fields, exc.messages) from exc


def call(slug: str, op: str, payload: dict, *, seed: int | None = None) -> dict:
    """Run one operation as the engine runs it: no budget, its refusal raised as :class:`InvalidInput` (for the
    rosters and maps, which report the engine's fields on their own data, and the rules API's own budget)."""
    return registry.run(slug, op, payload, seed=seed)


def operation_schema(slug: str, op: str) -> dict:
    """The JSON Schema of an operation's input (fixed for the life of the process: callers must not change it)."""
    return registry.get(slug).operations[op].input_schema()


def model(slug: str, name: str) -> type:
    """One of the engine's entity models (``rules.<slug>.entities``), for the forms of data no operation takes whole."""
    return getattr(importlib.import_module(f"rules.{slug}.entities"), name)


def table(slug: str, name: str) -> Any:
    """One of the engine's reference tables (``rules.<slug>.tables``: HÉROS' troop types), read only."""
    return getattr(importlib.import_module(f"rules.{slug}.tables"), name)


def rulesets() -> list:
    return registry.rulesets()


def ruleset(slug: str):
    """The registered ruleset (its names, operations and schemas); ``LookupError`` when unknown."""
    return registry.get(slug)


def has_operation(slug: str, op: str) -> bool:
    try:
        return op in registry.get(slug).operations
    except UnknownOperation:
        return False


def messages(slug: str) -> dict[str, dict[str, str]]:
    """The engine's sentence templates by message key and language."""
    return registry.get(slug).messages


def round_participants(slug: str, state: dict) -> list[Participant]:
    """Who declares this round, who is waited for (``must_declare``) and the orders each gets if silent."""
    answer = run(slug, "round-participants", {"state": state})
    return [
        Participant(key=p["key"], ref=p["participant"], side=p["side"], name=p["name"],
                    must_declare=p["must_declare"], commands=tuple(p.get("commands", ())),
                    default=p.get("default", {}), declared_by=p.get("declared_by", "controller"))
        for p in answer["participants"]
    ]


def hidden_from(slug: str, state: dict) -> dict[str, frozenset[str]]:
    """``{side: ids}``: what each side may not know of (``round-participants``' ``hidden_from``, asked as the GM):
    a hidden unit, an enemy character; a page names a participant only to whoever may know it."""
    answer = run(slug, "round-participants", {"state": state})
    return {side: frozenset(ids) for side, ids in (answer.get("hidden_from") or {}).items()}


def declaration_options(slug: str, state: dict, participant: dict, viewer: str,
                        declarations: dict | None = None) -> dict:
    payload: dict[str, Any] = {"state": state, "participant": participant, "viewer": viewer}
    if declarations:
        payload["declarations"] = declarations
    return run(slug, "declaration-options", payload)


def check_declaration(slug: str, state: dict, viewer: str, participant: dict, declaration: dict,
                      declarations: dict | None = None) -> Check:
    payload: dict[str, Any] = {"state": state, "viewer": viewer, "participant": participant,
                               "declaration": declaration}
    if declarations:
        payload["declarations"] = declarations
    answer = run(slug, "check-declaration", payload)
    return Check(ok=answer["ok"], fields=answer.get("fields", {}), messages=answer.get("messages", {}))


def merge_declarations(slug: str, state: dict, answers: dict[str, dict]) -> dict:
    """The engine's declarations object from each participant's answer (``{key: {path: value}}``)."""
    return merge(slug, state, answers).declarations


@dataclass(frozen=True)
class Merged:
    """``merge-declarations``'s answer.  An engine that applies the defaults of the silent when merging
    names them here (``defaults_applied``, with their ``defaults.applied`` log steps), not in
    ``resolve-round``'s answer."""

    declarations: dict
    defaults_applied: tuple[str, ...]
    log: tuple[dict, ...]


def merge(slug: str, state: dict, answers: dict[str, dict]) -> Merged:
    answer = run(slug, "merge-declarations", {"state": state, "declarations": answers})
    return Merged(declarations=answer["declarations"], defaults_applied=tuple(answer.get("defaults_applied") or ()),
                  log=tuple(step for step in answer.get("log") or () if step.get("key") == "defaults.applied"))


def resolve_round(slug: str, state: dict, declarations: dict, *, seed: int, dice: dict | None = None) -> dict:
    payload: dict[str, Any] = {"state": state, "declarations": declarations}
    if dice:
        payload["dice"] = dice
    return run(slug, "resolve-round", payload, seed=seed)


def place_piece(slug: str, setup: dict, piece: str, cell) -> dict:
    """The ``new-battle`` input ``setup`` with ``piece`` moved to ``cell`` before round 1 (``place-piece``)."""
    return run(slug, "place-piece", {"setup": setup, "piece": piece, "cell": cell})["setup"]


def end_battle(slug: str, payload: dict) -> dict:
    """``end-battle`` with the ruleset's input (``state`` and, where the GM names one, ``winner``)."""
    return run(slug, "end-battle", payload)


def visible_state(slug: str, state: dict, viewer: str) -> dict:
    """``{state, hidden, names}`` as ``viewer`` may see them (the GM sees the whole state)."""
    return run(slug, "visible-state", {"state": state, "viewer": viewer})


def visible_round(slug: str, round_output: dict, viewer: str, *, before: dict | None = None) -> dict:
    """What ``viewer`` may read of a resolved round: ``{events, log, dice, defaults_applied, names}``."""
    body = dict(round_output)
    if before is not None:
        body["before"] = before
    return run(slug, "visible-round", {"round": body, "viewer": viewer})


def outcome(state: dict) -> Outcome:
    found = state.get("outcome") or {}
    over = bool(found.get("over"))
    return Outcome(over=over, winner=found.get("winner"), tie=bool(found.get("tie")), reason=found.get("reason", ""),
                   one_more_round=bool(found.get("one_more_round")),
                   gm_names_winner=bool(found.get("gm_names_winner", not over)))


def strength(state: dict) -> dict[str, float]:
    return dict(state.get("strength") or {})


def secret_orders(slug: str, state: dict) -> frozenset[str]:
    """Keys of the participants whose stored orders their own side may not read before resolution
    (``round-participants``' ``orders_secret``: D&D 5e's GM orders for a broken unit, S11.3)."""
    answer = run(slug, "round-participants", {"state": state})
    return frozenset(p["key"] for p in answer["participants"] if p.get("orders_secret"))


CACHE_SECONDS = 6 * 3600


def cached(battle, what: str, ask):
    """An engine answer about a battle's state (``ask()``), memoised on the object and in Django's cache.

    ``battle`` is anything with ``pk``, ``ruleset``, ``version`` and ``state`` (a battle).  The cache
    key names the battle, its ``version`` (bumped by every service that writes ``state``) and a
    digest of the state itself: a state written without a bump, or a database rebuilt under a
    long-lived Redis, can never be answered from another state's entry.  Callers must not change
    the answer they get (it is shared).
    """
    memo = _memo(battle)
    cache_key = f"battle-{what}:{battle.pk}:{battle.version}:{memo['digest']}:{battle.ruleset}"
    if cache_key not in memo["answers"]:
        # Computed once however many requests miss together (every client reloads after an event).
        memo["answers"][cache_key] = compute_once(cache_key, ask, CACHE_SECONDS)
    return memo["answers"][cache_key]


def _memo(battle) -> dict:
    """This object's answers so far, started again whenever its state object or version changes."""
    memo = battle.__dict__.get("_options_memo")
    if memo is None or memo["state"] is not battle.state or memo["version"] != battle.version:
        encoded = json.dumps(battle.state, sort_keys=True, separators=(",", ":")).encode()
        memo = {"state": battle.state, "version": battle.version, "answers": {},
                "digest": hashlib.blake2b(encoded, digest_size=16).hexdigest()}
        battle.__dict__["_options_memo"] = memo
    return memo
