"""The editor: every worked example survives the schema-built form, edits recompute, bad input is refused."""

import copy

import pytest

from masscombat.rosters import adapters, examples, services
from masscombat.rosters.models import Army, Hero

pytestmark = pytest.mark.django_db

CASES = [
    (slug, entity, name)
    for slug in examples.ARMIES
    for entity, catalogue in (("army", examples.ARMIES), ("hero", examples.HEROES))
    for name in catalogue[slug]
]


def _without_logs(sheets: dict) -> dict:
    return {name: {k: v for k, v in output.items() if k != "log"} for name, output in sheets.items()}


@pytest.mark.parametrize("slug,entity,name", CASES)
def test_the_form_round_trips_every_worked_example(slug, entity, name, campaign_for, gm, client_for, scrape, to_post):
    """Posting the editor unchanged keeps every derived number of the spec's example."""
    campaign = campaign_for(slug)
    catalogue = examples.ARMIES if entity == "army" else examples.HEROES
    data = copy.deepcopy(catalogue[slug][name])
    create = services.create_army if entity == "army" else services.create_hero
    item = create(campaign, name=name, user=gm, data=data)
    client = client_for(gm)
    page = client.get(f"{item.get_absolute_url()}edit/")
    assert page.status_code == 200
    response = client.post(f"{item.get_absolute_url()}edit/", to_post(scrape(page.content)))
    body = response.content.decode()
    assert response.status_code == 302, body[body.find("roster-form"):][:3000]
    item.refresh_from_db()
    assert item.version == 2
    kind = getattr(adapters.get(slug), entity)
    if "name" in data:
        data["name"] = name  # one name: the engine's follows the army's or hero's, typed in the settings
    assert _without_logs(kind.sheet(slug, item.data)) == _without_logs(kind.sheet(slug, data))


def test_adding_and_removing_a_unit_rerenders_without_saving(campaign_for, gm, client_for, scrape, to_post):
    campaign = campaign_for("synapse")
    army = services.create_army(campaign, name="Carthage", user=gm, data=examples.SYNAPSE_ARMIES["Ost d'Hannibal"])
    client = client_for(gm)
    url = f"{army.get_absolute_url()}edit/"
    fields = scrape(client.get(url).content)
    added = client.post(url, to_post(fields, _add="units"))
    assert added.status_code == 200
    grown = scrape(added.content)
    assert any(name.startswith("units[2].") for name, _value in grown)
    removed = client.post(url, to_post(grown, _remove="units[0]"))
    names = [name for name, _value in scrape(removed.content)]
    assert "units[2].headcount" not in names
    army.refresh_from_db()
    assert army.version == 1 and len(army.data["units"]) == 2


def test_out_of_range_value_is_refused_on_its_field_and_nothing_saved(campaign_for, gm, client_for, scrape, to_post):
    campaign = campaign_for("synapse")
    army = services.create_army(campaign, name="Carthage", user=gm, data=examples.SYNAPSE_ARMIES["Ost d'Hannibal"])
    client = client_for(gm)
    url = f"{army.get_absolute_url()}edit/"
    fields = [(n, "0" if n == "units[1].headcount" else v) for n, v in scrape(client.get(url).content)]
    response = client.post(url, to_post(fields))
    assert response.status_code == 200
    body = response.content.decode()
    assert "Nothing was saved" in body
    assert 'has-error' in body and "Paysans: Headcount must be between 1 and 1,000,000" in body
    assert "must be at least 1" in body  # the sheet's list of refusals, in words
    army.refresh_from_db()
    assert army.version == 1 and army.data["units"][1]["headcount"] == 250


def test_a_stale_version_is_a_conflict_with_a_clear_message(campaign_for, gm, client_for, scrape, to_post):
    campaign = campaign_for("synapse")
    army = services.create_army(campaign, name="Carthage", user=gm, data=examples.SYNAPSE_ARMIES["Ost d'Hannibal"])
    client = client_for(gm)
    url = f"{army.get_absolute_url()}edit/"
    fields = scrape(client.get(url).content)
    services.update_army(army, army.data, user=gm, expected_version=1)
    response = client.post(url, to_post(fields))
    assert "Someone else saved this" in response.content.decode()
    army.refresh_from_db()
    assert army.version == 2


def test_preview_recomputes_the_sheet_from_the_unsaved_form(campaign_for, gm, client_for, scrape, to_post):
    campaign = campaign_for("synapse")
    army = services.create_army(campaign, name="Carthage", user=gm, data=examples.SYNAPSE_ARMIES["Ost d'Hannibal"])
    client = client_for(gm)
    fields = [(n, "300" if n == "units[1].headcount" else v)
              for n, v in scrape(client.get(f"{army.get_absolute_url()}edit/").content)]
    response = client.post(f"{army.get_absolute_url()}preview/", to_post(fields), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="sheet"' in body and "<html" not in body
    # 300 peasants: strength 1500 (S4.4), the group 2550; the stored army is unchanged.
    assert "1,500" in body and "2,550" in body
    army.refresh_from_db()
    assert army.data["units"][1]["headcount"] == 250


def test_the_gm_sets_commander_and_visibility_from_the_editor(campaign_for, gm, player, client_for, scrape, to_post):
    campaign = campaign_for("jdrwiki")
    army = services.create_army(campaign, name="Loreval", user=gm, data=examples.JDRWIKI_ARMIES["Ost de Loreval"])
    client = client_for(gm)
    url = f"{army.get_absolute_url()}edit/"
    fields = [(n, v) for n, v in scrape(client.get(url).content) if not n.startswith("meta-")]
    fields += [("meta-name", "Ost de Loreval"), ("meta-commander", str(player.pk)), ("meta-player_may_edit", "on")]
    assert client.post(url, to_post(fields)).status_code == 302
    army = Army.objects.get(pk=army.pk)
    assert (army.name, army.commander, army.player_may_edit, army.visible_to_players) == (
        "Ost de Loreval", player, True, False)


def test_hero_status_and_owner(campaign_for, gm, player, client_for, scrape, to_post):
    campaign = campaign_for("seventh_sea")
    hero = services.create_hero(campaign, name="Lucie", user=gm, data=examples.SEVENTH_SEA_HEROES["Lucie"])
    client = client_for(gm)
    url = f"{hero.get_absolute_url()}edit/"
    fields = [(n, v) for n, v in scrape(client.get(url).content) if n not in ("meta-owner", "meta-status")]
    fields += [("meta-owner", str(player.pk)), ("meta-status", "wounded")]
    assert client.post(url, to_post(fields)).status_code == 302
    hero = Hero.objects.get(pk=hero.pk)
    assert (hero.owner, hero.status) == (player, "wounded")


def test_a_forty_unit_army_saves_from_the_editor(campaign_for, gm, client_for, scrape, to_post):
    """Every field of every unit is posted: well over Django's default limit of 1,000 fields.

    Forty units: the SYNAPSE engine's cap per side (its caps keep every operation under 2 s)."""
    campaign = campaign_for("synapse")
    units = [{"id": f"u{n}", "unit_type": "human_infantry", "headcount": 100 + n, "weapon_damage": 4, "combat_base": 3}
             for n in range(40)]
    army = services.create_army(campaign, name="Big", user=gm, data={"name": "Big", "units": units})
    client = client_for(gm)
    fields = scrape(client.get(f"{army.get_absolute_url()}edit/").content)
    assert len(fields) > 1000
    assert client.post(f"{army.get_absolute_url()}edit/", to_post(fields)).status_code == 302
    army.refresh_from_db()
    assert army.version == 2 and army.data["units"][39]["headcount"] == 139


def test_an_error_inside_an_entry_keyed_by_id_lands_on_its_field(campaign_for, gm, client_for, scrape, to_post):
    """D&D 5e units are keyed by id: the engine's ``units.u1.stands[1].hp`` is the form's ``units[0]...``."""
    campaign = campaign_for("dnd5e")
    army = services.create_army(campaign, name="Horde", user=gm, data=examples.DND5E_ARMIES["Horde orque"])
    client = client_for(gm)
    url = f"{army.get_absolute_url()}edit/"
    fields = [(n, "-3" if n == "units[0].stands[1].hp" else v) for n, v in scrape(client.get(url).content)]
    body = client.post(url, to_post(fields)).content.decode()
    field_html = body[body.index('name="units[0].stands[1].hp"'):][:1200]
    assert 'id="e-units[0].stands[1].hp"' in field_html  # the error, named by the field for screen readers
    assert 'aria-describedby="h-units[0].stands[1].hp e-units[0].stands[1].hp"' in field_html
    army.refresh_from_db()
    assert army.version == 1
