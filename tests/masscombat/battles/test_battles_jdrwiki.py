"""A JdRWiki battle on a zone map: deployment, corps actions, heroes' choices in the corps' list, the map drawn."""

import json

import pytest
from django.urls import reverse

from masscombat.battles import adapters, selectors, services
from masscombat.battles.models import Battle
from masscombat.campaigns import services as campaign_services
from masscombat.core import engines
from masscombat.core.permissions import Action, Role
from masscombat.maps import demo as maps_demo
from masscombat.rosters import examples
from masscombat.rosters import services as roster_services
from masscombat.rosters.models import Hero, RosterChange

pytestmark = pytest.mark.django_db


@pytest.fixture
def valley(gm, player, other_player):
    campaign = campaign_services.create_campaign(gm, name="Loreval", ruleset="jdrwiki")
    campaign.memberships.create(user=player, role=Role.PLAYER)
    campaign.memberships.create(user=other_player, role=Role.PLAYER)
    battle_map = maps_demo.load(campaign)
    (name_a, data_a), (name_b, data_b) = list(examples.ARMIES["jdrwiki"].items())[:2]
    army_a = roster_services.create_army(campaign, name=name_a, user=gm, data=data_a, commander=player)
    army_b = roster_services.create_army(campaign, name=name_b, user=gm, data=data_b, commander=other_player)
    hero_name, hero_data = list(examples.HEROES["jdrwiki"].items())[0]
    hero = roster_services.create_hero(campaign, name=hero_name, user=gm, data=hero_data, owner=player)
    return {"campaign": campaign, "map": battle_map, "a": army_a, "b": army_b, "hero": hero}


@pytest.fixture
def jdr_battle(valley, client_for, gm):
    response = client_for(gm).post(reverse("battles:create", args=[valley["campaign"].pk]), {
        "name": "Le gué", "army_a": valley["a"].pk, "army_b": valley["b"].pk, "heroes_a": [valley["hero"].pk],
        "deploy_a": f"{valley['map'].pk}:north", "deploy_b": f"{valley['map'].pk}:ford",
    })
    assert response.status_code == 302, response.content.decode()[:2000]
    return Battle.objects.get(name="Le gué")


def test_the_armies_deploy_where_the_gm_said(jdr_battle):
    zones = {corps["army_id"]: corps["zone"] for corps in jdr_battle.state["corps"].values()}
    assert zones == {"a": "north", "b": "ford"}


def test_both_armies_deploy_on_one_map(valley, client_for, gm):
    other = maps_demo.services.create_map(valley["campaign"], name="Autre", width=2, height=1,
                                          data={"zones": {"x": {"name": "X", "neighbors": [], "at": [0, 0]}}})
    response = client_for(gm).post(reverse("battles:create", args=[valley["campaign"].pk]), {
        "name": "Col", "army_a": valley["a"].pk, "army_b": valley["b"].pk,
        "deploy_a": f"{valley['map'].pk}:north", "deploy_b": f"{other.pk}:x"})
    assert response.status_code == 200 and not Battle.objects.exists()


def test_a_heros_choices_go_into_the_corps_list(jdr_battle, gm, player):
    hero = jdr_battle.participants.get(kind="hero").ref
    services.declare(player, jdr_battle.pk, "side:a", {"corps.a1.heroes": [{"hero_id": hero}]}, expected_round=1)
    services.declare(player, jdr_battle.pk, f"hero:{hero}", {f"corps.a1.heroes[].{hero}.moderation": 1},
                     expected_round=1)
    merged = engines.merge_declarations("jdrwiki", jdr_battle.state, _answers(jdr_battle))
    assert merged["corps"]["a1"]["heroes"] == [{"hero_id": hero, "moderation": 1}]


def test_a_heros_choices_without_his_intervention_are_left_out(jdr_battle, player):
    hero = jdr_battle.participants.get(kind="hero").ref
    services.declare(player, jdr_battle.pk, f"hero:{hero}", {f"corps.a1.heroes[].{hero}.sacrifice": True},
                     expected_round=1)
    merged = engines.merge_declarations("jdrwiki", jdr_battle.state, _answers(jdr_battle))
    assert not (merged.get("corps") or {}).get("a1", {}).get("heroes")


def _answers(battle) -> dict:
    return {row.participant: row.data for row in battle.declarations.all()}


def test_a_round_with_an_action_chosen_from_the_options(jdr_battle, gm, player):
    options = selectors.options_for(jdr_battle, "side:a", "side", "a")["options"]
    actions = next(o for o in options if o["path"] == "corps.a1.actions")
    services.declare(player, jdr_battle.pk, "side:a", {"corps.a1.actions": [actions["allowed"][0]]}, expected_round=1)
    done = services.resolve_round(gm, jdr_battle.pk, expected_round=1)
    assert done.declarations["corps"]["a1"]["actions"] == [actions["allowed"][0]]
    assert Battle.objects.get(pk=jdr_battle.pk).round == 1


def test_the_room_draws_the_map_with_the_corps(jdr_battle, client_for, player):
    page = client_for(player).get(jdr_battle.get_absolute_url()).content.decode()
    assert 'class="battle-map kind-zones"' in page
    assert 'data-piece="a1"' in page and 'data-piece="b1"' in page


def test_the_aftermath_writes_the_heroes_fates(jdr_battle, gm, valley):
    services.end_battle(gm, jdr_battle.pk, None)
    services.confirm_aftermath(gm, jdr_battle.pk)
    hero = Hero.objects.get(pk=valley["hero"].pk)
    assert RosterChange.objects.filter(hero=hero, source_kind="battle", source_id=jdr_battle.pk).count() == 1
    assert RosterChange.objects.filter(army=valley["a"], source_kind="battle").count() == 1
    assert hero.status == "active"



def test_players_get_the_events_and_log_steps_the_engine_gives_them(jdr_battle, gm, player, other_player):
    from masscombat.battles import pages

    options = selectors.options_for(jdr_battle, "side:a", "side", "a")["options"]
    actions = next(o for o in options if o["path"] == "corps.a1.actions")
    services.declare(player, jdr_battle.pk, "side:a", {"corps.a1.actions": [actions["allowed"][0]]}, expected_round=1)
    services.resolve_round(gm, jdr_battle.pk, expected_round=1)
    rounds = list(Battle.objects.get(pk=jdr_battle.pk).rounds.all())
    enemy = pages.reports(selectors.viewer(other_player, Action.BATTLE_VIEW, jdr_battle.pk), rounds)[0]
    master = pages.reports(selectors.viewer(gm, Action.BATTLE_VIEW, jdr_battle.pk), rounds)[0]
    # the log steps each may read are the engine's (visible-round): the GM's are all of them
    assert enemy["log"] and len(enemy["log"]) < len(master["log"])
    assert all(event.get("visible_to", "all") in ("all", "b") for event in enemy["events"])
    assert len(master["events"]) == len(rounds[0].events)


def test_an_automatic_resolution_the_engine_refuses_keeps_the_declaration(jdr_battle, player):
    """Here the hero's intervention lacks what the engine wants at resolution: the round waits for the GM."""
    hero = jdr_battle.participants.get(kind="hero").ref
    services.declare(player, jdr_battle.pk, "side:a", {"corps.a1.heroes": [{"hero_id": hero}]}, expected_round=1)
    Battle.objects.filter(pk=jdr_battle.pk).update(auto_resolve=True)
    services.declare(player, jdr_battle.pk, f"hero:{hero}", {f"corps.a1.heroes[].{hero}.moderation": 1},
                     expected_round=1)
    battle = Battle.objects.get(pk=jdr_battle.pk)
    assert battle.round == 0 and battle.declarations.count() == 2
    assert not battle.events.filter(kind="round_resolved").exists()


def _post_declaration(client, battle, key, data, **headers):
    return client.post(reverse("battles:declare", args=[battle.pk]),
                       {"participant": key, "round": battle.current_round, **data}, **headers)


def test_a_moderate_use_goes_from_the_options_to_the_round(jdr_battle, client_for, gm, player):
    """The hero's form offers his positive bonuses to give up; the round drops them and shortens his cooldown."""
    hero = jdr_battle.participants.get(kind="hero").ref
    prefix = f"corps.a1.heroes[].{hero}"
    draft = {"corps.a1.heroes": [{"hero_id": hero}], f"{prefix}.moderation": 1}
    options = {o["path"]: o for o in engines.declaration_options(
        "jdrwiki", jdr_battle.state, {"kind": "hero", "id": hero}, "a", draft)["options"]}
    offered = options[f"{prefix}.dropped_bonuses"]["allowed"]
    bonuses = jdr_battle.state["heroes"][hero]["bonuses"]
    assert offered == sorted(t for t, v in bonuses.items() if v > 0)
    client = client_for(player)
    response = _post_declaration(client, jdr_battle, "side:a", {"corps.a1.heroes": json.dumps({"hero_id": hero})})
    assert response.status_code == 302
    response = _post_declaration(client, jdr_battle, f"hero:{hero}", {
        f"{prefix}.moderation": "1", f"{prefix}.dropped_bonuses": [json.dumps(t) for t in offered[:2]]})
    assert response.status_code == 302, response.content.decode()[:3000]
    done = services.resolve_round(gm, jdr_battle.pk, expected_round=1)
    assert done.declarations["corps"]["a1"]["heroes"] == [
        {"hero_id": hero, "moderation": 1, "dropped_bonuses": offered[:2]}]
    step = next(s for s in done.log if s["key"] == "hero.intervention")
    assert step["params"]["bonuses"] == {t: v for t, v in bonuses.items() if t not in offered[:2]}
    # Ildar is legendary (class 4, S4.9): cooldown 5, one round removed; free again from round 1 + 4 + 1.
    assert step["params"]["cooldown"] == 4
    assert Battle.objects.get(pk=jdr_battle.pk).state["heroes"][hero]["available_from_round"] == 6


def test_the_heros_form_names_the_bonuses_in_the_readers_language(jdr_battle, client_for, player):
    """The bonuses to give up follow the moderation chosen (S4.10): once it is posted, the form offers them."""
    hero = jdr_battle.participants.get(kind="hero").ref
    prefix = f"corps.a1.heroes[].{hero}"
    services.declare(player, jdr_battle.pk, "side:a", {"corps.a1.heroes": [{"hero_id": hero}]}, expected_round=1)
    client = client_for(player)
    client.cookies["django_language"] = "fr"
    page = _post_declaration(client, jdr_battle, f"hero:{hero}", {f"{prefix}.moderation": "1"},
                             HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Bonus abandonnés : exactement deux par tour de récupération retiré" in page
    assert "attaque adroite" in page  # deft_attack, one of Ildar's bonuses
    client.cookies["django_language"] = "en"
    page = _post_declaration(client, jdr_battle, f"hero:{hero}", {f"{prefix}.moderation": "1"},
                             HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Bonuses given up: exactly two per round of cooldown removed" in page and "deft attack" in page


def test_more_rounds_of_moderation_than_offered_are_refused_by_the_form(jdr_battle, client_for, player):
    hero = jdr_battle.participants.get(kind="hero").ref
    prefix = f"corps.a1.heroes[].{hero}"
    response = _post_declaration(client_for(player), jdr_battle, f"hero:{hero}",
                                 {f"{prefix}.moderation": "3"})
    assert response.status_code == 400 and not jdr_battle.declarations.exists()


@pytest.mark.parametrize("choice, statuses", [("b", {"a": "standing", "b": "victorious"}),
                                              ("", {"a": "standing", "b": "standing"})])
def test_the_gms_winner_goes_into_the_aftermath_and_the_rosters(jdr_battle, client_for, gm, valley, choice,
                                                                statuses):
    response = client_for(gm).post(reverse("battles:end", args=[jdr_battle.pk]), {"winner": choice})
    assert response.status_code == 302
    battle = Battle.objects.get(pk=jdr_battle.pk)
    assert battle.aftermath["winner"] == (choice or None)
    assert {army: result["status"] for army, result in battle.aftermath["armies"].items()} == statuses
    services.confirm_aftermath(gm, jdr_battle.pk)
    written = RosterChange.objects.get(army=valley["b"], source_kind="battle", source_id=jdr_battle.pk)
    assert written.summary["status"] == statuses["b"]


def test_a_winner_the_rules_decided_stays(jdr_battle, gm):
    """S5.15.1: the GM names a winner only where the rules name none; ``end-battle`` refuses to overrule them."""
    jdrwiki = adapters.get("jdrwiki")
    state = {**jdr_battle.state, "ended": True, "winner": "a"}
    assert engines.end_battle("jdrwiki", jdrwiki.end_input(state, None))["winner"] == "a"
    with pytest.raises(engines.Refused):
        engines.end_battle("jdrwiki", jdrwiki.end_input(state, "b"))


def test_after_round_one_the_corps_still_has_actions_to_declare(jdr_battle, gm, player, other_player):
    """Round 2 starts in the engine's initiative phase; the side's form offers the re-roll and the actions."""
    options = selectors.options_for(jdr_battle, "side:a", "side", "a")["options"]
    assault = next(v for o in options if o["path"] == "corps.a1.actions" for v in o["allowed"]
                   if v["action"] == "combined_assault")
    services.declare(player, jdr_battle.pk, "side:a", {"corps.a1.actions": [assault]}, expected_round=1)
    services.resolve_round(gm, jdr_battle.pk, expected_round=1)
    battle = Battle.objects.get(pk=jdr_battle.pk)
    assert battle.state["phase"] == "initiative"
    options = {o["path"]: o for o in selectors.options_for(battle, "side:a", "side", "a")["options"]}
    assert "rerolls[].a1" in options
    allowed = options["corps.a1.actions"]["allowed"]
    assert allowed, options["corps.a1.actions"]["forbidden"]
    services.declare(player, battle.pk, "side:a", {"corps.a1.actions": [allowed[0]]}, expected_round=2)
    done = services.resolve_round(gm, battle.pk, expected_round=2)
    assert done.declarations["corps"]["a1"]["actions"] == [allowed[0]]


def test_the_re_roll_box_speaks_french():
    from django.utils import translation

    with translation.override("fr"):
        label = adapters.get("jdrwiki").option_label({"path": "rerolls[].a1", "label": "Re-roll the initiative of a1"})
    assert label == "Relancer l’initiative de a1"


def test_a_heroism_choice_names_its_pool_and_its_use_in_words():
    """The choice reads "le commandant → une réussite automatique", not the engine's ``auto_success``."""
    from django.utils import translation

    with translation.override("fr"):
        label = adapters.get("jdrwiki").value_label({"pool": "commander", "use": "auto_success"}, {})
    assert label == "le commandant → une réussite automatique"


@pytest.mark.parametrize("language, label", [("fr", "Relancer l’initiative de Armée jann"),
                                             ("en", "Re-roll the initiative of Armée jann")])
def test_a_re_roll_box_names_its_corps_never_its_id(language, label):
    from django.utils import translation

    with translation.override(language):
        found = adapters.get("jdrwiki").option_label({"path": "rerolls[].b1"}, {"b1": "Armée jann"})
    assert found == label
