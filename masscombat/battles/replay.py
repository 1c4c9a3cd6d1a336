"""Replaying a battle from its setup, its stored declarations and its stored dice.

Each round is resolved again by the engine with exactly the dice it used; the
result is compared with what was stored, so the replay also proves the
record is complete (the engines are deterministic given their dice).
"""

from __future__ import annotations

from masscombat.battles import pages, selectors
from rules import registry


def replay(viewer) -> list[dict]:
    battle = viewer.battle
    slug = battle.ruleset
    start = registry.run(slug, "new-battle", {**battle.setup["input"], "dice": battle.setup.get("dice", {})})
    state = start["state"]
    steps = [{"number": 0, "log": selectors.rendered_log(battle, start["log"]) if viewer.is_gm else [],
              "matches": True, "strength": {}}]
    show_log = viewer.is_gm or viewer.adapter.round_log_public
    for stored in selectors.rounds(battle):
        if viewer.adapter.tie(state):  # a round after a tie: the GM chose to fight one more (D&D 5e S7.7)
            state = viewer.adapter.one_more_round(state)[2]
        same_start = state == stored.state_before
        output = registry.run(slug, "resolve-round",
                              {"state": state, "declarations": stored.declarations, "dice": stored.dice})
        state = output["state"]
        steps.append({
            "number": stored.number,
            "log": selectors.rendered_log(battle, _log(viewer, output["log"], stored.state_before)) if show_log else [],
            "matches": same_start and output.get("events", []) == stored.events,
            "strength": pages.visible_strength(viewer, viewer.adapter.strength(state)),
        })
    return steps


def _log(viewer, steps: list, before: dict) -> list:
    """The steps of a round this viewer may read, as in the room's round reports."""
    return viewer.adapter.report(viewer, [], steps, {}, before)[1]
