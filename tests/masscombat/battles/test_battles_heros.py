"""A HÉROS battle on a hex map: deployment in bands, unit and hero declarations merged into the engine's
groups, two bounds, undo, the aftermath written back, and the fog of war of hidden units and lurkers."""

import copy
import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from masscombat.battles import adapters, live, pages, selectors, services
from masscombat.games.heros import demo as demo_heros
from masscombat.games.heros import battle as heros_adapter
from masscombat.battles.forms import EngineJSONField
from masscombat.battles.models import Battle, BattleEvent
from masscombat.campaigns import services as campaign_services
from masscombat.core import engines
from masscombat.core.permissions import Action, Role
from masscombat.maps import demo as maps_demo
from masscombat.rosters import services as roster_services
from masscombat.rosters.models import Army, Hero, RosterChange
from rules import registry

pytestmark = pytest.mark.django_db

HEROS = adapters.get("heros")


def _subset(found: dict, keys) -> dict:
    """The fields a test is about, of an engine object that holds every field."""
    return {key: found[key] for key in keys if key in found and found[key] not in (None, [], {}, False)}


def _merged(rows) -> dict:
    """The round's answers as the engine merges them for ``resolve-round``."""
    rows = list(rows)
    return engines.merge_declarations("heros", rows[0].battle.state, {row.participant: row.data for row in rows})
GRUNDI = {"id": "grundi", "role": "champion", "combat_bonus": 3, "personal_pa": 2, "dwarf": True}


@pytest.fixture
def plain(gm, player, other_player):
    campaign = campaign_services.create_campaign(gm, name="Cendres", ruleset="heros")
    campaign.memberships.create(user=player, role=Role.PLAYER)
    campaign.memberships.create(user=other_player, role=Role.PLAYER)
    battle_map = maps_demo.load(campaign)
    (name_a, data_a), (name_b, data_b) = demo_heros.ARMIES
    army_a = roster_services.create_army(campaign, name=name_a, user=gm, data=data_a, commander=player)
    army_b = roster_services.create_army(campaign, name=name_b, user=gm, data=data_b, commander=other_player)
    hero = roster_services.create_hero(campaign, name="Grundi", user=gm, data=GRUNDI, owner=player)
    return {"campaign": campaign, "map": battle_map, "a": army_a, "b": army_b, "hero": hero}


def create(plain, gm, **options):
    return services.create_battle(
        plain["campaign"], gm, name="Plaine", armies={"a": plain["a"], "b": plain["b"]},
        heroes=[(plain["hero"], "a")],
        options={"map": str(plain["map"].pk), "first_side": "a", "deploy_a": "north", "deploy_b": "south",
                 "max_turns": None, **options})


@pytest.fixture
def battle(plain, gm):
    return create(plain, gm)


def unit(state, uid):
    return next(u for u in state["units"] if u["id"] == uid)


def character(state, cid):
    return next(c for c in state["characters"] if c["id"] == cid)


def options(battle, key):
    kind, ref = key.split(":", 1)
    return {o["path"]: o for o in selectors.options_for(battle, key, kind, ref)["options"]}


# -- set-up -----------------------------------------------------------------------


def test_each_army_deploys_in_its_band_facing_the_enemy(battle):
    state = battle.state
    north = [u for u in state["units"] if u["side"] == "a"]
    south = [u for u in state["units"] if u["side"] == "b"]
    assert [u["id"] for u in north] == ["a-lanciers", "a-archers", "a-chevaliers"]
    assert {u["position"]["row"] for u in north} == {2} and {u["facing"] for u in north} == {3}
    assert {u["position"]["row"] for u in south} == {9} and {u["facing"] for u in south} == {0}
    river = {(h["col"], h["row"]) for h in state["map"]["hexes"] if h["river"]}
    assert not river & {(u["position"]["col"], u["position"]["row"]) for u in state["units"]}
    assert character(state, "a-aldric")["stacked_on"] == "a-lanciers"
    hero = character(state, "a-grundi")
    assert hero["stacked_on"] == "a-lanciers" and hero["role"] == "champion"
    assert state["sides"][0] == {**state["sides"][0], "name": "Ost de Valombre", "cinc_id": "a-aldric"}
    assert state["active_side"] == "a" and state["turn"] == 1


def test_participants_the_commander_plays_the_side_its_units_and_generals(battle, player, other_player):
    rows = {(p.kind, p.ref): p.user for p in battle.participants.all()}
    assert rows[("side", "a")] == player and rows[("side", "b")] == other_player
    assert rows[("unit", "a-archers")] == player and rows[("unit", "b-loups")] == other_player
    assert rows[("character", "a-aldric")] == player and rows[("hero", "a-grundi")] == player
    assert battle.participants.get(kind="hero").hero_id is not None


def test_opposite_edges_and_a_hex_map_are_asked_for(plain, gm):
    assert HEROS.clean_setup({"deploy_a": "north", "deploy_b": "north"}) == {
        "deploy_b": "The two armies deploy along opposite edges."}
    with pytest.raises(ValidationError):
        create(plain, gm, map="999999")


def test_the_engine_judges_the_setup_and_its_refusal_is_shown(plain, gm, client_for):
    plain["a"].data = {**plain["a"].data, "units": [{**u, "factor_vs_foot": None} for u in plain["a"].data["units"]]}
    plain["a"].save()
    response = client_for(gm).post(reverse("battles:create", args=[plain["campaign"].pk]), {
        "name": "Refusée", "army_a": plain["a"].pk, "army_b": plain["b"].pk, "map": plain["map"].pk,
        "first_side": "a", "deploy_a": "north", "deploy_b": "south"})
    assert response.status_code == 200 and not Battle.objects.filter(name="Refusée").exists()
    assert "factor_vs_foot" in response.content.decode()


# -- declarations and rounds --------------------------------------------------------------


def path_to(battle, key, uid, col, row, kind="move"):
    """The engine's own path for ``uid`` ending on (col, row), from its declaration options."""
    option = options(battle, key)[f"active.actions[kind={kind}].paths.{uid}"]
    return next(p for p in option["allowed"] if p[-1] == {"col": col, "row": row})


def furthest(battle, key, uid, col):
    """The allowed path of ``uid`` that ends furthest south on column ``col`` (or north, for side b)."""
    option = options(battle, key)[f"active.actions[kind=move].paths.{uid}"]
    ends = [p for p in option["allowed"] if p[-1]["col"] == col]
    return max(ends, key=lambda p: p[-1]["row"] if uid.startswith("a-") else -p[-1]["row"])


def pin(battle, seed=4242):
    battle.seed = seed
    battle.save(update_fields=["seed"])
    return battle


def test_adjacent_units_of_one_corps_move_as_one_group_and_the_engine_accepts_it(battle, gm, player):
    pin(battle)
    lanciers = furthest(battle, "unit:a-lanciers", "a-lanciers", 7)
    archers = furthest(battle, "unit:a-archers", "a-archers", 6)
    services.declare(player, battle.pk, "unit:a-lanciers", {
        "active.actions[kind=move].paths.a-lanciers": lanciers,
        "active.actions[kind=move].facings.a-lanciers": 3}, expected_round=1)
    services.declare(player, battle.pk, "unit:a-archers", {
        "active.actions[kind=move].paths.a-archers": archers,
        "active.actions[kind=move].facings.a-archers": 2}, expected_round=1)
    merged = _merged(battle.declarations.all())
    move = ("id", "kind", "corps_id", "units", "paths", "facings")
    assert [_subset(action, move) for action in merged["active"]["actions"]] == [{
        "id": "a1", "kind": "move", "corps_id": "a-c1", "units": ["a-lanciers", "a-archers"],
        "paths": {"a-lanciers": lanciers, "a-archers": archers}, "facings": {"a-archers": 2}}]
    done = services.resolve_round(gm, battle.pk, expected_round=1)
    state = Battle.objects.get(pk=battle.pk).state
    assert unit(state, "a-lanciers")["position"] == lanciers[-1] and unit(state, "a-archers")["facing"] == 2
    assert character(state, "a-grundi")["position"] == lanciers[-1]  # carried by the unit he stands on
    assert [e["type"] for e in done.events].count("unit_moved") == 2
    costs = [s for s in done.log if s["key"] == "pa.cost"]
    assert len(costs) == 1 and costs[0]["params"]["cost"] == 1  # one action, one PA for the group
    expected = registry.run("heros", "resolve-round", {"state": done.state_before, "declarations": merged},
                            seed=services.round_seed(battle, 1))
    assert state == expected["state"]


def test_two_bounds_alternate_and_undo_restores_exactly(battle, gm, player, other_player, client_for):
    pin(battle)
    services.declare(player, battle.pk, "unit:a-lanciers", {
        "active.actions[kind=move].paths.a-lanciers": furthest(battle, "unit:a-lanciers", "a-lanciers", 7)},
        expected_round=1)
    services.resolve_round(gm, battle.pk, expected_round=1)
    battle.refresh_from_db()
    after_one = copy.deepcopy(battle.state)
    assert after_one["active_side"] == "b" and after_one["bound"] == 2
    with pytest.raises(ValidationError):  # side a is passive now: its units have nothing to move
        services.declare(player, battle.pk, "unit:b-guerriers", {}, expected_round=2)
    guerriers = furthest(battle, "unit:b-guerriers", "b-guerriers", 7)
    services.declare(other_player, battle.pk, "unit:b-guerriers", {
        "active.actions[kind=move].paths.b-guerriers": guerriers}, expected_round=2)
    services.resolve_round(gm, battle.pk, expected_round=2)
    battle.refresh_from_db()
    assert battle.state["active_side"] == "a" and battle.state["turn"] == 2
    page = client_for(player).get(reverse("battles:part", args=[battle.pk, "reports"])).content.decode()
    end = guerriers[-1]
    assert f"<strong>Guerriers des Cendres</strong> moves to {end['col']},{end['row']}" in page
    assert "Turn 2, bound 3" in page and "Bound 3 (turn 2): Ost de Valombre plays." in page
    assert unit(battle.state, "b-guerriers")["position"] == guerriers[-1]
    assert services.undo_round(gm, battle.pk, expected_round=2)
    battle.refresh_from_db()
    assert battle.state == after_one and battle.round == 1


def face_to_face(battle, gm, player, other_player) -> None:
    """Two bounds (pinned dice): a's lancers run to column 7, b's warriors stop just below them;
    the battle is left refreshed at bound 3, the two units adjacent."""
    pin(battle)
    lanciers = furthest(battle, "unit:a-lanciers", "a-lanciers", 7)
    services.declare(player, battle.pk, "unit:a-lanciers", {
        "active.actions[kind=move].paths.a-lanciers": lanciers}, expected_round=1)
    services.resolve_round(gm, battle.pk, expected_round=1)
    battle.refresh_from_db()
    below = {"col": 7, "row": lanciers[-1]["row"] + 1}
    services.declare(other_player, battle.pk, "unit:b-guerriers", {
        "active.actions[kind=move].paths.b-guerriers": path_to(battle, "unit:b-guerriers", "b-guerriers", **below)},
        expected_round=2)
    services.resolve_round(gm, battle.pk, expected_round=2)
    battle.refresh_from_db()


def test_a_melee_against_an_adjacent_enemy_is_declared_and_fought(battle, gm, player, other_player, client_for):
    face_to_face(battle, gm, player, other_player)
    melee = options(battle, "unit:a-lanciers")["active.melees[].defender_id"]
    assert melee["allowed"] == ["b-guerriers"]
    services.declare(player, battle.pk, "unit:a-lanciers", {"active.melees[].defender_id": "b-guerriers"},
                     expected_round=3)
    melees = _merged(battle.declarations.filter(round=3))["active"]["melees"]
    assert [_subset(m, ("id", "attacker_id", "defender_id", "contact")) for m in melees] == [
        {"id": "m-a-lanciers", "attacker_id": "a-lanciers", "defender_id": "b-guerriers", "contact": "front"}]
    done = services.resolve_round(gm, battle.pk, expected_round=3)
    fought = [e for e in done.events if e["type"] == "combat_resolved"]
    assert fought and fought[0]["attacker"]["id"] == "a-lanciers" and fought[0]["defender"]["id"] == "b-guerriers"
    page = client_for(other_player).get(reverse("battles:part", args=[battle.pk, "reports"]),
                                        HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    attacker, defender = fought[0]["attacker"], fought[0]["defender"]
    assert (f"<strong>Lanciers de Valombre</strong> {attacker['total']} contre "
            f"<strong>Guerriers des Cendres</strong> {defender['total']}") in page
    with translation.override("fr"):
        assert (f"<strong>Lanciers de Valombre</strong> : {HEROS.value_label(attacker['result'])}, "
                f"<strong>Guerriers des Cendres</strong> : {HEROS.value_label(defender['result'])}") in page


def test_the_heros_player_moves_the_hero_and_his_choice_reaches_the_engine(battle, gm, player):
    pin(battle)
    walk = options(battle, "hero:a-grundi")["active.actions[kind=character].path"]["allowed"][0]
    services.declare(player, battle.pk, "hero:a-grundi", {
        "active.actions[kind=character].path": walk, "active.actions[kind=character].pa_source": "personal"},
        expected_round=1)
    merged = _merged(battle.declarations.all())
    walked = ("id", "kind", "character_id", "path", "pa_source")
    assert [_subset(action, walked) for action in merged["active"]["actions"]] == [
        {"id": "a1", "kind": "character", "character_id": "a-grundi", "path": walk, "pa_source": "personal"}]
    done = services.resolve_round(gm, battle.pk, expected_round=1)
    battle.refresh_from_db()
    assert character(battle.state, "a-grundi")["position"] == walk[-1]
    moved = next(e for e in done.events if e["type"] == "character_moved")
    assert moved["character_id"] == "a-grundi" and moved["stacked_on"] is None
    assert character(done.state_before, "a-grundi")["personal_pa_spent"] == 0
    assert [s["params"]["cost"] for s in done.log if s["key"] == "pa.cost"] == [1]


def test_shooters_at_one_target_shoot_together_a_pivot_is_a_move_and_the_side_may_rally(battle):
    merged = engines.merge_declarations("heros", battle.state, {
        "unit:a-archers": {"active.shootings[].target_id": "b-loups"},
        "unit:a-chevaliers": {"active.shootings[].target_id": "b-loups"},
        "side:b": {"passive.rallies[]": {"general_id": "b-gorbag", "corps_id": "b-c1"}},
        "side:a": {"active.actions[].use_cinc_extra_pa": True},
        "character:a-aldric": {"active.stars.a-lanciers": "a-aldric"},
        "unit:a-lanciers": {"active.actions[kind=move].facings.a-lanciers": 4},
    })
    active, passive = merged["active"], merged["passive"]
    assert [_subset(shot, ("id", "shooters", "target_id")) for shot in active["shootings"]] == [
        {"id": "s-a-archers", "shooters": ["a-archers", "a-chevaliers"], "target_id": "b-loups"}]
    assert active["stars"] == {"a-lanciers": "a-aldric"}
    move = ("id", "kind", "corps_id", "units", "facings", "use_cinc_extra_pa")
    assert [_subset(action, move) for action in active["actions"]] == [
        {"id": "a1", "kind": "move", "corps_id": "a-c1", "units": ["a-lanciers"], "facings": {"a-lanciers": 4},
         "use_cinc_extra_pa": True}]
    assert [_subset(rally, ("general_id", "corps_id")) for rally in passive["rallies"]] == [
        {"general_id": "b-gorbag", "corps_id": "b-c1"}]


def test_a_player_declares_only_for_his_sides_units_and_his_own_hero(plain, gm, player, other_player, make_user):
    sam = make_user("sam", display_name="Sam")
    plain["campaign"].memberships.create(user=sam, role=Role.PLAYER)
    plain["hero"].owner = sam
    plain["hero"].save()
    battle = create(plain, gm)
    walk = {"active.actions[kind=character].engaged": True}
    services.declare(sam, battle.pk, "hero:a-grundi", walk, expected_round=1)
    for user, key in ((sam, "unit:a-lanciers"), (player, "hero:a-grundi"), (other_player, "unit:a-lanciers"),
                      (other_player, "side:a")):
        with pytest.raises(ValidationError):
            services.declare(user, battle.pk, key, {}, expected_round=1)
    services.declare(gm, battle.pk, "unit:a-lanciers", {}, expected_round=1)  # the GM declares for anyone


def test_end_and_confirm_write_fates_and_losses_to_the_rosters(battle, gm, player):
    pin(battle)
    services.declare(player, battle.pk, "unit:a-lanciers", {
        "active.actions[kind=move].paths.a-lanciers": furthest(battle, "unit:a-lanciers", "a-lanciers", 7)},
        expected_round=1)
    services.resolve_round(gm, battle.pk, expected_round=1)
    state = Battle.objects.get(pk=battle.pk).state
    wounded = copy.deepcopy(state)  # the GM's corrections between rounds: a lost unit, a wounded hero
    unit(wounded, "b-loups").update(status="destroyed", position=None)
    character(wounded, "a-grundi").update(wound_state="serious", wound_malus=2)
    Battle.objects.filter(pk=battle.pk).update(state=wounded)
    services.end_battle(gm, battle.pk, winner=None)
    battle.refresh_from_db()
    result = battle.aftermath["result"]
    assert result["reason"] == "turn_limit" and result["winner"] == "a"
    assert result["sides"][1]["units_lost"] == ["b-loups"]
    services.confirm_aftermath(gm, battle.pk)
    hero = Hero.objects.get(pk=battle.participants.get(kind="hero").hero_id)
    assert hero.status == "wounded" and hero.data["wound_state"] == "serious" and hero.data["wound_malus"] == 2
    horde = Army.objects.get(name="Horde des Cendres")
    assert {u["id"]: u.get("status", "active") for u in horde.data["units"]} == {
        "guerriers": "active", "frondeurs": "active", "loups": "destroyed"}
    change = RosterChange.objects.filter(kind="battle", army=horde).get()
    assert change.summary["units_lost"] == ["loups"] and change.summary["winner"] is False
    services.confirm_aftermath(gm, battle.pk)  # twice: written once
    assert RosterChange.objects.filter(kind="battle", army=horde).count() == 1


def test_a_gm_decision_names_the_winner(battle, gm):
    services.end_battle(gm, battle.pk, winner="b")
    battle.refresh_from_db()
    assert battle.aftermath["result"]["reason"] == "gm_decision" and battle.aftermath["result"]["winner"] == "b"


# -- fog of war -------------------------------------------------------------------------------

LURKER = {"id": "rodeur", "name": "Rôdeur des marais", "corps_id": "c1", "troop_type": "Lu", "class": "X",
          "factor_vs_foot": 2, "factor_vs_mounted": 2, "move": 0, "status": "pool"}
WOOD = {"col": 3, "row": 3}


@pytest.fixture
def ambush(plain, gm):
    """Side b's slingers hidden in the Bois Noir, next to side a's band, and a lurker in b's pool."""
    plain["b"].data = {**plain["b"].data, "units": [*plain["b"].data["units"], LURKER]}
    plain["b"].save()
    battle = create(plain, gm)
    setup = HEROS.placement(battle.setup["input"], "b-frondeurs", WOOD)
    unit(setup, "b-frondeurs")["hidden"] = True
    battle.setup["input"] = setup
    battle.state = registry.run("heros", "new-battle", setup, seed=battle.seed)["state"]
    battle.save()
    return battle


SECRETS = ("b-frondeurs", "Frondeurs", "b-rodeur", "Rôdeur")


def test_hidden_units_and_the_lurker_pool_never_reach_the_other_side(ambush, client_for, gm, player):
    assert unit(ambush.state, "b-frondeurs")["position"] == WOOD
    client = client_for(player)
    for name in ("map", "reports", "declare"):
        page = client.get(reverse("battles:part", args=[ambush.pk, name])).content.decode()
        assert not [secret for secret in SECRETS if secret in page], name
    assert "b-frondeurs" in client_for(gm).get(reverse("battles:part", args=[ambush.pk, "map"])).content.decode()
    viewer = selectors.viewer(player, Action.BATTLE_VIEW, ambush.pk)
    seen = selectors.visible_state(viewer)
    assert {p["id"] for p in HEROS.map_pieces(ambush, seen, viewer, selectors.seen_names(viewer))} == {
        "a-lanciers", "a-archers", "a-chevaliers", "a-aldric", "a-grundi", "b-guerriers", "b-loups", "b-gorbag"}
    assert not [secret for secret in SECRETS if secret in pages.battle_map(viewer, seen)["svg"]]
    master = selectors.viewer(gm, Action.BATTLE_VIEW, ambush.pk)
    assert "b-frondeurs" in pages.battle_map(master, selectors.visible_state(master))["svg"]  # the GM sees all


def test_who_has_declared_names_no_hidden_unit_to_the_other_side(ambush, client_for, gm, player, other_player):
    """The status panel and the "declared" event would otherwise name the ambushers to side a."""
    for name in ("status", None):
        url = reverse("battles:part", args=[ambush.pk, name]) if name else reverse("battles:room", args=[ambush.pk])
        page = client_for(player).get(url).content.decode()
        assert not [secret for secret in SECRETS if secret in page], name
    assert "Frondeurs" in client_for(other_player).get(reverse("battles:part", args=[ambush.pk, "status"])).content.decode()
    assert "Frondeurs" in client_for(gm).get(reverse("battles:part", args=[ambush.pk, "status"])).content.decode()
    services.declare(other_player, ambush.pk, "unit:b-frondeurs", {}, expected_round=1)
    services.declare(other_player, ambush.pk, "unit:b-guerriers", {}, expected_round=1)
    audiences = {e.payload["participant"]: e.audience for e in BattleEvent.objects.filter(battle=ambush, kind="declared")}
    assert audiences == {"unit:b-frondeurs": live.side_audience("b"), "unit:b-guerriers": live.ALL}


def test_round_events_carry_no_positions_and_the_report_keeps_the_ambush_secret(ambush, client_for, gm, player):
    services.declare(player, ambush.pk, "unit:a-lanciers", {
        "active.actions[kind=move].paths.a-lanciers": furthest(ambush, "unit:a-lanciers", "a-lanciers", 7)},
        expected_round=1)
    services.resolve_round(gm, ambush.pk, expected_round=1)
    ambush.refresh_from_db()
    assert unit(ambush.state, "b-frondeurs")["hidden"]  # side a's move did not come near the wood
    for event in BattleEvent.objects.filter(battle=ambush):
        text = json.dumps(live.as_message(event))
        assert '"col"' not in text and "position" not in text and "b-frondeurs" not in text
    page = client_for(player).get(reverse("battles:part", args=[ambush.pk, "reports"])).content.decode()
    assert not [secret for secret in SECRETS if secret in page]


def test_the_demo_battle_is_made_once_with_a_hero_played_by_his_owner(gm, player, other_player):
    from masscombat.rosters import demo as rosters_demo

    campaign = campaign_services.create_campaign(gm, name="Démo", ruleset="heros")
    rosters_demo.load(campaign, gm, [player, other_player])
    maps_demo.load(campaign)
    first = demo_heros.load(campaign, gm, [player, other_player])
    assert demo_heros.load(campaign, gm, [player, other_player]) == first
    assert Battle.objects.filter(campaign=campaign).count() == 1
    assert Army.objects.filter(campaign=campaign).count() == 1 + len(demo_heros.ARMIES)
    sides = {p.ref: p.user for p in first.participants.filter(kind="side")}
    assert sides == {"a": player, "b": other_player}
    hero = first.participants.get(kind="hero")
    assert hero.user == Hero.objects.get(pk=hero.hero_id).owner


# -- impetuous units ----------------------------------------------------------------------


@pytest.fixture
def wild(plain, gm, player):
    """Side b's warband is impetuous; side a's spears come within six hexes of it in bound 1."""
    plain["b"].data = {**plain["b"].data, "units": [
        {**u, "impetuous": u["id"] == "guerriers"} for u in plain["b"].data["units"]]}
    plain["b"].save()
    battle = pin(create(plain, gm))
    services.declare(player, battle.pk, "unit:a-lanciers", {
        "active.actions[kind=move].paths.a-lanciers": furthest(battle, "unit:a-lanciers", "a-lanciers", 7)},
        expected_round=1)
    services.resolve_round(gm, battle.pk, expected_round=1)
    battle.refresh_from_db()
    return battle


def test_an_impetuous_unit_must_be_held_back_or_advance_and_its_choice_is_an_engine_group(wild, gm, other_player):
    assert wild.state["pending"]["impetuous"] == ["b-guerriers"]
    assert "unit:b-guerriers" in [p.key for p in selectors.missing(wild, {})]
    choice = options(wild, "unit:b-guerriers")
    assert choice["active.actions[].kind"]["required"] and "advance" in choice["active.actions[].kind"]["allowed"]
    step = next(p for p in choice["active.actions[kind=advance].paths.b-guerriers"]["allowed"] if p)
    services.declare(other_player, wild.pk, "unit:b-guerriers", {
        "active.actions[].kind": "advance", "active.actions[kind=advance].paths.b-guerriers": step}, expected_round=2)
    merged = _merged(wild.declarations.filter(round=2))
    assert [_subset(action, ("id", "kind", "corps_id", "units", "paths")) for action in merged["active"]["actions"]] == [
        {"id": "a1", "kind": "advance", "corps_id": "b-c1", "units": ["b-guerriers"], "paths": {"b-guerriers": step}}]
    done = services.resolve_round(gm, wild.pk, expected_round=2)
    moved = next(e for e in done.events if e["type"] == "unit_moved")
    assert moved["unit_id"] == "b-guerriers" and moved["to"] == step[-1]


def test_without_its_choice_an_impetuous_unit_gets_its_default(wild, gm):
    """H34 and the room: nobody ordered it, so it advances without leaving its hex (the engine's default)."""
    with pytest.raises(services.MissingDeclarations) as waiting:
        services.resolve_round(gm, wild.pk, expected_round=2, confirmed_missing=False)
    assert "unit:b-guerriers" in [p.key for p in waiting.value.participants]
    done = services.resolve_round(gm, wild.pk, expected_round=2)
    assert "unit:b-guerriers" in done.output["defaults_applied"]
    assert any(step["key"] == "defaults.applied" for step in done.log)


# -- labels ---------------------------------------------------------------------------------


def every_option(*battles):
    for battle in battles:
        for participant in battle.participants.all():
            yield from options(battle, participant.key).values()


def test_every_option_and_every_word_the_engine_offers_has_a_label_in_both_languages(wild, ambush):
    import polib
    from django.conf import settings

    catalogue = {e.msgid: e.msgstr for e in polib.pofile(f"{settings.BASE_DIR}/locale/fr/LC_MESSAGES/django.po")}
    ids = {item["id"] for battle in (wild, ambush) for key in ("units", "characters", "corps", "sides")
           for item in battle.state[key]}
    seen = 0
    for option in every_option(wild, ambush):
        seen += 1
        assert heros_adapter.label_key(option["path"]) in HEROS.option_labels, option["path"]
        for value in option.get("allowed") or []:
            if isinstance(value, str) and value not in ids:
                assert HEROS.value_label(value) != value, value
    assert seen > 30
    with translation.override("en"):
        msgids = [str(label) for label in [*HEROS.option_labels.values(), *HEROS.value_labels.values()]]
    assert [msgid for msgid in msgids if not catalogue.get(msgid)] == []


def test_values_read_as_words_rather_than_engine_objects():
    assert HEROS.value_label({"general_id": "a-aldric", "corps_id": "a-c1"}) == "a-aldric rallies corps a-c1"  # no state: ids
    assert HEROS.value_label([{"col": 7, "row": 3}, {"col": 7, "row": 4}]) == "7,3 → 7,4"
    assert HEROS.value_label("hold") == "Hold back" and HEROS.value_label(None) == "None"


def test_labels_name_units_corps_and_characters_from_the_names_the_reader_gets(ambush, gm, player):
    """Ids read as the engine's ``names`` for the reader: side a's hold no hidden slinger, so its id stays an id."""
    rally = {"general_id": "a-aldric", "corps_id": "a-c1"}
    master = selectors.seen_names(selectors.viewer(gm, Action.BATTLE_VIEW, ambush.pk))
    assert HEROS.value_label(rally, master) == "Duc Aldric rallies corps Bannière du duc"
    with translation.override("fr"):
        assert HEROS.value_label(rally, master) == "Duc Aldric rallie le corps Bannière du duc"
    assert HEROS.value_label(["b-guerriers", "a-grundi"], master) == "Guerriers des Cendres → Grundi"
    assert HEROS.value_label("hold", master) == "Hold back"  # an engine word stays a word
    seen = selectors.seen_names(selectors.viewer(player, Action.BATTLE_VIEW, ambush.pk))
    assert HEROS.value_label("b-frondeurs", seen) == "b-frondeurs"  # hidden from side a: never named
    assert HEROS.value_label("b-frondeurs", master) == "Frondeurs"


def test_the_phone_player_reads_names_in_the_choices_and_in_who_has_declared(battle, client_for, player):
    client = client_for(player)
    room = reverse("battles:room", args=[battle.pk])
    for language, rallies in (("en", "Duc Aldric rallies corps Bannière du duc"),
                              ("fr", "Duc Aldric rallie le corps Bannière du duc")):
        page = client.get(room, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f"<span>{rallies}</span>" in page, language
        assert "a-aldric rallie" not in page and "corps a-c1" not in page
    services.declare(player, battle.pk, "side:a", {"active.rallies[]": {"general_id": "a-aldric", "corps_id": "a-c1"}},
                     expected_round=1)
    status = client.get(reverse("battles:part", args=[battle.pk, "status"])).content.decode()
    assert "Duc Aldric rallies corps Bannière du duc" in status and "a-aldric rallies" not in status
    assert "a-c1" not in status


# -- the room page ----------------------------------------------------------------------------


def test_the_commander_gets_a_form_per_unit_with_paths_picked_on_the_map(battle, client_for, player):
    page = client_for(player).get(reverse("battles:room", args=[battle.pk])).content.decode()
    assert 'name="active.actions[kind=move].paths.a-lanciers"' in page
    assert 'name="active.actions[kind=character].path"' in page  # the hero's and the general's own moves
    for piece in ("a-lanciers", "a-grundi", "a-aldric"):  # a tap on the piece picks its path on the map
        assert f'data-map-pick="path" data-piece="{piece}"' in page
    assert "b-guerriers" in page  # on the map: the enemy in sight


def test_the_room_query_count_stays_flat_when_units_are_added(plain, gm, player, client_for):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def count(battle, user):
        with CaptureQueriesContext(connection) as queries:
            assert client_for(user).get(reverse("battles:room", args=[battle.pk])).status_code == 200
        return len([q for q in queries if not q["sql"].startswith('SELECT "accounts_user"')])

    small = create(plain, gm)
    more = [{**u, "id": f"{u['id']}{n}", "name": f"{u['name']} {n}"} for n in (2, 3) for u in plain["a"].data["units"]]
    plain["a"].data = {**plain["a"].data, "units": [*plain["a"].data["units"], *more]}
    plain["a"].save()
    large = create(plain, gm)
    assert len(large.state["units"]) == len(small.state["units"]) + 6
    for user in (gm, player):
        # Only the participants' players are read one by one (selectors.viewer loads participants without
        # their users): every other query is the same whatever the number of units.
        assert count(large, user) == count(small, user)


# -- placement before round 1 ----------------------------------------------------------------


def test_the_gm_places_a_unit_before_round_1_and_its_general_goes_with_it(battle, gm):
    moved = services.place(gm, battle.pk, "a-lanciers", {"col": 4, "row": 5}, expected_version=battle.version)
    assert unit(moved.state, "a-lanciers")["position"] == {"col": 4, "row": 5}
    assert character(moved.state, "a-aldric")["position"] == {"col": 4, "row": 5}
    again = services.place(gm, battle.pk, "a-lanciers", {"col": 4, "row": 5}, expected_version=battle.version)
    assert again.version == moved.version  # the same request twice: one effect


def test_the_engine_refuses_a_unit_on_an_enemy(battle, gm):
    guerriers = unit(battle.state, "b-guerriers")["position"]
    with pytest.raises(ValidationError) as refused:
        services.place(gm, battle.pk, "a-lanciers", guerriers, expected_version=battle.version)
    assert "both sides" in str(refused.value)
    with pytest.raises(ValidationError):
        HEROS.placement(battle.setup["input"], "a-lanciers", {"col": 16, "row": 0})
    with pytest.raises(ValidationError):
        HEROS.placement(battle.setup["input"], "nobody", {"col": 1, "row": 1})


def test_a_unit_placed_on_a_friend_stands_behind_it(battle, gm):
    lanciers = unit(battle.state, "a-lanciers")["position"]
    moved = services.place(gm, battle.pk, "a-archers", lanciers, expected_version=battle.version)
    assert unit(moved.state, "a-archers")["position"] == lanciers and unit(moved.state, "a-archers")["rank"] == "rear"
    assert unit(moved.state, "a-lanciers")["rank"] == "front"


def test_an_army_larger_than_its_band_is_refused_with_a_sentence(plain, gm):
    plain["a"].data = {**plain["a"].data, "units": [
        {**plain["a"].data["units"][0], "id": f"u{n}"} for n in range(60)]}
    plain["a"].save()
    with pytest.raises(ValidationError) as refused:
        create(plain, gm)
    assert refused.value.message_dict == {"deploy_a": [
        "Ost de Valombre has more units than free hexes along its edge: choose a larger map."]}


def test_a_character_placed_on_a_free_hex_stands_alone_there(battle, gm):
    moved = services.place(gm, battle.pk, "a-grundi", {"col": 2, "row": 6}, expected_version=battle.version)
    grundi = character(moved.state, "a-grundi")
    assert grundi["position"] == {"col": 2, "row": 6} and grundi["stacked_on"] is None and grundi["engaged"]


def test_the_gm_sets_the_battle_up_from_the_form(plain, gm, client_for):
    url = reverse("battles:create", args=[plain["campaign"].pk])
    page = client_for(gm).get(url).content.decode()
    assert f'<option value="{plain["map"].pk}">Plaine de Cendres (16 × 12)</option>' in page
    response = client_for(gm).post(url, {
        "name": "Au sud", "army_a": plain["a"].pk, "army_b": plain["b"].pk, "heroes_b": [plain["hero"].pk],
        "map": plain["map"].pk, "first_side": "b", "deploy_a": "south", "deploy_b": "north", "max_turns": 4})
    assert response.status_code == 302, response.content.decode()[:2000]
    state = Battle.objects.get(name="Au sud").state
    assert state["active_side"] == "b" and state["max_turns"] == 4
    assert unit(state, "a-lanciers")["position"]["row"] == 9 and unit(state, "a-lanciers")["facing"] == 0
    assert character(state, "b-grundi")["stacked_on"] == "b-guerriers"
    same_edge = client_for(gm).post(url, {
        "name": "Mêlée", "army_a": plain["a"].pk, "army_b": plain["b"].pk, "map": plain["map"].pk,
        "first_side": "a", "deploy_a": "north", "deploy_b": "north"})
    assert same_edge.status_code == 200 and "opposite edges" in same_edge.content.decode()


def test_the_turn_limit_ends_the_battle_by_itself_and_its_aftermath_follows(plain, gm):
    battle = pin(create(plain, gm, max_turns=1))
    services.resolve_round(gm, battle.pk, expected_round=1)
    services.resolve_round(gm, battle.pk, expected_round=2)
    battle.refresh_from_db()
    assert battle.state["status"] == "ended" and battle.status == Battle.Status.OVER
    assert battle.aftermath["result"]["reason"] == "turn_limit"
    assert battle.aftermath["result"] == battle.state["result"]


def test_the_c_in_c_extra_point_pays_for_the_first_move(battle, gm, player):
    """With one action point left, two separate moves pass only if the C-in-C's extra point pays one (S5.4)."""
    pin(battle)
    short = copy.deepcopy(battle.state)
    next(c for c in short["corps"] if c["id"] == "a-c1")["pa"].update(available=1, spent=0)
    Battle.objects.filter(pk=battle.pk).update(state=short)
    for uid, col in (("a-lanciers", 7), ("a-chevaliers", 9)):  # the river between them: two groups, two actions
        services.declare(player, battle.pk, f"unit:{uid}", {
            f"active.actions[kind=move].paths.{uid}": furthest(battle, f"unit:{uid}", uid, col)}, expected_round=1)
    with pytest.raises(ValidationError):
        services.resolve_round(gm, battle.pk, expected_round=1)
    services.declare(player, battle.pk, "side:a", {"active.actions[].use_cinc_extra_pa": True}, expected_round=1)
    done = services.resolve_round(gm, battle.pk, expected_round=1)
    assert [a.get("use_cinc_extra_pa", False) for a in done.declarations["active"]["actions"]] == [True, False]
    assert [e["unit_id"] for e in done.events if e["type"] == "unit_moved"] == ["a-lanciers", "a-chevaliers"]


# -- the GM's own declarations (S9.13, S11.4) ------------------------------------------


def gm_post(client, battle, values: dict):
    """The GM's own form as the room posts it: each choice JSON-encoded under its option path."""
    data = {"participant": selectors.GM_KEY, "round": battle.current_round,
            **{path: value if path.endswith((".label", ".value")) else json.dumps(value) for path, value in values.items()}}
    return client.post(reverse("battles:declare", args=[battle.pk]), data)


def test_a_gm_modifier_chosen_in_the_rooms_fields_reaches_the_melee(battle, gm, player, other_player, client_for):
    face_to_face(battle, gm, player, other_player)
    services.declare(player, battle.pk, "unit:a-lanciers", {"active.melees[].defender_id": "b-guerriers"},
                     expected_round=3)
    without = _merged(battle.declarations.filter(round=3))
    blessing = {"combat_id": "m-a-lanciers", "combatant_id": "a-lanciers", "value": 3, "label": "Bénédiction"}
    response = gm_post(client_for(gm), battle, {f"gm.modifiers[].{field}": value for field, value in blessing.items()
                                                if field != "label"} | {"gm.modifiers[].label": "Bénédiction"})
    assert response.status_code == 302, response.content.decode()[-3000:]
    merged = _merged(battle.declarations.filter(round=3))
    assert [_subset(m, blessing) for m in merged["gm"]["modifiers"]] == [blessing]
    before = copy.deepcopy(battle.state)
    done = services.resolve_round(gm, battle.pk, expected_round=3)
    plain_round = engines.resolve_round("heros", before, without, seed=services.round_seed(battle, 3))
    fought = next(e for e in done.events if e["type"] == "combat_resolved")
    unblessed = next(e for e in plain_round["events"] if e["type"] == "combat_resolved")
    assert fought["attacker"]["total"] == unblessed["attacker"]["total"] + 3  # same dice, +3 (M15)
    assert fought["defender"]["total"] == unblessed["defender"]["total"]


def test_a_gm_departure_chosen_in_the_room_takes_the_unit_away(battle, gm, client_for):
    pin(battle)
    response = gm_post(client_for(gm), battle, {"gm.departures.b-loups": "other"})
    assert response.status_code == 302
    done = services.resolve_round(gm, battle.pk, expected_round=1)
    assert any(e["type"] == "unit_departed" for e in done.events)
    assert unit(Battle.objects.get(pk=battle.pk).state, "b-loups")["status"] == "departed"


def test_only_the_gm_gets_the_gms_fields_and_none_is_json(battle, gm, player, client_for):
    master = selectors.viewer(gm, Action.BATTLE_VIEW, battle.pk)
    entry = next(iter(pages.declaration_forms(master, {}, only=selectors.GM_KEY)))
    assert {"gm.departures.b-loups", "gm.modifiers[].combat_id", "gm.modifiers[].value"} <= set(entry["form"].fields)
    assert not any(isinstance(field, EngineJSONField) for field in entry["form"].fields.values())
    mine = selectors.viewer(player, Action.BATTLE_VIEW, battle.pk)
    forms = pages.declaration_forms(mine, {})
    assert forms and selectors.GM_KEY not in [e["key"] for e in forms]
    assert not any(path.startswith("gm.") for e in forms for path in (e["form"].fields if e["form"] else []))
    assert 'name="gm.' not in client_for(player).get(battle.get_absolute_url()).content.decode()
    with pytest.raises(ValidationError):
        services.declare(player, battle.pk, selectors.GM_KEY, {"gm.departures.b-loups": "other"},
                         expected_round=1)


def test_a_closed_battle_says_so_in_french(battle, gm, player, client_for):
    services.end_battle(gm, battle.pk, winner=None)
    services.confirm_aftermath(gm, battle.pk)
    page = client_for(player).get(battle.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "clôturée" in page and ">close<" not in page
