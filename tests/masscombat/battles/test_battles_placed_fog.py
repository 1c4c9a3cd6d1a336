"""The GM's placement before round 1 is told only to whom it changes anything (HÉROS ambushes).

The ``placed`` event makes screens reload their map: sent to everyone, it
would tell side a that something it cannot see was moved.  Who hears it is
who the engine's ``visible-state`` shows something different after the move.
"""

import asyncio

import pytest
from asgiref.sync import sync_to_async

from masscombat.battles import services
from masscombat.battles.models import Battle, BattleEvent
from rules import registry
from tests.masscombat.battles.test_battles_heros import HEROS, WOOD, ambush, plain, unit  # noqa: F401 - fixtures
from tests.masscombat.battles.test_battles_websocket import drain, joined

pytestmark = pytest.mark.django_db(transaction=True)


def hidden_spot(battle: Battle) -> dict:
    """A hex, not the slingers' own, where the engine accepts them and they stay hidden (asked, not assumed)."""
    grid = battle.setup["input"]["map"]
    for col in range(grid["width"]):
        for row in range(grid["height"]):
            cell = {"col": col, "row": row}
            if cell == WOOD:
                continue
            try:
                state = registry.run("heros", "new-battle", HEROS.placement(battle.setup["input"], "b-frondeurs", cell),
                                     seed=battle.seed)["state"]
            except Exception:  # noqa: BLE001 - any refusal: try the next hex
                continue
            if unit(state, "b-frondeurs")["hidden"]:
                return cell
    pytest.fail("no hex keeps the slingers hidden")


def kinds(heard: list[dict]) -> list[str]:
    """The events heard, less who comes and goes (the sockets of the test itself)."""
    return [m["kind"] for m in heard if m["type"] == "event" and m["kind"] != "presence"]


def placed_heard(battle: Battle, users, piece: str, cell: dict) -> list[list[dict]]:
    """What each user's socket hears while the GM places ``piece`` on ``cell``."""
    async def scenario():
        sockets = [(await joined(user, battle.pk, battle.last_seq))[0] for user in users]
        await sync_to_async(services.place)(users[0], battle.pk, piece, cell, expected_version=battle.version)
        heard = [await drain(socket) for socket in sockets]
        for socket in sockets:
            await socket.disconnect()
        return heard

    return asyncio.run(scenario())


def test_moving_a_hidden_unit_is_not_told_to_the_side_it_is_hidden_from(ambush, gm, player, other_player):
    battle = Battle.objects.get(pk=ambush.pk)
    cell = hidden_spot(battle)
    gm_heard, a_heard, b_heard = placed_heard(battle, [gm, player, other_player], "b-frondeurs", cell)
    assert kinds(gm_heard) == kinds(b_heard) == ["placed"]
    assert kinds(a_heard) == []  # nothing at all, so no gap in its numbers either
    event = BattleEvent.objects.get(battle=battle, kind="placed")
    assert event.audience == "side:b" and "frondeurs" not in str(event.payload)
    assert unit(Battle.objects.get(pk=battle.pk).state, "b-frondeurs")["position"] == cell


def test_moving_a_unit_both_sides_see_is_told_to_everyone(ambush, gm, player, other_player):
    battle = Battle.objects.get(pk=ambush.pk)
    here = unit(battle.state, "a-lanciers")["position"]
    cell = next(c for c in ({"col": here["col"] + dc, "row": here["row"]} for dc in (1, -1, 2, -2))
                if _accepted(battle, "a-lanciers", c))
    gm_heard, a_heard, b_heard = placed_heard(battle, [gm, player, other_player], "a-lanciers", cell)
    assert kinds(gm_heard) == kinds(a_heard) == kinds(b_heard) == ["placed"]
    assert BattleEvent.objects.get(battle=battle, kind="placed").audience == "all"


def _accepted(battle: Battle, piece: str, cell: dict) -> bool:
    try:
        registry.run("heros", "new-battle", HEROS.placement(battle.setup["input"], piece, cell), seed=battle.seed)
    except Exception:  # noqa: BLE001 - refused
        return False
    return True
