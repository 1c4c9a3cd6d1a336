"""D&D 5e: the GM settles a tie (S7.7, S11.1), and players read the round's dice and log less hidden stands (S11.3).

The battle is the one of :mod:`test_battles_dnd5e` (orc horde, side A, Pippin;
hobgoblin legion, side B, Merry).  A tie is made as the rules make one: both
sides reach the victory threshold with the same points at the end of a round.
"""

import copy
import json
import re

import pytest
from django.urls import reverse

from masscombat.battles import replay, selectors, services
from masscombat.battles.models import Battle
from masscombat.core import explain
from tests.masscombat.battles.test_battles_dnd5e import (  # noqa: F401 (fixtures)
    _create, _hide, _options, _post, _unit, dnd_battle, ford,
)

pytestmark = pytest.mark.django_db


def _points(battle, a: int, b: int) -> None:
    state = copy.deepcopy(battle.state)
    state["sides"]["A"]["victory_points"], state["sides"]["B"]["victory_points"] = a, b
    Battle.objects.filter(pk=battle.pk).update(state=state)
    battle.refresh_from_db()


def _award(client, battle, *sides) -> None:
    """The GM's declaration: one victory point to each side named (S5.13.4)."""
    response = client.post(reverse("battles:declare", args=[battle.pk]), {
        "participant": selectors.GM_KEY, "round": battle.current_round, "gm.award_vp": [json.dumps(s) for s in sides]})
    assert response.status_code == 302
    assert battle.declarations.get(round=battle.current_round, participant=selectors.GM_KEY).data["gm.award_vp"] == [
        *sides]


@pytest.fixture
def tied(ford, client_for, gm):
    """A battle won at 1 VP whose round 1 gives each side one: the engine stops it on equal points."""
    assert _create(ford, client_for(gm), victory_threshold=1).status_code == 302
    battle = Battle.objects.get(name="Le gué")
    _award(client_for(gm), battle, "A", "B")
    services.resolve_round(gm, battle.pk, expected_round=1)
    return Battle.objects.get(pk=battle.pk)


def _status(client, battle) -> str:
    return client.get(reverse("battles:part", args=[battle.pk, "status"])).content.decode()


def test_a_tie_waits_for_the_gm_who_alone_is_offered_the_choice(tied, client_for, gm, player, other_player):
    assert tied.state["battle_over"] and tied.status == Battle.Status.RUNNING and tied.aftermath is None
    page = _status(client_for(gm), tied)
    assert "data-one-more-round" in page and "data-draw" in page and "data-resolve" not in page
    for someone in (player, other_player):
        page = _status(client_for(someone), tied)
        assert "equal victory points" in page and "data-one-more-round" not in page and "data-draw" not in page
    # a player's request is refused and changes nothing
    version = tied.version
    for someone in (player, other_player):
        response = client_for(someone).post(reverse("battles:one_more_round", args=[tied.pk]), {"round": 2})
        assert response.status_code == 403
        response = client_for(someone).post(reverse("battles:end", args=[tied.pk]), {"winner": ""})
        assert response.status_code == 403
    tied.refresh_from_db()
    assert tied.version == version and tied.state["battle_over"] and tied.status == Battle.Status.RUNNING


def test_the_gms_draw_ends_the_battle_through_end_battle(tied, client_for, gm):
    client = client_for(gm)
    for _twice in range(2):
        assert client.post(reverse("battles:end", args=[tied.pk]), {"winner": ""}).status_code == 302
    tied.refresh_from_db()
    assert tied.status == Battle.Status.OVER
    assert tied.aftermath["outcome"] == "draw" and tied.aftermath["winner"] is None
    assert any("end.draw" == step["key"] for step in tied.aftermath["log"])
    with pytest.raises(Exception):
        services.one_more_round(gm, tied.pk, expected_round=2)


def test_one_more_round_once_then_the_battle_ends_after_it(tied, client_for, gm, player):
    client = client_for(gm)
    for _twice in range(2):
        response = client.post(reverse("battles:one_more_round", args=[tied.pk]), {"round": 2})
        assert response.status_code == 302
    battle = Battle.objects.get(pk=tied.pk)
    assert battle.version == tied.version + 1 and battle.status == Battle.Status.RUNNING
    assert battle.state["battle_over"] is False and not battle.state["outcome"]["over"]
    choice = battle.rounds.get(number=1).output["extra_round"]
    assert choice["outcome"] == "extra_round" and choice["margin"] == 0
    # declarations are open again; the round report says one more round is fought
    assert "data-resolve" in _status(client, battle)
    reports = client_for(player).get(reverse("battles:part", args=[battle.pk, "reports"])).content.decode()
    assert "one more round, the last" in reports
    # the GM awards a point in the extra round: the battle ends after it, won on points
    _award(client, battle, "A")
    services.resolve_round(gm, battle.pk, expected_round=2)
    battle.refresh_from_db()
    assert battle.status == Battle.Status.OVER
    assert (battle.aftermath["outcome"], battle.aftermath["winner"], battle.aftermath["margin"]) == (
        "tactical_victory", "A", 1)
    # the replay resolves the extra round from the state the GM's choice made
    viewer = selectors.viewer(gm, selectors.Action.BATTLE_VIEW, battle.pk)
    assert [step["matches"] for step in replay.replay(viewer)] == [True, True, True]


def test_the_round_after_a_tie_ends_the_battle_whatever_the_points(tied, gm):
    services.one_more_round(gm, tied.pk, expected_round=2)
    battle = Battle.objects.get(pk=tied.pk)
    # were the threshold out of reach, the engine would not stop the battle: the extra round still does (S7.7)
    Battle.objects.filter(pk=battle.pk).update(state={**battle.state, "victory_threshold": 100})
    services.resolve_round(gm, battle.pk, expected_round=2)
    battle.refresh_from_db()
    assert battle.state["battle_over"] and battle.state["outcome"]["reason"] == "outcome.tie_break"  # the engine's end
    assert not battle.state["outcome"]["one_more_round"]
    assert battle.status == Battle.Status.OVER and battle.aftermath["outcome"] == "draw"


def test_undoing_the_tie_round_undoes_the_choice_and_a_choice_needs_a_tie(tied, gm):
    services.one_more_round(gm, tied.pk, expected_round=2)
    assert services.undo_round(gm, tied.pk, expected_round=1)
    battle = Battle.objects.get(pk=tied.pk)
    assert battle.round == 0 and not battle.rounds.exists() and not battle.state["battle_over"]
    with pytest.raises(Exception, match="not on a tie"):
        services.one_more_round(gm, tied.pk, expected_round=1)


def test_a_round_that_ends_on_unequal_points_ends_the_battle(dnd_battle, gm):
    _points(dnd_battle, 11, 10)
    services.resolve_round(gm, dnd_battle.pk, expected_round=1)
    battle = Battle.objects.get(pk=dnd_battle.pk)
    assert battle.status == Battle.Status.OVER and battle.aftermath["winner"] == "A"


def test_ending_the_battle_now_the_points_decide_not_a_named_winner(dnd_battle, client_for, gm):
    _points(dnd_battle, 4, 2)
    client = client_for(gm)
    page = _status(client, dnd_battle)
    assert 'name="winner"' not in page and "The victory points as they stand decide" in page
    response = client.post(reverse("battles:end", args=[dnd_battle.pk]), {"winner": "B"}, follow=True)
    assert "The victory points decide who wins" in response.content.decode()
    dnd_battle.refresh_from_db()
    assert dnd_battle.status == Battle.Status.RUNNING and dnd_battle.aftermath is None
    for winner in ("A", ""):  # the side the points make, or none: the same ending, once
        assert client.post(reverse("battles:end", args=[dnd_battle.pk]), {"winner": winner}).status_code == 302
    dnd_battle.refresh_from_db()
    assert dnd_battle.status == Battle.Status.OVER
    assert (dnd_battle.aftermath["outcome"], dnd_battle.aftermath["winner"]) == ("tactical_victory", "A")


# -- what players read of a round ---------------------------------------------------------------


def _reports(client, battle) -> str:
    return client.get(reverse("battles:part", args=[battle.pk, "reports"])).content.decode()


def test_a_hidden_stands_attack_is_shown_to_the_enemy_without_its_square_dice_or_log(
        dnd_battle, client_for, gm, player, other_player):
    archers = _unit(dnd_battle, "B", "Archers hobgobelins")
    stand = dnd_battle.state["units"][archers]["stands"][0]
    _hide(dnd_battle, stand, [5, 2])
    options = _options(dnd_battle, f"unit:{archers}")
    shot = next(a for a in options[f"units.{archers}.stands[0].attacks"]["allowed"] if a["attack"] == "longbow")
    walk = options[f"units.{archers}.stands[0].move"]["allowed"][0]
    assert _post(client_for(other_player), dnd_battle, f"unit:{archers}", {
        f"units.{archers}.action": "attack", f"units.{archers}.stands[0].move": walk,
        f"units.{archers}.stands[0].attacks": (shot,)}).status_code == 302
    done = services.resolve_round(gm, dnd_battle.pk, expected_round=1)
    assert any(e["type"] == "attack" and e["attacker"] == stand for e in done.events)
    assert any(e["type"] == "move" and e["actor"] == stand and e["from"] == [5, 2] for e in done.events)
    assert any(name.startswith(f"{stand}.") for name in done.dice)
    assert any(stand in str(step.get("params")) for step in done.log)
    battle = Battle.objects.get(pk=dnd_battle.pk)
    assert not battle.state["stands"][stand]["hidden"]  # the attack revealed it (S5.8.5)

    enemy = _reports(client_for(player), battle)
    assert "<strong>Archers hobgobelins 1</strong> attacks " in enemy
    assert stand not in enemy  # no die, no log step naming it
    assert f"{stand}." not in enemy
    assert "class=\"log\"" in enemy  # the rest of the log is there
    assert "<span class=\"die\">Archers hobgobelins 1 · " not in enemy  # nor its dice by name
    for reader in (other_player, gm):  # its own side and the GM read its dice, by its name
        page = _reports(client_for(reader), battle)
        assert "<strong>Archers hobgobelins 1</strong> attacks " in page and "<span class=\"die\">Archers hobgobelins 1 · " in page
        assert stand not in page, re.findall(rf".{{80}}{stand}.{{80}}", page)
    # the attack event the enemy reads carries no square of the stand
    viewer = selectors.viewer(player, selectors.Action.BATTLE_VIEW, battle.pk)
    from masscombat.battles import pages

    (report,) = pages.reports(viewer, list(battle.rounds.all()))
    assert report["dice"] == [(explain.die_label(name, report["names"]), value) for name, value in done.dice.items()
                              if not name.startswith(f"{stand}.")]
    assert report["log"] and all(stand not in str(step) for step in report["log"])
    assert [e for e in report["events"] if e.get("attacker") == stand]
    (move,) = [e for e in report["events"] if e["type"] == "move" and e["actor"] == stand]
    assert "from" not in move and "to" not in move and move["steps_taken"]
    # the replay (the stand was hidden by hand here, so the setup does not replay) reads a round the same way
    replayed = {"events": done.events, "log": done.log, "dice": done.dice}
    steps = selectors.visible_round(viewer, done, battle.state, {**replayed, "state": battle.state})["log"]
    assert steps and all(stand not in str(step) for step in steps)
    own = selectors.viewer(other_player, selectors.Action.BATTLE_VIEW, battle.pk)
    assert selectors.visible_round(own, done, battle.state, {**replayed, "state": battle.state})["log"][
        :len(done.log)] == done.log


def test_a_hidden_stands_move_is_in_no_die_log_or_event_of_the_enemy(dnd_battle, client_for, gm, player,
                                                                    other_player):
    archers = _unit(dnd_battle, "B", "Archers hobgobelins")
    stand = dnd_battle.state["units"][archers]["stands"][0]
    _hide(dnd_battle, stand, [5, 2])
    walk = _options(dnd_battle, f"unit:{archers}")[f"units.{archers}.stands[0].move"]["allowed"][0]
    assert _post(client_for(other_player), dnd_battle, f"unit:{archers}",
                 {f"units.{archers}.stands[0].move": walk}).status_code == 302
    done = services.resolve_round(gm, dnd_battle.pk, expected_round=1)
    assert any(stand in str(step.get("params")) for step in done.log)
    battle = Battle.objects.get(pk=dnd_battle.pk)
    enemy = _reports(client_for(player), battle)
    assert stand not in enemy and "Archers hobgobelins 1" not in enemy and "class=\"log\"" in enemy
    own = _reports(client_for(other_player), battle)
    assert "<strong>Archers hobgobelins 1</strong> moves" in own and stand not in own  # named, never by its id


@pytest.mark.browser
def test_the_tie_choice_in_the_room_phone_and_desktop(browser, daphne_server, screenshot, tmp_path):
    """The demo ford battle at 10 VP each: round 1 ends on a tie; the GM's page offers the choice, the
    phone (French) says the GM decides; one more round opens round 2."""
    import sqlite3

    from playwright.sync_api import expect

    from tests.masscombat.battles.conftest import DEMO_BATTLES, gm_and_players, leave_the_room, no_sideways_scroll

    base = daphne_server(demo=True)
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        (pk, state), = db.execute("select id, state from battles_battle where name = ?", [DEMO_BATTLES["dnd5e"][1]])
        state = json.loads(state)
        for side in state["sides"].values():
            side["victory_points"] = 10
        db.execute("update battles_battle set state = ? where id = ?", [json.dumps(state), pk])
    gm, aline = gm_and_players(browser, base, "dnd5e", bastien=None)
    gm.get_by_role("button", name="Resolve round 1").click()
    gm.get_by_role("button", name="Resolve with these default orders").click()  # nobody declared: the GM confirms
    expect(gm.locator("[data-one-more-round]")).to_be_visible()
    expect(gm.locator("[data-resolve]")).to_have_count(0)
    expect(aline.locator("[data-tie]")).to_contain_text("Le meneur de jeu choisit entre un match nul et un round de plus.")
    expect(aline.locator("[data-one-more-round]")).to_have_count(0)
    no_sideways_scroll(aline)
    screenshot(gm, "battle-dnd5e-en-desktop-tie")
    screenshot(aline, "battle-dnd5e-fr-phone-tie")
    gm.locator("[data-one-more-round]").click()
    expect(gm.get_by_role("button", name="Resolve round 2")).to_be_visible()
    expect(aline.locator("#battle-reports .report").first).to_contain_text("un round de plus, le dernier")
    screenshot(aline, "battle-dnd5e-fr-phone-one-more-round")
    leave_the_room(gm, aline)
