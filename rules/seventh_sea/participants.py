"""``round-participants``: who declares this round, and what each gets if it declares nothing (S5.3, S11.2).

Each side's commander (``side:a``, ``side:b``) owes a strategy; each active
hero whose engagement no effect imposes owes one (H35); the GM (``gm``) may
override but is never waited for.  Defaults come from :mod:`.defaults`.
Nothing here is secret: both sides know every hero and his status (``hidden_from`` lists nothing).
"""

from __future__ import annotations

from rules.contract import GM, hidden_from, participant_key
from rules.model import Input
from rules.registry import Context
from rules.seventh_sea import ruleset, tables
from rules.seventh_sea.battle import load_state
from rules.seventh_sea.defaults import DEFAULT_STRATEGY, default_engagement
from rules.seventh_sea.effects import forced_engagement
from rules.seventh_sea.entities import State
from rules.seventh_sea.messages import say
from rules.seventh_sea.visibility import masked, names

GM_NAME = "Game master"


def hero_must_declare(state: dict, hero: dict) -> bool:
    """An active hero of a running battle whose engagement nothing imposes (S5.4 R1, H35)."""
    return not state["finished"] and hero["status"] == "active" and forced_engagement(hero["effects"])[0] is None


def participants(state: dict) -> list[dict]:
    running = not state["finished"]
    out = [{"key": participant_key("side", letter), "participant": {"kind": "side", "id": letter}, "side": letter,
            "commands": [letter], "name": state["sides"][letter]["name"], "must_declare": running,
            "default": {f"sides.{letter}.strategy": DEFAULT_STRATEGY} if running else {}}
           for letter in tables.SIDES]
    for hero in state["heroes"]:
        must = hero_must_declare(state, hero)
        out.append({"key": participant_key("hero", hero["id"]), "participant": {"kind": "hero", "id": hero["id"]},
                    "side": hero["side"], "commands": [hero["id"]], "name": hero["name"], "must_declare": must,
                    "default": {f"heroes.{hero['id']}.engagement": default_engagement(hero)} if must else {}})
    out.append({"key": GM, "participant": {"kind": "gm", "id": ""}, "side": None, "commands": [], "name": GM_NAME,
                "must_declare": False, "default": {}})
    return out


class ParticipantsInput(Input):
    state: State


@ruleset.operation("round-participants", ParticipantsInput,
                   summary="Who declares this round, whether the round waits for each, and the default orders "
                           "of those who declare nothing (S5.3, H35).")
def round_participants(data: ParticipantsInput, ctx: Context) -> dict:
    state = load_state(data.state)
    found = participants(state)
    say(ctx.log, "S5.3", "participants.listed", round=state["round"] + 1, count=len(found),
        waiting=sum(entry["must_declare"] for entry in found))
    hidden = hidden_from(names(state), {letter: names(masked(state, letter)) for letter in tables.SIDES})
    say(ctx.log, "S11.2", "participants.hidden", counts={letter: len(ids) for letter, ids in hidden.items()})
    return {"round": state["round"] + 1, "participants": found, "names": names(state), "hidden_from": hidden}
