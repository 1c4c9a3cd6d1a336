"""Fog of war, byte for byte: what a player gets does not depend on what is hidden from them.

For each ruleset that hides something, two battles are built that differ only in a hidden enemy (moved,
wounded, renamed), in the enemy's secret figures or in the enemy's secret orders; everything the player
can fetch is rendered in both (the room, every htmx part and every form of theirs, their options as the
engine gives them, the events their websocket catches up on, and the battles API's answers: the battle,
each of their participants' options, the events) and compared after removing what differs by
construction (CSRF tokens, the battle's id in its urls and answers).  A control proves the comparison can
fail: a change the player may see changes bytes.

The battle's id is normalised wherever it is written, also grouped as a number for people would be
("1,001", "1 001": PostgreSQL's ids pass 1000), so that a page writing it so still compares equal to its
twin's, and a change of anything else does not.
"""

import copy
import json
import re

import pytest
from asgiref.sync import async_to_sync
from django.urls import reverse

from masscombat.battles import selectors, services
from masscombat.battles.models import Battle
from masscombat.campaigns import services as campaign_services
from masscombat.core.permissions import Action, Role
from masscombat.rosters import services as roster_services

from .test_battles_dnd5e import _hide, _options, _unit, dnd_battle, ford  # noqa: F401 - fixtures
from .test_battles_heros import ambush, plain  # noqa: F401 - fixtures
from .test_battles_heros import unit as heros_unit
from .test_battles_jdrwiki import jdr_battle, valley  # noqa: F401 - fixtures
from .test_battles_synapse import army_data
from .test_battles_websocket import joined

pytestmark = pytest.mark.django_db(transaction=True)

PARTS = ("status", "declare", "reports", "map")


def twin(battle: Battle) -> Battle:
    """A second battle equal to ``battle`` in everything but its id: state, setup, seed, who plays, events."""
    original = Battle.objects.get(pk=battle.pk)
    double = Battle.objects.get(pk=battle.pk)
    double.pk = None
    double.save()
    Battle.objects.filter(pk=double.pk).update(created_at=original.created_at, version=original.version,
                                               last_seq=original.last_seq)
    for row in [*original.participants.all(), *original.events.all()]:
        row.pk, row.battle = None, double
        row.save()
    double.refresh_from_db()
    return double


def change_state(battle: Battle, change) -> None:
    """Apply ``change`` to the battle's state, as a hidden move, wound or rename would leave it."""
    state = copy.deepcopy(Battle.objects.get(pk=battle.pk).state)
    change(state)
    Battle.objects.filter(pk=battle.pk).update(state=state)


def _pk(battle: Battle) -> str:
    """The battle's id as a pattern: its digits, with any thousands separator a number for people may have."""
    digits = str(battle.pk)
    head, groups = digits[:len(digits) % 3 or 3], [digits[i:i + 3] for i in range(len(digits) % 3 or 3, len(digits), 3)]
    return re.escape(head) + "".join(rf"[,.\u00a0\u202f ]?{group}" for group in groups)


def _normalised(text: str, battle: Battle) -> str:
    text = re.sub(r'(csrfmiddlewaretoken" value=")[^"]+', r"\1CSRF", text)
    text = re.sub(r'("X-CSRFToken": ")[^"]+', r"\1CSRF", text)
    pk = _pk(battle)
    text = re.sub(rf"battles/{pk}/", "battles/PK/", text)
    text = re.sub(rf'data-battle="{pk}"', 'data-battle="PK"', text)
    return re.sub(rf'"id":\s*{pk}(?![0-9])', '"id": "PK"', text)  # the API's answer names the battle by its id


def everything(client, user, battle: Battle) -> dict[str, str]:
    """Every page, part, form, option list and websocket event ``user`` can fetch of ``battle``."""
    battle = Battle.objects.get(pk=battle.pk)
    seen = {"room": client.get(battle.get_absolute_url())}
    seen.update({name: client.get(reverse("battles:part", args=[battle.pk, name])) for name in PARTS})
    seen["replay"] = client.get(reverse("battles:replay", args=[battle.pk]))
    viewer = selectors.viewer(user, Action.BATTLE_VIEW, battle.pk)
    out = {}
    for name, response in seen.items():
        out[name] = f"{response.status_code} " + _normalised(response.content.decode(), battle)
    for participant in viewer.mine:
        form = client.get(reverse("battles:part", args=[battle.pk, "declare"]), {"participant": participant.key})
        out[f"form {participant.key}"] = f"{form.status_code} " + _normalised(form.content.decode(), battle)
        options = selectors.options_for(battle, participant.key, participant.kind, participant.ref,
                                        viewer.engine_viewer(participant.key))
        out[f"options {participant.key}"] = json.dumps(options, sort_keys=True)

    async def caught_up():
        socket, messages = await joined(user, battle.pk)
        await socket.disconnect()
        return messages

    out["websocket"] = json.dumps(async_to_sync(caught_up)(), sort_keys=True)
    api = f"/api/campaigns/{battle.campaign_id}/battles/{battle.pk}/"
    answers = {"api battle": client.get(api), "api events": client.get(f"{api}events/", {"after": 0})}
    answers.update({f"api options {participant.key}": client.get(f"{api}options/", {"participant": participant.key})
                    for participant in viewer.mine})
    for name, response in answers.items():
        assert response.status_code in (200, 404), (name, response.status_code)  # 404: nothing to declare now
        out[name] = f"{response.status_code} " + _normalised(response.content.decode(), battle)
    return out


def assert_same(client, user, one: Battle, other: Battle) -> None:
    mine, theirs = everything(client, user, one), everything(client, user, other)
    assert mine.keys() == theirs.keys()
    different = [name for name in mine if mine[name] != theirs[name]]
    assert different == [], _first_difference(mine[different[0]], theirs[different[0]]) if different else ""


def assert_differs(client, user, one: Battle, other: Battle) -> list[str]:
    """The control: the comparison sees a change the player may know of; what differs is returned."""
    mine, theirs = everything(client, user, one), everything(client, user, other)
    different = [name for name in mine if mine[name] != theirs[name]]
    assert different
    return different


def test_the_battle_id_is_normalised_however_it_is_written():
    battle = Battle(pk=1001)
    text = ('<div data-battle="1,001" hx-get="/battles/1001/part/"> <a href="/battles/1\u202f001/">'
            '{"id":1001,"name":"x","hp":1001} {"id": 10010}')
    assert _normalised(text, battle) == ('<div data-battle="PK" hx-get="/battles/PK/part/"> <a href="/battles/PK/">'
                                         '{"id": "PK","name":"x","hp":1001} {"id": 10010}')
    assert _normalised('data-battle="1002"', battle) == 'data-battle="1002"'  # another battle's id stays


def _first_difference(a: str, b: str) -> str:
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"…{a[max(0, at - 200):at + 200]}…\n  against\n…{b[max(0, at - 200):at + 200]}…"


# -- D&D 5e: stands hidden (S11.3) --------------------------------------------------------------------------


def _hidden_archers(battle):
    """Every stand of side B's archers hidden in the south band: the unit is unknown to side A."""
    archers = _unit(battle, "B", "Archers hobgobelins")
    for index, stand in enumerate(battle.state["units"][archers]["stands"]):
        _hide(battle, stand, [1 + 2 * index, 13])
    return archers


def test_dnd5e_a_hidden_unit_moved_wounded_renamed_changes_no_byte_for_the_other_side(
        dnd_battle, client_for, gm, player):
    archers = _hidden_archers(dnd_battle)
    other = twin(dnd_battle)
    first = dnd_battle.state["units"][archers]["stands"][0]

    def ambush_moves(state):
        state["units"][archers]["name"] = "Ombres de Vark"
        state["stands"][first]["position"] = [2, 12]
        state["stands"][first]["hp"] -= 3

    change_state(other, ambush_moves)
    client = client_for(player)
    assert_same(client, player, dnd_battle, other)
    start = Battle.objects.get(pk=dnd_battle.pk).state
    for battle in (dnd_battle, other):  # a round later, with the reports and the catch-up of its events
        Battle.objects.filter(pk=battle.pk).update(state=start)
        services.resolve_round(gm, battle.pk, expected_round=1)
    change_state(other, ambush_moves)
    assert_same(client, player, dnd_battle, other)
    assert "Ombres de Vark" in everything(client_for(gm), gm, other)["status"]  # the GM reads the change


def test_dnd5e_the_control_a_wounded_visible_enemy_changes_the_page(dnd_battle, client_for, player):
    other = twin(dnd_battle)
    line = _unit(dnd_battle, "B", "Ligne hobgobeline")
    change_state(other, lambda state: state["units"][line].update(name="Ligne de Vark"))
    different = assert_differs(client_for(player), player, dnd_battle, other)
    assert {"status", "api battle"} <= set(different)  # the pages and the API answers are both compared


# -- HÉROS: ambushers and the lurker pool (S11.3) -----------------------------------------------------------


def test_heros_an_ambusher_and_a_lurker_moved_wounded_renamed_change_no_byte_for_the_other_side(
        ambush, client_for, gm, player, other_player):
    other = twin(ambush)

    def unseen_change(state):
        slingers = heros_unit(state, "b-frondeurs")
        slingers.update(name="Ombres des Cendres", wound_state="serious",
                        position={"col": slingers["position"]["col"], "row": slingers["position"]["row"] + 1})
        heros_unit(state, "b-rodeur")["name"] = "Rôdeur des marais"

    change_state(other, unseen_change)
    client = client_for(player)
    assert_same(client, player, ambush, other)
    for battle in (ambush, other):  # side b declares its hidden slingers: side a hears nothing of it
        services.declare(other_player, battle.pk, "unit:b-frondeurs", {}, expected_round=1)
    assert_same(client, player, ambush, other)
    start = Battle.objects.get(pk=ambush.pk).state
    for battle in (ambush, other):
        Battle.objects.filter(pk=battle.pk).update(state=start)
        services.resolve_round(gm, battle.pk, expected_round=1)
    change_state(other, unseen_change)
    assert_same(client, player, ambush, other)


def test_heros_the_control_a_renamed_visible_enemy_changes_the_page(ambush, client_for, player):
    other = twin(ambush)
    change_state(other, lambda state: heros_unit(state, "b-guerriers").update(name="Guerriers de Gorbag"))
    assert_differs(client_for(player), player, ambush, other)


# -- SYNAPSE: the enemy's reserve and characters (S11.2) ----------------------------------------------------


@pytest.fixture
def front(gm, player, other_player):
    """Side B keeps a reserve, and its character Ilya rides in it; side A (the player) sees neither."""
    campaign = campaign_services.create_campaign(gm, name="Front", ruleset="synapse")
    campaign.memberships.create(user=player, role=Role.PLAYER)
    campaign.memberships.create(user=other_player, role=Role.PLAYER)
    south = army_data("Sud", "s", 100)
    south["units"].append({**south["units"][0], "id": "s2", "headcount": 60, "group": "reserve"})
    a = roster_services.create_army(campaign, name="Nord", user=gm, commander=player, data=army_data("Nord", "n", 150))
    b = roster_services.create_army(campaign, name="Sud", user=gm, commander=other_player, data=south)
    ilya = roster_services.create_hero(campaign, name="Ilya", user=gm, owner=other_player,
                                       data={"id": "ilya", "name": "Ilya", "unit_id": "s2", "armour": 0})
    return services.create_battle(campaign, gm, name="Plaine", armies={"A": a, "B": b}, heroes=[(ilya, "B")],
                                  options={})


def _reserve_change(state):
    reserve = next(f for f in state["formations"].values() if f["side"] == "B" and f["status"] == "reserve")
    reserve["losses"] += 7
    state["armies"]["B"]["units"]["s2"]["name"] = "Garde cachée"
    for character in state["armies"]["B"]["characters"]:
        character["name"] = "Ilya la Rouge"


def test_synapse_the_reserve_and_its_character_change_no_byte_for_the_other_side(
        front, client_for, gm, player, other_player):
    assert any(f["status"] == "reserve" for f in front.state["formations"].values())
    other = twin(front)
    change_state(other, _reserve_change)
    client = client_for(player)
    assert_same(client, player, front, other)
    start = Battle.objects.get(pk=front.pk).state
    for battle in (front, other):
        Battle.objects.filter(pk=battle.pk).update(state=start)
        services.declare(player, battle.pk, "side:A", {"sides.A.orders.A.melee.action": "attack",
                                                        "sides.A.orders.A.melee.target": "B.melee"}, expected_round=1)
        services.resolve_round(gm, battle.pk, expected_round=1)
    change_state(other, _reserve_change)
    assert_same(client, player, front, other)
    assert "Ilya" not in everything(client, player, other)["status"]  # not even named in who has declared


def test_synapse_the_enemys_orders_change_no_byte_for_the_other_side(front, client_for, player, other_player):
    other = twin(front)
    services.declare(other_player, front.pk, "side:B", {"sides.B.orders.B.melee.action": "hold"}, expected_round=1)
    services.declare(other_player, other.pk, "side:B", {"sides.B.orders.B.melee.action": "attack",
                                                        "sides.B.orders.B.melee.target": "A.melee"}, expected_round=1)
    assert_same(client_for(player), player, front, other)


# -- 7th Sea: the GM's heroic offers and the other side's heroes (S11.2) ------------------------------------


@pytest.fixture
def duel(battle, sea_rosters, sea_campaign, gm, other_player):
    """The conftest's battle, again with Merry's hero Diego on side b."""
    diego = roster_services.create_hero(
        sea_campaign, name="Diego", user=gm, owner=other_player, army=sea_rosters["b"],
        data={"id": "diego", "name": "Diego", "side": "b", "wits": 2, "tactics": 2, "leadership": 1,
              "brawn": 2, "resolve": 2, "unit_type": "cavalry", "reputation": 5})
    return services.create_battle(
        sea_campaign, gm, name="Bataille du col", armies={"a": sea_rosters["a"], "b": sea_rosters["b"]},
        heroes=[(sea_rosters["lucie"], "a"), (diego, "b")], options={"attacker": "a", "wound_checks": True})


def test_seventh_sea_an_offer_to_the_other_sides_hero_and_his_wounds_change_no_byte(
        duel, client_for, gm, player, other_player):
    other = twin(duel)
    for battle in (duel, other):
        services.declare(other_player, battle.pk, "side:b", {"sides.b.strategy": "in_ranks"}, expected_round=1)
        services.resolve_round(gm, battle.pk, expected_round=1)

    def wounded(state):
        diego = next(hero for hero in state["heroes"] if hero["id"] == "diego")
        diego["flesh_wounds"] = diego.get("flesh_wounds", 0) + 9
        diego["battle_reputation"] = diego.get("battle_reputation", 0) + 4

    change_state(other, wounded)
    client = client_for(player)
    assert_same(client, player, duel, other)
    offers = [o for o in selectors.options_for(other, "gm", "gm", "")["options"] if o["path"].startswith("heroes.diego.")]
    assert offers, "the GM may offer Diego an opportunity"
    first = offers[0]
    value = first.get("default") if first.get("default") is not None else (first.get("allowed") or [None])[0]
    services.declare(gm, duel.pk, "gm", {}, expected_round=2)  # that the GM declared is public, not what
    services.declare(gm, other.pk, "gm", {first["path"]: value}, expected_round=2)
    assert_same(client, player, duel, other)


def test_seventh_sea_the_control_the_players_own_hero_changes_the_page(duel, client_for, player):
    other = twin(duel)
    change_state(other, lambda state: next(h for h in state["heroes"] if h["id"] == "lucie").update(name="Lucie R."))
    assert_differs(client_for(player), player, duel, other)


# -- JdRWiki: the other side's declarations and secret figures (S11.3) --------------------------------------


def test_jdrwiki_the_enemys_orders_and_secret_figures_change_no_byte_for_the_other_side(
        jdr_battle, client_for, player, other_player):
    """No corps is ever hidden whole in JdRWiki; what a side may not know is the other's orders and figures
    (allocation, advantage, heroism): two battles whose side b declares differently, and whose side b keeps
    other hit points under cover, read the same to side a."""
    other = twin(jdr_battle)
    actions = {o["path"]: o for o in selectors.options_for(jdr_battle, "side:b", "side", "b")["options"]
               if o["path"].endswith(".actions") and len(o.get("allowed") or []) > 1}
    path, option = next(iter(actions.items()))
    services.declare(other_player, jdr_battle.pk, "side:b", {path: [option["allowed"][0]]}, expected_round=1)
    services.declare(other_player, other.pk, "side:b", {path: [option["allowed"][1]]}, expected_round=1)
    assert_same(client_for(player), player, jdr_battle, other)


def test_jdrwiki_the_enemys_hidden_figures_and_allocation_change_no_byte_for_the_other_side(
        jdr_battle, client_for, player, other_player):
    """S11.3: side b's corps stands under cover, so its hit points are side b's to know, as are its advantage
    points and initiative; its allocation of advantage stays secret until the round is resolved (S5.5.7)."""
    change_state(jdr_battle, lambda state: state["map"]["zones"]["ford"]["terrain"].update(cover=1))
    other = twin(jdr_battle)
    theirs = next(cid for cid, corps in jdr_battle.state["corps"].items() if corps["army_id"] == "b")

    def secret_figures(state):
        corps = state["corps"][theirs]
        corps.update(hp=corps["hp"] - 5, advantage=corps["advantage"] + 3, initiative=corps["initiative"] + 1)

    change_state(other, secret_figures)
    client = client_for(player)
    assert_same(client, player, jdr_battle, other)
    allocation = [o for o in selectors.options_for(jdr_battle, "side:b", "side", "b", "b")["options"]
                  if ".allocation." in o["path"] and o["type"] == "integer" and o["max"] > o["min"]]
    assert allocation, "side b has advantage points to allocate"
    first = allocation[0]
    services.declare(other_player, jdr_battle.pk, "side:b", {first["path"]: first["min"]}, expected_round=1)
    services.declare(other_player, other.pk, "side:b", {first["path"]: first["max"]}, expected_round=1)
    assert_same(client, player, jdr_battle, other)


def test_jdrwiki_the_control_the_players_own_corps_changes_the_page(jdr_battle, client_for, player):
    other = twin(jdr_battle)
    mine = next(cid for cid, corps in jdr_battle.state["corps"].items() if corps["army_id"] == "a")
    change_state(other, lambda state: state["corps"][mine].update(hp=state["corps"][mine]["hp"] - 5))
    assert_differs(client_for(player), player, jdr_battle, other)


def test_dnd5e_a_hidden_units_orders_change_no_byte_for_the_other_side(dnd_battle, client_for, gm, player,
                                                                        other_player):
    """Side B's hidden archers hold in one battle and walk, still hidden, in the other: side A reads the same
    round (no event, step, die, nor count of them gives the walk away)."""
    archers = _hidden_archers(dnd_battle)
    other = twin(dnd_battle)
    first = dnd_battle.state["units"][archers]["stands"][0]
    walk = _options(dnd_battle, f"unit:{archers}")[f"units.{archers}.stands[0].move"]["allowed"][-1]
    hold = {f"units.{archers}.action": "none", f"units.{archers}.stands[0].stand": first}
    services.declare(other_player, dnd_battle.pk, f"unit:{archers}", hold, expected_round=1)
    services.declare(other_player, other.pk, f"unit:{archers}", {**hold, f"units.{archers}.stands[0].move": walk},
                     expected_round=1)
    client = client_for(player)
    assert_same(client, player, dnd_battle, other)
    for battle in (dnd_battle, other):
        services.resolve_round(gm, battle.pk, expected_round=1)
    held, moved = (Battle.objects.get(pk=battle.pk).state["stands"][first] for battle in (dnd_battle, other))
    assert moved["hidden"] and moved["position"] != held["position"]
    assert_same(client, player, dnd_battle, other)
