"""A D&D 5e battle from the rosters: placed in the sides' bands, declared from the forms, resolved, ended.

The armies are the rosters demo's orc horde (Pippin) and the battles demo's
hobgoblin legion (Merry); Pippin's hero fights with the orcs, Merry's with
the hobgoblins.  Everything goes through the services and pages as a
browser would; the engine's answers are the reference.
"""

import copy
import json
import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test.utils import CaptureQueriesContext
from django.db import connection
from django.urls import reverse
from django.utils import translation

from masscombat.battles import adapters, live, pages, selectors, services
from masscombat.games.dnd5e import demo as demo_dnd5e
from masscombat.battles.models import Battle, BattleEvent
from masscombat.campaigns import services as campaign_services
from masscombat.core.permissions import Role
from masscombat.maps import demo as maps_demo
from masscombat.rosters import examples
from masscombat.rosters import services as roster_services
from masscombat.rosters.models import Army, Hero, RosterChange

pytestmark = pytest.mark.django_db

SEED = 20261123


@pytest.fixture
def ford(gm, player, other_player):
    campaign = campaign_services.create_campaign(gm, name="Rivière-Grise", ruleset="dnd5e")
    campaign.memberships.create(user=player, role=Role.PLAYER)
    campaign.memberships.create(user=other_player, role=Role.PLAYER)
    grid = maps_demo.load(campaign)
    (horde_name, horde_data), = examples.ARMIES["dnd5e"].items()
    horde = roster_services.create_army(campaign, name=horde_name, user=gm, data=horde_data, commander=player)
    legion = roster_services.create_army(campaign, name=demo_dnd5e.LEGION, user=gm, data=demo_dnd5e.LEGION_DATA,
                                         commander=other_player)
    (hero_name, hero_data), = examples.HEROES["dnd5e"].items()
    hero = roster_services.create_hero(campaign, name=hero_name, user=gm, data=hero_data, owner=player)
    rival = roster_services.create_hero(campaign, name="Capitaine Vark", user=gm, owner=other_player,
                                        data={**demo_dnd5e.LEGION_DATA["profiles"]["hobgoblin"], "name": "Vark"})
    return {"campaign": campaign, "map": grid, "A": horde, "B": legion, "hero": hero, "rival": rival}


def _create(ford, client, **extra):
    posted = {"name": "Le gué", "army_a": ford["A"].pk, "army_b": ford["B"].pk, "heroes_a": [ford["hero"].pk],
              "heroes_b": [ford["rival"].pk], "map": ford["map"].pk, "deploy_a": "north", "deploy_b": "south",
              "objective_squares": "none", "vp_per_unit": 3, "victory_threshold": 10, **extra}
    return client.post(reverse("battles:create", args=[ford["campaign"].pk]), posted)


@pytest.fixture
def dnd_battle(ford, client_for, gm):
    response = _create(ford, client_for(gm))
    assert response.status_code == 302, response.content.decode()[:3000]
    battle = Battle.objects.get(name="Le gué")
    Battle.objects.filter(pk=battle.pk).update(seed=SEED)
    battle.refresh_from_db()
    return battle


def _solo(battle, hero):
    return battle.participants.get(kind="solo", hero_id=hero.pk).ref


def _unit(battle, side, name):
    return next(uid for uid, unit in battle.state["units"].items() if unit["side"] == side and unit["name"] == name)


def _options(battle, key):
    participant = battle.participants.get(kind=key.split(":")[0], ref=key.split(":", 1)[1])
    return {o["path"]: o for o in selectors.options_for(battle, key, participant.kind, participant.ref)["options"]}


def _post(client, battle, key, values: dict):
    """A declaration as the room's form posts it: each value JSON-encoded under its option path, and the
    stand each stand order is for (a required field the form fills in)."""
    data = {"participant": key, "round": battle.current_round}
    required = {path: o["default"] for path, o in _options(battle, key).items() if o["required"] and o["default"]}
    for path, value in {**required, **values}.items():
        data[path] = [json.dumps(v) for v in value] if isinstance(value, tuple) else json.dumps(value)
    return client.post(reverse("battles:declare", args=[battle.pk]), data)


# -- setup ---------------------------------------------------------------------------


def test_every_stand_and_solo_is_placed_in_its_sides_band(dnd_battle):
    state = dnd_battle.state
    sides = {uid: unit["side"] for uid, unit in state["units"].items()}
    for stand in state["stands"].values():
        y = stand["position"][1]
        assert (y <= 2) if sides[stand["unit"]] == "A" else (y >= 11), stand
    detached = {sid: solo for sid, solo in state["solos"].items() if solo["position"] is not None}
    assert {solo["side"]: solo["position"][1] for solo in detached.values()} == {"A": 2, "B": 11}
    # the roster's eliminated stand stays out; the unit's stands stand side by side in the front line
    orcs = state["units"][_unit(dnd_battle, "A", "Régiment orque")]["stands"]
    assert [state["stands"][s]["position"] for s in orcs] == [[0, 2], [1, 2], [2, 2]]
    assert state["stands"][orcs[1]]["hp"] == 6


def test_the_army_chief_starts_with_his_stand_and_commands_it(dnd_battle):
    unit_id = _unit(dnd_battle, "A", "Régiment orque")
    unit = dnd_battle.state["units"][unit_id]
    chief = dnd_battle.state["solos"][unit["commander"]]
    assert chief["attached_to"] == unit["stands"][0] and chief["position"] is None


def test_participants_units_solos_and_sides_with_their_players(dnd_battle, player, other_player):
    found = {(p.kind, p.side, p.user_id) for p in dnd_battle.participants.all()}
    assert found == {("unit", "A", player.pk), ("solo", "A", player.pk), ("side", "A", player.pk),
                     ("unit", "B", other_player.pk), ("solo", "B", other_player.pk), ("side", "B", other_player.pk)}
    assert dnd_battle.participants.filter(kind="unit").count() == 3


def test_objective_squares_come_from_the_map_and_the_gm_says_who_destroys_them(ford, client_for, gm):
    assert _create(ford, client_for(gm), objective_squares="B").status_code == 302
    state = Battle.objects.get(name="Le gué").state
    assert state["objective_squares"]["pont"]["at"] == ford["map"].data["objective_squares"]["pont"]["at"]
    kinds = {(o["side"], o["type"]): o.get("squares") for o in state["objectives"].values()}
    assert kinds[("B", "destruction")] == ["pont"] and kinds[("A", "protection")] == ["pont"]
    assert kinds[("A", "attrition")] is None and ("B", "attrition") in kinds


def test_both_sides_on_one_edge_is_refused(ford, client_for, gm):
    response = _create(ford, client_for(gm), deploy_b="north")
    assert response.status_code == 200 and not Battle.objects.exists()
    assert "Each side deploys along its own edge." in response.content.decode()


def test_placement_moves_one_piece_and_the_engine_judges_it(dnd_battle):
    adapter = adapters.get("dnd5e")
    stand = dnd_battle.state["units"][_unit(dnd_battle, "B", "Archers hobgobelins")]["stands"][0]
    moved = adapter.placement(dnd_battle.setup["input"], stand, [5, 8])
    assert dnd_battle.setup["input"] != moved
    from rules import registry
    assert registry.run("dnd5e", "new-battle", moved, seed=1)["state"]["stands"][stand]["position"] == [5, 8]
    chief = dnd_battle.state["units"][_unit(dnd_battle, "A", "Régiment orque")]["commander"]
    with pytest.raises(ValidationError):
        adapter.placement(dnd_battle.setup["input"], chief, [5, 8])
    with pytest.raises(ValidationError):
        adapter.placement(dnd_battle.setup["input"], "nobody", [5, 8])


def test_the_gm_places_a_stand_before_round_one_and_the_engine_refuses_deep_water(dnd_battle, gm, player):
    stand = dnd_battle.state["units"][_unit(dnd_battle, "B", "Ligne hobgobeline")]["stands"][0]
    with pytest.raises(PermissionDenied):
        services.place(player, dnd_battle.pk, stand, [5, 8], expected_version=dnd_battle.version)
    battle = services.place(gm, dnd_battle.pk, stand, [5, 8], expected_version=dnd_battle.version)
    assert battle.state["stands"][stand]["position"] == [5, 8]
    assert battle.setup["input"]["units"][_unit(dnd_battle, "B", "Ligne hobgobeline")]["stands"][0]["position"] == [5, 8]
    with pytest.raises(ValidationError):  # the river's deep water, and hobgoblins do not swim
        services.place(gm, battle.pk, stand, [10, 0], expected_version=battle.version)
    assert Battle.objects.get(pk=battle.pk).state["stands"][stand]["position"] == [5, 8]


# -- declarations and rounds ---------------------------------------------------------------


def _path_to(options: dict, path: str, end: list) -> list:
    return next(p for p in options[path]["allowed"] if p[-1] == end)


def test_two_rounds_move_and_attack_as_declared_then_undo_restores(dnd_battle, client_for, gm, player, other_player):
    line = _unit(dnd_battle, "B", "Ligne hobgobeline")
    archers = _unit(dnd_battle, "B", "Archers hobgobelins")
    options = _options(dnd_battle, f"unit:{line}")
    first = dnd_battle.state["units"][line]["stands"][0]
    path = _path_to(options, f"units.{line}.stands[0].move", [0, 7])
    response = _post(client_for(other_player), dnd_battle, f"unit:{line}", {
        f"units.{line}.action": "dash", f"units.{line}.stands[0].stand": first,
        f"units.{line}.stands[0].move": (path,)})
    assert response.status_code == 302, re.findall(r'class="(?:errorlist|message error)[^>]*>(.*?)</(?:ul|p)>', response.content.decode(), re.S)
    archer_options = _options(dnd_battle, f"unit:{archers}")
    shot = next(a for a in archer_options[f"units.{archers}.stands[0].attacks"]["allowed"] if a["attack"] == "longbow")
    archer = dnd_battle.state["units"][archers]["stands"][0]
    response = _post(client_for(other_player), dnd_battle, f"unit:{archers}", {
        f"units.{archers}.action": "attack", f"units.{archers}.stands[0].stand": archer,
        f"units.{archers}.stands[0].attacks": (shot,)})
    assert response.status_code == 302, re.findall(r'class="(?:errorlist|message error)[^>]*>(.*?)</(?:ul|p)>', response.content.decode(), re.S)

    one = services.resolve_round(gm, dnd_battle.pk, expected_round=1)
    ordered = one.declarations["units"][line]
    assert ordered["action"] == "dash" and [o["stand"] for o in ordered["stands"]] == [first, ordered["stands"][1]["stand"]]
    assert ordered["stands"][0]["move"] == path and "move" not in ordered["stands"][1]
    assert one.declarations["units"][archers]["stands"][0]["attacks"] == [
        {"attack": "longbow", "target": shot["target"]}]
    battle = Battle.objects.get(pk=dnd_battle.pk)
    assert battle.state["stands"][first]["position"] == [0, 7]
    attacks = [e for e in one.events if e["type"] == "attack"]
    assert [(e["attacker"], e["target"]) for e in attacks] == [(archer, shot["target"])]

    # round 2: the hero walks up; the state after it differs, and undo gives round 2's start back exactly
    hero = _solo(battle, Hero.objects.get(name="Chef de guerre orque"))
    hero_options = _options(battle, f"solo:{hero}")
    walk = hero_options[f"solos.{hero}.move"]["allowed"][-1]
    assert _post(client_for(player), battle, f"solo:{hero}", {f"solos.{hero}.move": (walk,)}).status_code == 302
    before = copy.deepcopy(battle.state)
    two = services.resolve_round(gm, battle.pk, expected_round=2)
    battle.refresh_from_db()
    assert battle.state["solos"][hero]["position"] == walk[-1] != before["solos"][hero]["position"]
    assert two.state_before == before
    assert services.undo_round(gm, battle.pk, expected_round=2)
    battle.refresh_from_db()
    assert battle.state == before and battle.round == 1


def test_a_player_declares_only_for_what_they_play(dnd_battle, client_for, player, other_player):
    rival = _solo(dnd_battle, Hero.objects.get(name="Capitaine Vark"))
    with pytest.raises(ValidationError):
        services.declare(player, dnd_battle.pk, f"solo:{rival}", {f"solos.{rival}.action": "dash"}, expected_round=1)
    response = _post(client_for(player), dnd_battle, f"solo:{rival}", {f"solos.{rival}.action": "dash"})
    assert response.status_code == 404
    assert _post(client_for(other_player), dnd_battle, f"solo:{rival}",
                 {f"solos.{rival}.action": "dash"}).status_code == 302
    assert dnd_battle.declarations.get().declared_by == other_player


def test_a_broken_units_orders_are_the_gms(dnd_battle, client_for, gm, other_player):
    line = _unit(dnd_battle, "B", "Ligne hobgobeline")
    state = copy.deepcopy(dnd_battle.state)
    state["units"][line]["broken"] = True
    Battle.objects.filter(pk=dnd_battle.pk).update(state=state)
    marker = f'data-participant="unit:{line}"'
    assert marker not in client_for(other_player).get(dnd_battle.get_absolute_url()).content.decode()
    assert marker in client_for(gm).get(dnd_battle.get_absolute_url()).content.decode()
    assert _post(client_for(other_player), dnd_battle, f"unit:{line}",
                 {f"units.{line}.action": "disengage"}).status_code == 400
    assert not dnd_battle.declarations.exists()


def test_labels_name_actions_and_targets_in_both_languages(dnd_battle):
    from django.utils import translation

    adapter = adapters.get("dnd5e")
    archers = _unit(dnd_battle, "B", "Archers hobgobelins")
    shot = next(a for a in _options(dnd_battle, f"unit:{archers}")[f"units.{archers}.stands[0].attacks"]["allowed"]
                if a["target"].startswith("A-regiment_orque"))
    with translation.override("en"):
        assert adapter.value_label(shot).startswith("longbow → Regiment orque ")
        assert adapter.value_label(shot).endswith(" squares)")
        assert adapter.value_label("cast_spell") == "Cast a spell"
        assert adapter.value_label([[0, 10], [0, 9]]) == "→ A10 · 2 squares"
        assert adapter.value_label([]) == "None"
    with translation.override("fr"):
        assert adapter.value_label(shot).endswith(" cases)")
        assert adapter.value_label("cast_spell") == "Lancer un sort"


def test_every_option_and_value_of_units_and_solos_has_a_label(dnd_battle):
    """Option paths and string values the engine offers here are all in the adapter's dictionaries."""
    adapter = adapters.get("dnd5e")
    for participant in dnd_battle.participants.exclude(kind="side"):
        for path, option in _options(dnd_battle, participant.key).items():
            key = "solo_fallbacks" if path.startswith("solo_fallbacks.") else path.rsplit(".", 1)[-1]
            assert key in adapter.option_labels, path
            for value in option.get("allowed") or []:
                if isinstance(value, str) and not value.startswith(("A-", "B-")):
                    assert value in adapter.value_labels, (path, value)


def test_a_broken_units_orders_are_the_gms_the_engine_says_so(dnd_battle, client_for, gm, other_player):
    """round-participants gives its orders to the GM (``declared_by``, S11.1): its side gets no form for it,
    and a declaration posted for it anyway is refused, while the GM declares for it."""
    line = _unit(dnd_battle, "B", "Ligne hobgobeline")
    state = copy.deepcopy(dnd_battle.state)
    captain = _solo(dnd_battle, Hero.objects.get(name="Capitaine Vark"))
    state["units"][line].update(broken=True, commander=captain)  # a commander: the engine offers its side
    state["solos"][captain].update(attached_to=state["units"][line]["stands"][0], position=None)  # if_rallied
    Battle.objects.filter(pk=dnd_battle.pk).update(state=state)
    dnd_battle.refresh_from_db()
    assert [o["path"] for o in selectors.options_for(dnd_battle, f"unit:{line}", "unit", line, "B")["options"]] == [
        f"units.{line}.if_rallied"]
    assert selectors.round_participants(dnd_battle)[f"unit:{line}"].declared_by == "gm"
    viewer = selectors.viewer(other_player, selectors.Action.BATTLE_VIEW, dnd_battle.pk)
    forms = {entry["key"] for entry in pages.declaration_forms(viewer, {})}
    assert f"unit:{line}" not in forms and forms  # the side's other participants keep theirs
    response = _post(client_for(other_player), dnd_battle, f"unit:{line}", {f"units.{line}.action": "disengage"})
    assert response.status_code == 400 and not dnd_battle.declarations.exists()
    assert _post(client_for(gm), dnd_battle, f"unit:{line}", {f"units.{line}.action": "disengage"}).status_code == 302


def test_the_gms_orders_for_a_broken_unit_stay_hidden_from_its_side(dnd_battle, client_for, gm, other_player):
    """S11.3: the unit's side learns them at resolution, like the enemy."""
    line = _unit(dnd_battle, "B", "Ligne hobgobeline")
    state = copy.deepcopy(dnd_battle.state)
    state["units"][line]["broken"] = True
    Battle.objects.filter(pk=dnd_battle.pk).update(state=state)
    assert _post(client_for(gm), dnd_battle, f"unit:{line}", {f"units.{line}.action": "disengage"}).status_code == 302
    with translation.override("en"):
        label = str(adapters.get("dnd5e").value_label("disengage"))
    status = reverse("battles:part", args=[dnd_battle.pk, "status"])
    own_side = client_for(other_player).get(status, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Ligne hobgobeline" in own_side and label not in own_side
    assert label in client_for(gm).get(status, HTTP_ACCEPT_LANGUAGE="en").content.decode()


# -- fog of war ------------------------------------------------------------------------------


def _hide(battle, stand, at):
    state = copy.deepcopy(battle.state)
    state["stands"][stand].update(hidden=True, position=at)
    Battle.objects.filter(pk=battle.pk).update(state=state)
    battle.refresh_from_db()


def test_a_hidden_stand_never_reaches_the_other_side(dnd_battle, client_for, gm, player, other_player):
    archers = _unit(dnd_battle, "B", "Archers hobgobelins")
    hidden = dnd_battle.state["units"][archers]["stands"][0]
    _hide(dnd_battle, hidden, [5, 2])  # next to Pippin's hero, within reach of his greataxe
    where = dnd_battle.state["stands"][hidden]["position"]
    client = client_for(player)
    pages = [client.get(dnd_battle.get_absolute_url())] + [
        client.get(reverse("battles:part", args=[dnd_battle.pk, name])) for name in ("status", "declare", "reports", "map")]
    for page in pages:
        assert page.status_code == 200
        assert hidden not in page.content.decode()
    seer = selectors.viewer(player, selectors.Action.BATTLE_VIEW, dnd_battle.pk)
    assert not any(p["id"] == hidden for p in adapters.get("dnd5e").map_pieces(
        dnd_battle, selectors.visible_state(seer), seer, selectors.seen_names(seer)))
    # its own side and the GM see it
    assert hidden in client_for(other_player).get(dnd_battle.get_absolute_url()).content.decode()
    assert hidden in client_for(gm).get(dnd_battle.get_absolute_url()).content.decode()
    # its side moves it: a round later the other side reads nothing of it (and the events sent over the
    # websocket carry no position at all), while its own side reads the move
    walk = _options(dnd_battle, f"unit:{archers}")[f"units.{archers}.stands[0].move"]["allowed"][0]
    assert _post(client_for(other_player), dnd_battle, f"unit:{archers}",
                 {f"units.{archers}.stands[0].move": walk}).status_code == 302
    done = services.resolve_round(gm, dnd_battle.pk, expected_round=1)
    assert any(e["type"] == "move" and e["actor"] == hidden for e in done.events)
    assert Battle.objects.get(pk=dnd_battle.pk).state["stands"][hidden]["hidden"]
    for name in ("reports", "map", "status"):
        part = client.get(reverse("battles:part", args=[dnd_battle.pk, name])).content.decode()
        assert hidden not in part and "Archers hobgobelins 1" not in part
    assert "<strong>Archers hobgobelins 1</strong> moves" in client_for(other_player).get(
        reverse("battles:part", args=[dnd_battle.pk, "reports"])).content.decode()
    for event in BattleEvent.objects.filter(battle=dnd_battle):
        message = json.dumps(live.as_message(event))
        assert hidden not in message and str(where) not in message
        assert not {"position", "at", "from", "to", "move"} & set(event.payload)


def test_a_unit_whose_stands_all_hide_is_not_named_to_the_enemy(dnd_battle, client_for, gm, player, other_player):
    archers = _unit(dnd_battle, "B", "Archers hobgobelins")
    for index, stand in enumerate(dnd_battle.state["units"][archers]["stands"]):
        _hide(dnd_battle, stand, [12 + index, 2])
    status = reverse("battles:part", args=[dnd_battle.pk, "status"])
    assert "Archers hobgobelins" not in client_for(player).get(status).content.decode()
    assert "Archers hobgobelins" in client_for(other_player).get(status).content.decode()
    services.declare(other_player, dnd_battle.pk, f"unit:{archers}", {}, expected_round=1)
    event = BattleEvent.objects.get(battle=dnd_battle, kind="declared")
    assert event.audience == live.side_audience("B")


def test_options_offer_no_hidden_enemy_to_target(dnd_battle):
    archers = _unit(dnd_battle, "B", "Archers hobgobelins")
    hidden = dnd_battle.state["units"][archers]["stands"][0]
    _hide(dnd_battle, hidden, [5, 2])
    hero = _solo(dnd_battle, Hero.objects.get(name="Chef de guerre orque"))
    assert hidden in json.dumps(_options(dnd_battle, f"solo:{hero}"))  # the GM's options name it...
    seen = selectors.options_for(dnd_battle, f"solo:{hero}", "solo", hero, "A")  # ...the engine's for side A never
    assert hidden not in json.dumps(seen) and archers not in json.dumps(seen)
    assert seen["options"]  # the hero still has its own choices


# -- end of the battle -----------------------------------------------------------------------


def test_end_and_confirm_write_heroes_and_armies(dnd_battle, gm):
    hero = Hero.objects.get(name="Chef de guerre orque")
    rival = Hero.objects.get(name="Capitaine Vark")
    state = copy.deepcopy(dnd_battle.state)
    state["solos"][_solo(dnd_battle, hero)]["hp"] = 40
    state["solos"][_solo(dnd_battle, rival)].update(hp=0, condition="dead", position=None)
    line = _unit(dnd_battle, "B", "Ligne hobgobeline")
    fallen = state["units"][line]["stands"][1]
    state["stands"][fallen].update(hp=0, status="eliminated", position=None)
    state["sides"]["A"]["victory_points"] = 2
    Battle.objects.filter(pk=dnd_battle.pk).update(state=state)

    battle = services.end_battle(gm, dnd_battle.pk, None)
    assert battle.aftermath["outcome"] == "tactical_victory" and battle.aftermath["winner"] == "A"
    services.confirm_aftermath(gm, battle.pk)
    hero.refresh_from_db(), rival.refresh_from_db()
    assert (hero.status, rival.status) == ("wounded", "dead")
    change = RosterChange.objects.filter(hero=hero, source_kind="battle").get()
    assert change.summary["hp"] == 40 and change.summary["condition"] == "active"
    legion = Army.objects.get(name=demo_dnd5e.LEGION)
    stands = {s["id"]: s for s in legion.data["units"]["u1"]["stands"]}
    assert stands["s2"]["status"] == "eliminated" and stands["s2"]["hp"] == 0
    assert stands["s1"].get("status", "active") == "active"
    history = RosterChange.objects.filter(army=legion, source_kind="battle").get()
    assert history.summary["stands_lost"] == 1 and history.summary["winner"] == "A"


# -- the room --------------------------------------------------------------------------------


def test_the_room_shows_the_map_with_the_pieces(dnd_battle, client_for, player):
    page = client_for(player).get(dnd_battle.get_absolute_url()).content.decode()
    assert "<svg" in page
    for stand in dnd_battle.state["stands"]:
        assert f'data-piece="{stand}"' in page or f'data-id="{stand}"' in page


def _queries(client, battle) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(battle.get_absolute_url()).status_code == 200
    return len(queries)


def test_the_room_query_count_stays_flat_with_more_stands(ford, client_for, gm, player,
                                                           django_assert_max_num_queries):
    assert _create(ford, client_for(gm)).status_code == 302
    small = Battle.objects.get(name="Le gué")
    few = {who.pk: _queries(client_for(who), small) for who in (gm, player)}
    for army, profile in ((ford["A"], "orc"), (ford["B"], "hobgoblin")):
        data = copy.deepcopy(army.data)
        data["units"]["u1"]["stands"] += [{"id": f"x{n}", "profile": profile} for n in range(8)]
        roster_services.update_army(army, data, user=gm, expected_version=None)
    assert _create(ford, client_for(gm), name="La grande bataille").status_code == 302
    large = Battle.objects.get(name="La grande bataille")
    assert len(large.state["stands"]) == len(small.state["stands"]) + 16
    for who in (gm, player):
        client = client_for(who)
        with django_assert_max_num_queries(few[who.pk]):
            assert client.get(large.get_absolute_url()).status_code == 200
    assert max(few.values()) <= 25, few


def _archers_shoot(battle, client) -> None:
    """Side B's archers declare a longbow shot at the first target offered."""
    archers = _unit(battle, "B", "Archers hobgobelins")
    shot = next(a for a in _options(battle, f"unit:{archers}")[f"units.{archers}.stands[0].attacks"]["allowed"]
                if a["attack"] == "longbow")
    assert _post(client, battle, f"unit:{archers}", {
        f"units.{archers}.action": "attack", f"units.{archers}.stands[0].attacks": (shot,)}).status_code == 302


def test_the_room_reports_the_round_and_the_aftermath_in_words(dnd_battle, client_for, gm, other_player):
    _archers_shoot(dnd_battle, client_for(other_player))
    services.resolve_round(gm, dnd_battle.pk, expected_round=1)
    page = client_for(other_player).get(dnd_battle.get_absolute_url()).content.decode()
    assert "<strong>Archers hobgobelins 1</strong> attacks " in page and "against AC" in page
    assert "Victory points" in page
    services.end_battle(gm, dnd_battle.pk, None)
    page = client_for(gm).get(dnd_battle.get_absolute_url()).content.decode()
    assert "Draw" in page and "Units still fielded" in page


def test_forms_leave_out_what_they_cannot_build_or_what_no_action_uses(dnd_battle):
    adapter = adapters.get("dnd5e")
    orcs = _unit(dnd_battle, "A", "Régiment orque")
    raw = list(_options(dnd_battle, f"unit:{orcs}").values())
    assert "cast_spell" not in next(o for o in raw if o["path"] == f"units.{orcs}.action")["allowed"]
    kept = {o["path"] for o in adapter.form_options(raw, True)}  # the engine offers no idle own action (S5.8.2)
    assert f"units.{orcs}.stands[0].move" in kept and f"units.{orcs}.stands[0].action" not in kept
    road = next(o for o in adapter.form_options(raw, False) if o["path"].endswith("[0].road_step"))
    assert None not in road["allowed"] and "north" in road["allowed"]  # the form's "(no change)" is the null
    side = list(_options(dnd_battle, "side:A").values())
    assert [o["path"] for o in adapter.form_options(side, False)] == ["casualty_shifts"]


def test_an_area_spells_origin_is_offered_as_squares_to_pick_on_the_map(dnd_battle):
    origin = {"path": "units.u.stands[0].spell.origin", "label": "Origin", "type": "square", "forbidden": [],
              "allowed": [{"spell": "fireball", "squares": [[2, 1], [1, 1]]}, {"spell": "web", "squares": [[1, 1], [0, 3]]}]}
    offered, = adapters.get("dnd5e").form_options([origin], False)
    assert offered["allowed"] == [[1, 1], [2, 1], [0, 3]]
    from masscombat.battles.forms import DeclarationForm
    form = DeclarationForm({"units.u.stands[0].spell.origin": "[2, 1]"}, options=[offered],
                           adapter=adapters.get("dnd5e"), state=dnd_battle.state)
    assert form.is_valid() and form.declaration() == {"units.u.stands[0].spell.origin": [2, 1]}


def test_the_setup_form_offers_the_square_maps_and_the_edges(ford, client_for, gm):
    from masscombat.maps import services as map_services

    map_services.create_map(ford["campaign"], name="Plaine", width=8, height=6, data={"cells": []})
    page = client_for(gm).get(reverse("battles:create", args=[ford["campaign"].pk])).content.decode()
    assert f'<option value="{ford["map"].pk}">{ford["map"].name}</option>' in page and ">Plaine</option>" in page
    assert 'value="west"' in page and "Victory points that end the battle" in page
    response = _create(ford, client_for(gm), map="999999")
    assert response.status_code == 200 and not Battle.objects.exists()


def test_an_army_too_large_for_its_edge_is_told_so(ford, client_for, gm):
    from masscombat.maps import services as map_services

    tiny = map_services.create_map(ford["campaign"], name="Pont", width=3, height=2, data={"cells": []})
    response = _create(ford, client_for(gm), map=tiny.pk)
    assert response.status_code == 200 and not Battle.objects.exists()
    assert "No room left along the edge" in response.content.decode()


def test_the_replay_matches_the_record(dnd_battle, client_for, gm, other_player):
    from masscombat.battles import replay

    _archers_shoot(dnd_battle, client_for(other_player))
    services.resolve_round(gm, dnd_battle.pk, expected_round=1)
    services.resolve_round(gm, dnd_battle.pk, expected_round=2)
    steps = replay.replay(selectors.viewer(gm, selectors.Action.BATTLE_VIEW, dnd_battle.pk))
    assert [s["number"] for s in steps] == [0, 1, 2] and all(s["matches"] for s in steps)
    assert client_for(gm).get(reverse("battles:replay", args=[dnd_battle.pk])).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_other_sides_websocket_hears_no_hidden_stand(dnd_battle, client_for, gm, player, other_player):
    """Over the real socket, a player of side A catching up on the round hears no id or square of it."""
    from asgiref.sync import async_to_sync
    from channels.testing import WebsocketCommunicator

    from masscombat.battles.consumers import BattleConsumer

    archers = _unit(dnd_battle, "B", "Archers hobgobelins")
    hidden = dnd_battle.state["units"][archers]["stands"][0]
    _hide(dnd_battle, hidden, [5, 2])
    walk = _options(dnd_battle, f"unit:{archers}")[f"units.{archers}.stands[0].move"]["allowed"][0]
    _post(client_for(other_player), dnd_battle, f"unit:{archers}", {f"units.{archers}.stands[0].move": walk})
    services.resolve_round(gm, dnd_battle.pk, expected_round=1)

    async def heard() -> list:
        socket = WebsocketCommunicator(BattleConsumer.as_asgi(), f"/ws/battles/{dnd_battle.pk}/")
        socket.scope["user"] = player
        socket.scope["url_route"] = {"kwargs": {"battle_id": dnd_battle.pk}}
        assert (await socket.connect())[0]
        await socket.send_json_to({"type": "hello", "last_seq": 0})
        messages = []
        while not messages or messages[-1]["type"] != "ready":
            messages.append(await socket.receive_json_from(timeout=5))
        await socket.disconnect()
        return messages

    messages = async_to_sync(heard)()
    kinds = [m.get("kind") for m in messages if m["type"] == "event"]
    # The archers' only stand hides: even that they declared is side B's to know.
    assert "round_resolved" in kinds and "declared" not in kinds
    text = json.dumps(messages)
    assert hidden not in text and "[5, 2]" not in text and json.dumps(walk[-1]) not in text
