"""Replaying a battle from its setup, its stored declarations and its stored dice.

Each round is resolved again by the engine with exactly the dice it used; the
result is compared with what was stored, so the replay also proves the
record is complete (the engines are deterministic given their dice).
"""

from __future__ import annotations

from masscombat.battles import pages, selectors
from masscombat.battles.services import EXTRA_ROUND
from masscombat.core import engines


def replay(viewer) -> list[dict]:
    battle = viewer.battle
    slug = battle.ruleset
    start = engines.run(slug, "new-battle", {**battle.setup["input"], "dice": battle.setup.get("dice", {})})
    state = start["state"]
    names = selectors.seen_names(viewer)
    steps = [{"number": 0, "log": selectors.rendered_log(battle, start["log"], names) if viewer.is_gm else [],
              "matches": True, "strength": {}}]
    extra = None
    for stored in selectors.rounds(battle):
        if extra is not None:  # a round after a tie: the GM chose to fight one more (D&D 5e S7.7)
            state = extra["state"]
        extra = stored.output.get(EXTRA_ROUND)
        same_start = state == stored.state_before
        output = engines.run(slug, "resolve-round",
                              {"state": state, "declarations": stored.declarations, "dice": stored.dice})
        state = output["state"]
        read = selectors.visible_round(viewer, stored, state, output)
        steps.append({
            "number": stored.number,
            "log": selectors.rendered_log(battle, read["log"], {**read["names"], **names}),
            "matches": same_start and output.get("events", []) == stored.events,
            "strength": pages.visible_strength(viewer, engines.strength(state)),
        })
    return steps
