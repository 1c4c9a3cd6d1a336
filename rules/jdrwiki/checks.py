"""``check-declaration``: the checks ``resolve-round`` makes on one participant's part, run ahead.

The check is resolve-round's own code: the declarations are parsed by the
same model and the round is started (S5.3 R1–R3: the initiative phase, the
GM's changes, the S5.6 validation and the S5.7 application) on a copy of the
battle.  A corps that re-rolls its initiative is given the lowest roll
(``d20 = 1``, S5.4.2): costs are checked against the smallest pool the roll
can leave, so a declaration accepted here passes whatever the die says.

A side's viewer knows its own side's declarations only (S5.5.7: the GM's and
the other side's choices are not the viewer's to know, and S5.6 never checks
one side's part against the other's), so only those are merged; the other
side gets its defaults (:mod:`rules.jdrwiki.defaults`).  Three trials tell
whose part is wrong: the participant's part alone, then with the others'
known parts, and those parts without it, so a refusal is reported to the
participant only when its own part causes it.
"""

from __future__ import annotations

import copy
import re

from pydantic import Field

from rules.contract import GM, check_result, is_flat, participant_key
from rules.dice import Dice
from rules.errors import InvalidInput
from rules.explain import Log
from rules.jdrwiki import answers, defaults, entities, options
from rules.jdrwiki import round as round_
from rules.jdrwiki.answers import section
from rules.jdrwiki.battle import Battle
from rules.jdrwiki.messages import MESSAGES
from rules.model import Input
from rules.validate import parse

RULE = re.compile(r"\((S[0-9.]+)\)")
# The validation's most frequent sentences (declare.py, sheets.py) as message keys, so the room can say
# them in the reader's language; any other refusal keeps its sentence under ``declaration.refused``.
KEYED = [
    (re.compile(r"costs (?P<cost>\d+) initiative points for a cap of (?P<cap>\d+) and a pool of (?P<pool>\d+)"),
     "refusal.over_budget"),
    (re.compile(r"allocates (?P<total>-?\d+) points but only (?P<available>-?\d+) are available"),
     "refusal.allocation_over"),
    (re.compile(r"must list exactly (?P<count>\d+) bonuses"), "refusal.dropped_count"),
    (re.compile(r"a hero on cooldown may only intervene through a sacrifice"), "refusal.cooldown_sacrifice"),
    (re.compile(r"^must be an active enemy corps"), "refusal.not_an_enemy"),
    (re.compile(r"at most two actions of different types"), "refusal.action_types"),
    (re.compile(r"at most two actions, or three different actions"), "refusal.action_types_adaptation"),
    (re.compile(r"not allowed to a corps in total melee"), "refusal.total_melee_manoeuvre"),
]
HERO_FIELD = re.compile(r"\.heroes\[\d+\]\.([a-z_]+)")


class _Trial(Input):
    declarations: entities.Declarations = Field(default_factory=entities.Declarations)


def trial(state: dict, decl: dict) -> InvalidInput | None:
    """Start the round (R1–R3) with ``decl`` on a copy of ``state``: the refusal, or None."""
    dice = Dice({f"{cid}/initiative": 1 for cid in state["corps"]}, seed=0)
    try:
        parsed = parse(_Trial, {"declarations": decl}).declarations.model_dump(by_alias=True)
        battle = Battle(state, dice, Log())
        round_.start(battle, parsed, "declarations.", silent=defaults.silent_sides(battle, parsed))
    except InvalidInput as refusal:
        return refusal
    return None


def side_of_participant(battle: Battle, kind: str, pid: str) -> str | None:
    """The side a participant declares for (None for the GM); unknown ids are invalid input."""
    st = battle.state
    if kind == "gm":
        return None
    if kind == "side":
        if pid not in {a["side"] for a in st["armies"].values()}:
            raise InvalidInput.field("participant.id", "no army on this side")
        return pid
    if kind in ("army", "commander"):
        if pid not in st["armies"]:
            raise InvalidInput.field("participant.id", "unknown army")
        return st["armies"][pid]["side"]
    if kind in ("corps", "unit"):
        if pid not in st["corps"]:
            raise InvalidInput.field("participant.id", "unknown corps")
        return battle.side_of(pid)
    if pid not in st["heroes"]:
        raise InvalidInput.field("participant.id", "unknown hero")
    return st["armies"][st["heroes"][pid]["army_id"]]["side"]


def owns(battle: Battle, kind: str, pid: str, section: str, ident: str) -> bool:
    """Whether the entry ``section.ident`` of the declarations is this participant's to write."""
    if kind == "gm":
        return section == "gm"
    if section == "gm":
        return False
    corps = battle.state["corps"].get(ident) if isinstance(ident, str) else None
    army_id = ident if section == "armies" else corps["army_id"] if corps else None
    if army_id is None:
        return False
    if kind == "side":
        return battle.state["armies"][army_id]["side"] == pid
    if kind in ("army", "commander"):
        return section == "armies" and ident == pid
    return kind in ("corps", "unit") and section != "armies" and ident == pid


def restrict(battle: Battle, decl: dict, side: str | None) -> dict:
    """What a viewer knows of the declarations: everything for the GM, its own side's parts for a side."""
    if side is None:
        return decl
    kept = {"rerolls": [c for c in section(decl, "rerolls", list) if _corps_side(battle, c) == side],
            "armies": {a: v for a, v in section(decl, "armies").items()
                       if battle.state["armies"].get(a, {}).get("side") == side},
            "corps": {c: v for c, v in section(decl, "corps").items() if _corps_side(battle, c) == side}}
    return {k: v for k, v in kept.items() if v}


def _corps_side(battle: Battle, cid) -> str | None:
    return battle.side_of(cid) if isinstance(cid, str) and cid in battle.state["corps"] else None


def without(battle: Battle, decl: dict, kind: str, pid: str) -> dict:
    """``decl`` with this participant's part taken out."""
    out = copy.deepcopy(decl)
    if kind == "hero":
        return out  # his own earlier answer is kept apart already (_hero_answers); the entry is his commander's
    if kind == "gm":
        out.pop("gm", None)
        return out
    out["rerolls"] = [c for c in section(out, "rerolls", list) if not owns(battle, kind, pid, "corps", c)]
    for name in ("armies", "corps"):
        out[name] = {i: v for i, v in section(out, name).items() if not owns(battle, kind, pid, name, i)}
    return out


def with_hero_entry(battle: Battle, decl: dict, hero_id: str) -> dict:
    """``decl`` where the hero's commander sends him in, if he does not already: his own choices can
    then be checked before the commander decides (S4.10 holds whoever sends him)."""
    out = copy.deepcopy(decl)
    hero = battle.state["heroes"][hero_id]
    out["corps"] = section(out, "corps")
    corps = out["corps"][hero["corps_id"]] = section(out["corps"], hero["corps_id"])
    entries = corps["heroes"] = section(corps, "heroes", list)
    if not any(isinstance(e, dict) and e.get("hero_id") == hero_id for e in entries):
        entries.append({"hero_id": hero_id})
    return out


def check(state: dict, viewer: str, kind: str, pid: str, declaration: dict, known: dict | None) -> dict:
    """The contract's ``{ok, fields, messages}`` for one participant's declaration."""
    battle = Battle(state, Dice(seed=0), Log())
    side = side_of_participant(battle, kind, pid)
    if viewer != GM and (side is None or side != viewer):
        raise InvalidInput.field("viewer", "a side checks only its own participants' declarations")
    if battle.state["ended"]:
        raise InvalidInput.field("state.ended", "the battle is over")
    offered = [o["path"] for o in options.options(battle, kind, pid)[1]] if is_flat(declaration) else []
    stray = _not_offered(offered, declaration) if is_flat(declaration) else None
    if stray:
        return stray
    side_seen = None if viewer == GM else viewer
    known = answers.known_answer(known, participant_key(kind, "" if kind == "gm" else pid))
    plain, heroes = _hero_answers(battle, known, side_seen, pid if kind == "hero" else None)
    rest = without(battle, restrict(battle, answers.declarations(state, plain), side_seen), kind, pid)
    if kind == "hero":
        alone = _accepting(battle, answers.merge(state, [with_hero_entry(battle, {}, pid), declaration]), pid)
        mine = answers.merge(state, [with_hero_entry(battle, rest, pid), declaration, heroes])
        if not _sent(battle, rest, pid):
            mine = _accepting(battle, mine, pid)
        refusal = _own(trial(state, alone))
        if refusal is None:
            refusal = _own(trial(state, mine))
        if refusal is not None:
            return _answer(refusal, mine, declaration, offered)
    else:
        alone = answers.merge(state, [declaration])
        refusal = trial(state, alone)
        if refusal is not None:
            return _answer(refusal, alone, declaration, offered)
    together = answers.merge(state, [rest, declaration, heroes])
    refusal = trial(state, together)
    if refusal is not None and not _same(refusal, trial(state, answers.merge(state, [rest, heroes]))):
        return _answer(refusal, together, declaration, offered)
    return check_result()


def _not_offered(offered: list[str], answer: dict) -> dict | None:
    """An answer writes only this participant's option paths (S5.1: who declares what)."""
    stray = sorted(p for p in answer if p not in offered and not p.startswith(tuple(o + "." for o in offered)))
    if not stray:
        return None
    text = MESSAGES["refusal.not_an_option"]["en"]
    return {"ok": False, "fields": {p: text for p in stray},
            "messages": {p: {"rule": "S5.1", "key": "refusal.not_an_option", "params": {}, "text": text}
                         for p in stray}}


def _sent(battle: Battle, decl: dict, hero_id: str) -> bool:
    """Whether the hero's commander sends him in, in ``decl``."""
    corps = section(section(decl, "corps"), battle.state["heroes"][hero_id]["corps_id"])
    return any(isinstance(e, dict) and e.get("hero_id") == hero_id for e in section(corps, "heroes", list))


def _accepting(battle: Battle, decl: dict, hero_id: str) -> dict:
    """The hypothesis of a hero sent in while on cooldown is one where he accepts the sacrifice
    (S7.4.2): declining it only matters once his commander does send him, in the next trial."""
    hero = battle.state["heroes"][hero_id]
    if battle.round < hero["available_from_round"]:
        for entry in section(section(section(decl, "corps"), hero["corps_id"]), "heroes", list):
            if isinstance(entry, dict) and entry.get("hero_id") == hero_id:
                entry["sacrifice"] = True
    return decl


def _hero_answers(battle: Battle, known: dict, side: str | None, me: str | None) -> tuple[dict, dict]:
    """``known`` split into its plain paths and the heroes' own choices (kept apart, since they only
    land in an intervention the commander declares): the viewer's side's heroes, the checked hero aside."""
    if not is_flat(known):
        return known, {}
    plain, heroes = {}, {}
    for path, value in known.items():
        choice = answers.hero_choice(path)
        if choice is None:
            plain[path] = value
            continue
        hero = battle.state["heroes"].get(choice[1])
        if hero is not None and choice[1] != me and (
                side is None or battle.state["armies"][hero["army_id"]]["side"] == side):
            heroes[path] = value
    return plain, heroes


def _same(one: InvalidInput, other: InvalidInput | None) -> bool:
    return other is not None and dict(one.fields) == dict(other.fields)


def _own(refusal: InvalidInput | None) -> InvalidInput | None:
    """A hero's trial refusal, kept only when it falls on his own choices (not on being sent in)."""
    if refusal is None:
        return None
    for path in refusal.fields:
        found = HERO_FIELD.search(path)
        if found and found.group(1) in answers.HERO_FIELDS:
            return refusal
    return None


def _answer(refusal: InvalidInput, decl: dict, declaration: dict, offered: list[str]) -> dict:
    """The refusal as the contract's answer, at the answer's paths when it came as one."""
    flat = is_flat(declaration)
    offered = sorted(offered, key=lambda path: path not in declaration)  # the paths the answer gave, first
    fields, messages = {}, {}
    for path, text in refusal.fields.items():
        where = answers.answer_path(path, decl, offered) if flat else path.removeprefix(
            "declarations.")
        fields.setdefault(where, text)
        rule = RULE.search(text) or RULE.search(str(refusal))
        keyed = refusal.messages.get(path)  # a refusal the rules say by key; else read from its sentence
        key, params = (keyed["key"], keyed["params"]) if keyed else _keyed(text)
        messages.setdefault(where, {"rule": rule.group(1) if rule else "S5.6", "key": key, "params": params,
                                    "text": text})
    return {"ok": False, "fields": fields, "messages": messages}


def _keyed(text: str) -> tuple[str, dict]:
    """The message key and parameters of a validation sentence (numbers as numbers)."""
    for pattern, key in KEYED:
        found = pattern.search(text)
        if found:
            return key, {name: int(value) for name, value in found.groupdict().items()}
    return "declaration.refused", {"reason": text}
