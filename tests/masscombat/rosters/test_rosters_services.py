"""The write paths: engine validation, optimistic locking, history, one transaction."""

import pytest
from rules.errors import InvalidInput

from masscombat.campaigns import services as campaign_services
from masscombat.rosters import services
from masscombat.rosters.models import Army, RosterChange

HANNIBAL = {
    "name": "Ost d'Hannibal",
    "commander": {"name": "Hannibal", "mental_mod": 3, "presence_mod": 2, "combat": 5, "art_of_war": 5, "diplomacy": 1},
    "units": [
        {"id": "men_at_arms", "name": "Hommes d'armes", "unit_type": "human_infantry", "headcount": 150,
         "weapon_damage": 4, "combat_base": 8, "armour": 2, "break_pct_override": 50},
        {"id": "peasants", "name": "Paysans", "unit_type": "human_infantry", "headcount": 250,
         "weapon_damage": 2, "combat_base": 2},
    ],
}

pytestmark = pytest.mark.django_db


@pytest.fixture
def synapse_campaign(gm):
    return campaign_services.create_campaign(gm, name="Punic wars", ruleset="synapse")


def test_create_then_update_bumps_version_and_records_history(synapse_campaign, gm):
    army = services.create_army(synapse_campaign, name="Carthage", user=gm, data=HANNIBAL)
    assert army.version == 1
    changed = {**HANNIBAL, "notes": "Cannae"}
    army = services.update_army(army, changed, user=gm, expected_version=1)
    assert army.version == 2
    assert Army.objects.get(pk=army.pk).data["notes"] == "Cannae"
    kinds = list(RosterChange.objects.filter(army=army).values_list("kind", "source_kind"))
    assert kinds == [("created", "edit"), ("edited", "edit")]


def test_stale_version_is_a_conflict_and_saves_nothing(synapse_campaign, gm):
    army = services.create_army(synapse_campaign, name="Carthage", user=gm, data=HANNIBAL)
    services.update_army(army, {**HANNIBAL, "notes": "first"}, user=gm, expected_version=1)
    with pytest.raises(services.VersionConflict):
        services.update_army(army, {**HANNIBAL, "notes": "second"}, user=gm, expected_version=1)
    army.refresh_from_db()
    assert army.data["notes"] == "first"
    assert army.changes.count() == 2


def test_engine_refuses_out_of_range_and_nothing_is_saved(synapse_campaign, gm):
    army = services.create_army(synapse_campaign, name="Carthage", user=gm, data=HANNIBAL)
    bad = {**HANNIBAL, "units": [{**HANNIBAL["units"][0], "headcount": 0}]}
    with pytest.raises(InvalidInput) as error:
        services.update_army(army, bad, user=gm, expected_version=1)
    assert "units[0].headcount" in error.value.fields
    army.refresh_from_db()
    assert army.version == 1 and army.data == HANNIBAL
    assert army.changes.count() == 1


def test_battle_aftermath_is_recorded_with_its_battle(synapse_campaign, gm):
    army = services.create_army(synapse_campaign, name="Carthage", user=gm, data=HANNIBAL)
    services.update_army(
        army, HANNIBAL, user=None, expected_version=None, kind="losses",
        source_kind="battle", source_id=42, source_label="Cannae", summary={"strength": 2000},
    )
    change = army.changes.last()
    assert (change.kind, change.source_kind, change.source_id, change.source_label) == ("losses", "battle", 42, "Cannae")
    assert change.summary == {"strength": 2000}


def test_a_hero_status_change_is_recorded_as_what_happened(synapse_campaign, gm):
    hero = services.create_hero(synapse_campaign, name="Maharbal", user=gm)
    hero = services.update_hero(hero, hero.data, user=gm, expected_version=1, status="wounded")
    assert hero.changes.last().kind == "wounded"
    hero = services.update_hero(hero, hero.data, user=gm, expected_version=2, kind="dead", status="dead",
                                source_kind="battle", source_id=7, source_label="Zama")
    assert (hero.status, hero.changes.last().kind, hero.changes.last().source_label) == ("dead", "dead", "Zama")
