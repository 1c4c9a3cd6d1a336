"""Beginning and end of a battle: ``new-battle`` (S5.1, S5.2) and ``end-battle`` (S5.5, S5.6, S4.14)."""

from __future__ import annotations

import copy
from typing import Annotated, Literal

from pydantic import Field

from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context
from rules.seventh_sea.messages import say
from rules.seventh_sea import ruleset, tables
from rules.seventh_sea.effects import has
from rules.seventh_sea.entities import (Hero, Options, Side, Sides, State, check_unique_ids, hero_dict, log_defaults,
                                        side_dict, state_dict)
from rules.seventh_sea.preparation import prepare
from rules.seventh_sea.standing import standing

LOOT_MODIFIER = tables.opportunity("wounded_porte_mage")["aftermath"]["if_conscious"]["roll_modifier"]


class NewBattleInput(Input):
    name: Annotated[str, Field(max_length=200)] = ""
    attacker: Side
    options: Options = Field(default_factory=Options)
    sides: Sides
    heroes: Annotated[list[Hero], Field(max_length=30)] = []


@ruleset.operation("new-battle", NewBattleInput, rolls=True,
                   summary="Set up a battle: validate, fill defaults, preparatory phase; state at round 0 (S5.1).")
def new_battle(data: NewBattleInput, ctx: Context) -> dict:
    check_unique_ids(data.heroes, "heroes")
    log_defaults(ctx.log, data)
    sides, preparation = {}, {}
    for letter in tables.SIDES:
        setup = getattr(data.sides, letter)
        if setup.free_raises is not None:
            preparation[letter] = {"source": "given", "free_raises": setup.free_raises}
            say(ctx.log, "S5.2", "prep.given", side=letter, free_raises=setup.free_raises)
        else:
            rolled = prepare(ctx, setup.general.model_dump(),
                             setup.quartermaster.model_dump() if setup.quartermaster else None, f":{letter}", letter)
            preparation[letter] = {"source": "rolled", **rolled}
        sides[letter] = side_dict(setup, letter, free_raises=preparation[letter]["free_raises"])
    heroes = [hero_dict(hero) for hero in data.heroes]
    for hero in heroes:
        say(ctx.log, "S3.5", "hero.status", hero_id=hero["id"], status=hero["status"])
    state = {"ruleset": "seventh_sea", "name": data.name, "options": data.options.model_dump(), "round": 0,
             "attacker": data.attacker, "finished": False, "winner": None, "aftermath_applied": False,
             "sides": sides, "heroes": heroes, "history": []}
    say(ctx.log, "S4.7", "battle.attacker", attacker=data.attacker)
    return {"state": standing(state), "preparation": preparation}


def load_state(model: State, path: str = "state") -> dict:
    """A validated state as new plain data, with the checks the models cannot make."""
    check_unique_ids(model.heroes, f"{path}.heroes")
    return state_dict(model)


class EndBattleInput(Input):
    state: State
    winner: Literal[tables.SIDES + ("none",)] | None = None


@ruleset.operation("end-battle", EndBattleInput,
                   summary="End the battle and apply the aftermath: Reputation, Porté mage loot (S5.5, S5.6).")
def end_battle(data: EndBattleInput, ctx: Context) -> dict:
    state = load_state(data.state)
    if state["aftermath_applied"]:
        raise InvalidInput.field("state.aftermath_applied", "the aftermath of this battle was already applied")
    if not state["finished"] and data.winner is None:
        raise InvalidInput.field("winner", "required while the battle is not finished (a, b or none)")
    given = None if data.winner in (None, "none") else data.winner
    if state["finished"] and data.winner is not None and given != state["winner"]:
        raise InvalidInput.field("winner", f"the battle was already won by {state['winner'] or 'none'}")
    winner = state["winner"] if state["finished"] else given
    say(ctx.log, "S5.5", "battle.ended", winner=winner)
    new = copy.deepcopy(state)
    new.update(finished=True, winner=winner, aftermath_applied=True)
    report, rewards = {}, []
    for hero in new["heroes"]:
        share = "full" if winner is not None and hero["side"] == winner else "half"
        awarded = hero["battle_reputation"] if share == "full" else hero["battle_reputation"] // 2
        after = hero["reputation"] + awarded - hero["reputation_lost"]
        report[hero["id"]] = {"side": hero["side"], "battle_reputation": hero["battle_reputation"],
                              "reputation_lost": hero["reputation_lost"], "share": share,
                              "reputation_awarded": awarded, "reputation_before": hero["reputation"],
                              "reputation_after": after, "status": hero["status"],
                              "flesh_wounds": hero["flesh_wounds"], "dramatic_wounds": hero["dramatic_wounds"]}
        say(ctx.log, "S4.14", "aftermath.reputation", hero_id=hero["id"], share=share,
            reputation_before=hero["reputation"], reputation_awarded=awarded, reputation_lost=hero["reputation_lost"],
            reputation_after=after)
        hero["reputation"] = after
        if hero["status"] == "active" and has(hero["effects"], "wounded_porte_mage"):
            reward = {"type": "porte_mage_loot", "hero_id": hero["id"], "roll_modifier": LOOT_MODIFIER}
            rewards.append(reward)
            say(ctx.log, "S7.4.13", "aftermath.reward", **{k: reward[k] for k in ("hero_id", "roll_modifier")})
    return {"winner": winner, "heroes": report, "rewards": rewards, "state": standing(new)}
