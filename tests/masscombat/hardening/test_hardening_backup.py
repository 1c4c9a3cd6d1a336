"""Backup: a whole campaign exported to JSON and imported into a database without it.

The round trip keeps every object and field (rosters with their history,
maps, battles with declarations, rounds and the event log), the battles
replay to the same states, and the app keeps working on the imported data.
"""

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from masscombat.backup.archive import ENCODER, export_campaign
from masscombat.battles import replay, selectors
from masscombat.battles import services as battle_services
from masscombat.battles.models import Battle
from masscombat.campaigns.models import Campaign
from masscombat.core.permissions import Action

pytestmark = pytest.mark.django_db

AUTOMATIC = {"updated_at"}  # set by the database on every save


def comparable(archive: dict) -> list:
    """The objects as the JSON file holds them, less the fields the database sets itself."""
    return [{**item, "fields": {k: v for k, v in item["fields"].items() if k not in AUTOMATIC}}
            for item in json.loads(json.dumps(archive["objects"], cls=ENCODER))]


def play(world, rounds: int) -> None:
    battle, users = world["battle"], world["users"]
    for number in range(1, rounds + 1):
        for user, key, path, value in [
            (users["player"], "side:a", "sides.a.strategy", "march"),
            (users["other_side"], "side:b", "sides.b.strategy", "entrenchment"),
            (users["player"], "hero:lucie", "heroes.lucie.engagement", "support"),
        ]:
            battle_services.declare(user, battle.pk, key, {path: value}, expected_round=number)
        battle_services.resolve_round(users["gm"], battle.pk, expected_round=number)
        if Battle.objects.get(pk=battle.pk).status != Battle.Status.RUNNING:
            break


def test_a_campaign_round_trips_and_its_battles_replay_to_the_same_states(world, tmp_path, client_for):
    play(world, 3)
    sea = world["sea"]
    before = export_campaign(sea)
    counts = {}
    for item in before["objects"]:
        counts[item["model"]] = counts.get(item["model"], 0) + 1
    assert counts["battles.round"] >= 1 and counts["battles.battleevent"] > 3 and counts["rosters.rosterchange"] >= 3
    path = tmp_path / "campaign.json"
    call_command("export_campaign", sea.pk, output=str(path))
    state = Battle.objects.get(pk=world["battle"].pk).state

    # An empty database: no campaign, no user.
    Campaign.objects.all().delete()
    get_user_model().objects.all().delete()

    call_command("import_campaign", str(path))
    imported = Campaign.objects.get(pk=sea.pk)
    after = export_campaign(imported)
    assert comparable(after) == comparable(before)
    assert after["users"] == before["users"]

    battle = Battle.objects.get(pk=world["battle"].pk)
    assert battle.state == state
    gm = get_user_model().objects.get(username="gandalf")
    assert not gm.has_usable_password()
    steps = replay.replay(selectors.viewer(gm, Action.BATTLE_VIEW, battle.pk))
    assert len(steps) == battle.rounds.count() + 1 and all(step["matches"] for step in steps)

    # The imported campaign is alive: its pages open and the battle goes on with new ids.
    assert client_for(gm).get(imported.get_absolute_url()).status_code == 200
    if battle.status == Battle.Status.RUNNING:  # new rows get fresh ids (sequences moved past the imported)
        player = get_user_model().objects.get(username="pippin")
        declared = battle_services.declare(player, battle.pk, "side:a", {"sides.a.strategy": "march"},
                                           expected_round=battle.current_round)
        assert declared.pk and battle.events.order_by("-seq").first().kind == "declared"


def test_importing_over_existing_data_changes_nothing(world, tmp_path):
    path = tmp_path / "campaign.json"
    call_command("export_campaign", world["sea"].pk, output=str(path))
    campaigns = Campaign.objects.count()
    with pytest.raises(CommandError, match="already holds campaign"):
        call_command("import_campaign", str(path))
    assert Campaign.objects.count() == campaigns


def test_a_file_that_is_not_an_archive_is_refused(tmp_path):
    path = tmp_path / "other.json"
    path.write_text('{"format": "something else"}')
    with pytest.raises(CommandError, match="Not a masscombat-campaign archive"):
        call_command("import_campaign", str(path))
    path.write_text("{not json")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_campaign", str(path))
