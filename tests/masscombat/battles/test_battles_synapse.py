"""A SYNAPSE battle: formation ids with dots, orders from the options, secrets kept, aftermath to the rosters."""

import pytest

from masscombat.battles import pages, selectors, services
from masscombat.battles.models import Battle
from masscombat.campaigns import services as campaign_services
from masscombat.core.permissions import Action, Role
from masscombat.rosters import services as roster_services
from masscombat.rosters.models import Army, Hero, RosterChange

pytestmark = pytest.mark.django_db


def army_data(name, prefix, headcount):
    return {"name": name, "commander": None, "units": [
        {"id": f"{prefix}1", "unit_type": "human_infantry", "headcount": headcount, "weapon_damage": 4,
         "combat_base": 3}]}


@pytest.fixture
def synapse_battle(gm, player, other_player):
    campaign = campaign_services.create_campaign(gm, name="Front", ruleset="synapse")
    campaign.memberships.create(user=player, role=Role.PLAYER)
    campaign.memberships.create(user=other_player, role=Role.PLAYER)
    a = roster_services.create_army(campaign, name="Nord", user=gm, commander=player, data=army_data("Nord", "n", 150))
    b = roster_services.create_army(campaign, name="Sud", user=gm, commander=other_player,
                                    data=army_data("Sud", "s", 100))
    hero = roster_services.create_hero(campaign, name="Vera", user=gm, owner=player,
                                       data={"id": "vera", "name": "Vera", "unit_id": "n1", "armour": 0})
    return services.create_battle(campaign, gm, name="Plaine", armies={"A": a, "B": b}, heroes=[(hero, "A")],
                                  options={})


def test_orders_with_dotted_formation_ids_reach_the_engine(synapse_battle, gm, player):
    services.declare(player, synapse_battle.pk, "side:A",
                     {"sides.A.orders.A.melee.action": "attack", "sides.A.orders.A.melee.target": "B.melee"},
                     expected_round=1)
    done = services.resolve_round(gm, synapse_battle.pk, expected_round=1)
    assert done.declarations["sides"]["A"]["orders"]["A.melee"] == {"action": "attack", "target": "B.melee"}
    assert any(event["type"] == "attack" for event in done.events)


def test_the_other_side_reads_the_log_without_numbers_nor_the_enemy_strength(synapse_battle, gm, player, other_player):
    services.declare(player, synapse_battle.pk, "side:A",
                     {"sides.A.orders.A.melee.action": "attack", "sides.A.orders.A.melee.target": "B.melee"},
                     expected_round=1)
    services.resolve_round(gm, synapse_battle.pk, expected_round=1)
    rounds = list(Battle.objects.get(pk=synapse_battle.pk).rounds.all())
    enemy = selectors.viewer(other_player, Action.BATTLE_VIEW, synapse_battle.pk)
    master = selectors.viewer(gm, Action.BATTLE_VIEW, synapse_battle.pk)
    secret, everything = pages.reports(enemy, rounds)[0]["log"], pages.reports(master, rounds)[0]["log"]
    assert secret and len(secret) < len(everything)  # the engine's visible-round: the enemy's numbers left out
    assert [line["side"] for line in pages.chart(enemy, rounds)["lines"]] == ["B"]
    assert [line["side"] for line in pages.chart(master, rounds)["lines"]] == ["A", "B"]
    assert "losses" not in selectors.visible_state(enemy)["formations"]["A.melee"]


def test_the_rout_ends_it_and_the_rosters_get_the_headcounts(synapse_battle, gm, player):
    for number in range(1, 30):
        services.declare(player, synapse_battle.pk, "side:A",
                         {"sides.A.orders.A.melee.action": "attack", "sides.A.orders.A.melee.target": "B.melee"},
                         expected_round=number)
        services.resolve_round(gm, synapse_battle.pk, expected_round=number)
        if Battle.objects.get(pk=synapse_battle.pk).status == Battle.Status.OVER:
            break
    battle = Battle.objects.get(pk=synapse_battle.pk)
    assert battle.status == Battle.Status.OVER and battle.aftermath["winner"] == "A"
    services.confirm_aftermath(gm, battle.pk)
    north, south = Army.objects.get(name="Nord"), Army.objects.get(name="Sud")
    assert north.data["units"][0]["headcount"] == battle.aftermath["sides"]["A"]["units"]["n1"]["headcount_after"]
    assert RosterChange.objects.filter(army=north, source_kind="battle", source_id=battle.pk).count() == 1
    if battle.aftermath["sides"]["B"]["units"]["s1"]["headcount_after"] == 0:  # routed to the last man
        assert south.data["units"][0]["headcount"] == 100
        assert not RosterChange.objects.filter(army=south, source_kind="battle").exists()
    assert Hero.objects.get(name="Vera").status in ("active", "wounded")


def test_a_value_equal_to_the_options_default_is_still_declared(synapse_battle, client_for, player, gm):
    """The form pre-selects the only target; the engine still needs it said (an attack needs a target)."""
    from django.urls import reverse

    response = client_for(player).post(reverse("battles:declare", args=[synapse_battle.pk]), {
        "participant": "side:A", "round": 1,
        "sides.A.orders.A.melee.action": '"attack"', "sides.A.orders.A.melee.target": '"B.melee"'})
    assert response.status_code == 302
    data = synapse_battle.declarations.get().data
    assert data["sides.A.orders.A.melee.target"] == "B.melee"
    assert services.resolve_round(gm, synapse_battle.pk, expected_round=1).number == 1


def test_formations_are_named_in_the_readers_language(synapse_battle, player, gm, client_for):
    """The engine's English "Sud — melee troops" reads "Sud — troupes de mêlée" on a French page,
    in the state, the forms, the map and the round reports alike (one source: ``explain.names``)."""
    from django.urls import reverse
    from django.utils import translation

    viewer = selectors.viewer(player, Action.BATTLE_VIEW, synapse_battle.pk)
    with translation.override("fr"):
        assert selectors.seen_names(viewer)["B.melee"] == "Sud — troupes de mêlée"
    with translation.override("en"):
        assert selectors.seen_names(viewer)["B.melee"] == "Sud — melee troops"
    services.resolve_round(gm, synapse_battle.pk, expected_round=1)
    page = client_for(player).get(reverse("battles:room", args=[synapse_battle.pk]),
                                  HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "troupes de mêlée" in page and "melee troops" not in page
