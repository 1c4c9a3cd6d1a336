"""Pages beyond the editor: import and export as JSON, the army page's sheet, log and history."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from masscombat.rosters import examples, services
from masscombat.rosters.models import Army, Hero

pytestmark = pytest.mark.django_db


def test_export_then_import_a_file_into_another_campaign(campaign_for, gm, client_for):
    source, target = campaign_for("synapse"), campaign_for("synapse")
    army = services.create_army(source, name="Carthage", user=gm, data=examples.SYNAPSE_ARMIES["Ost d'Hannibal"])
    client = client_for(gm)
    exported = client.get(f"{army.get_absolute_url()}export.json")
    assert exported["Content-Disposition"] == 'attachment; filename="carthage.json"'
    upload = SimpleUploadedFile("carthage.json", exported.content, content_type="application/json")
    response = client.post(f"/campaigns/{target.pk}/armies/new/?import", {"name": "", "file": upload})
    copy = Army.objects.get(campaign=target)
    assert response.status_code == 302 and response["Location"] == copy.get_absolute_url()
    assert copy.name == "Ost d'Hannibal" and copy.data == army.data
    assert copy.changes.get().source_kind == "import"


def test_pasted_json_that_the_rules_refuse_is_not_imported(campaign_for, gm, client_for):
    campaign = campaign_for("jdrwiki")
    bad = dict(examples.JDRWIKI_HEROES["Ildar Adeldiral"], level=99)
    response = client_for(gm).post(f"/campaigns/{campaign.pk}/heroes/new/?import",
                                   {"name": "Ildar", "text": json.dumps(bad)})
    assert response.status_code == 200
    assert "level" in response.content.decode() and not Hero.objects.exists()
    response = client_for(gm).post(f"/campaigns/{campaign.pk}/heroes/new/?import", {"name": "X", "text": "{oops"})
    assert "not valid JSON" in response.content.decode() and not Hero.objects.exists()


def test_a_new_army_starts_from_the_engines_blank_and_opens_the_editor(campaign_for, gm, client_for):
    campaign = campaign_for("dnd5e")
    response = client_for(gm).post(f"/campaigns/{campaign.pk}/armies/new/", {"name": "Légion"})
    army = Army.objects.get(campaign=campaign)
    assert response["Location"] == f"{army.get_absolute_url()}edit/"
    assert army.data["name"] == "Légion" and army.data["units"]


def test_army_page_shows_the_sheet_its_explanation_in_french_and_the_history(campaign_for, gm, client_for):
    campaign = campaign_for("synapse")
    army = services.create_army(campaign, name="Carthage", user=gm, data=examples.SYNAPSE_ARMIES["Ost d'Hannibal"])
    services.update_army(army, army.data, user=None, expected_version=1, kind="losses", source_kind="battle",
                         source_id=3, source_label="Trasimène", summary={"strength": 1900})
    client = client_for(gm)
    page = client.get(army.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Ordre de bataille" in page or "Fiche d’ordre de bataille" in page
    assert "Potentiel" in page and "851" in page
    assert "Trasimène" in page and "pertes" in page and "<polyline" in page
    assert 'class="strength-dot battle"' in page
    # The explanation is the engine's log in the reader's language (its French template, S4.9).
    assert "S4.9" in page and "Hannibal" in page


def test_the_campaign_page_lists_each_armys_strength(campaign_for, gm, client_for):
    campaign = campaign_for("synapse")
    services.create_army(campaign, name="Carthage", user=gm, data=examples.SYNAPSE_ARMIES["Ost d'Hannibal"])
    page = client_for(gm).get(campaign.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "strength 2,300" in page


def test_the_synapse_sheet_is_computed_for_the_chosen_battle_conditions(campaign_for, gm, client_for):
    """E4: cavalry is worth double on open ground only; in a forest the main force's power drops."""
    campaign = campaign_for("synapse")
    army = services.create_army(campaign, name="Feudal", user=gm, data=examples.SYNAPSE_ARMIES["Armée féodale (E14)"])
    client = client_for(gm)
    open_ground = client.get(army.get_absolute_url()).content.decode()
    forest = client.get(army.get_absolute_url(), {"context.terrain": "forest", "context.mode": "field"}).content.decode()
    assert "2,200" in open_ground and "1,700" in forest and 'value="forest" selected' in forest
    wrong = client.get(army.get_absolute_url(), {"context.terrain": "lava"})
    assert wrong.status_code == 200 and "context.terrain" in wrong.content.decode()


def test_an_earlier_version_is_restored_from_the_history(campaign_for, gm, player, other_player, client_for):
    campaign = campaign_for("synapse")
    original = examples.SYNAPSE_ARMIES["Ost d'Hannibal"]
    army = services.create_army(campaign, name="Carthage", user=gm, data=original, commander=player)
    first = army.changes.get()
    army = services.update_army(army, {**original, "notes": "after Cannae"}, user=gm, expected_version=1)
    url = f"{army.get_absolute_url()}restore/{first.pk}/"
    assert client_for(other_player).post(url, {"_version": "2"}).status_code == 403
    assert client_for(player).post(url, {"_version": "2"}).status_code == 403  # not allowed to edit yet
    page = client_for(gm).get(army.get_absolute_url()).content.decode()
    assert f'restore/{first.pk}/' in page
    assert client_for(gm).post(url, {"_version": "2"}).status_code == 302
    army.refresh_from_db()
    assert army.data == original and army.version == 3 and army.changes.last().kind == "restored"
    # A stale version is refused with a message, nothing changes.
    client_for(gm).post(url, {"_version": "2"})
    army.refresh_from_db()
    assert army.version == 3


def test_restore_through_the_api(campaign_for, gm):
    from rest_framework.test import APIClient

    campaign = campaign_for("jdrwiki")
    original = examples.JDRWIKI_ARMIES["Ost de Loreval"]
    army = services.create_army(campaign, name="Loreval", user=gm, data=original)
    first = army.changes.get()
    services.update_army(army, {**original, "has_magic": True}, user=gm, expected_version=1)
    client = APIClient()
    client.force_authenticate(gm)
    url = f"/api/campaigns/{campaign.pk}/armies/{army.pk}/restore/{first.pk}/"
    assert client.post(url, {}, format="json").status_code == 400
    assert client.post(url, {"version": 1}, format="json").status_code == 409
    response = client.post(url, {"version": 2}, format="json")
    assert response.status_code == 200 and response.json()["data"] == original


def test_the_army_page_lists_its_heroes_a_player_may_see(campaign_for, gm, player, other_player, client_for):
    campaign = campaign_for("synapse")
    army = services.create_army(campaign, name="Carthage", user=gm, data=examples.SYNAPSE_ARMIES["Ost d'Hannibal"])
    services.create_hero(campaign, name="Maharbal", user=gm, army=army, owner=player)
    services.create_hero(campaign, name="Secret agent", user=gm, army=army, visible_to_players=False)
    gm_page = client_for(gm).get(army.get_absolute_url()).content.decode()
    assert "Maharbal" in gm_page and "Secret agent" in gm_page
    other_page = client_for(other_player).get(army.get_absolute_url()).content.decode()
    assert "Maharbal" in other_page and "Secret agent" not in other_page
