"""The editor's bulk changes: duplicate, reorder, add N identical items or a troop type, undo; names, not ids."""

import pytest

from masscombat.rosters import editing, examples, services

pytestmark = pytest.mark.django_db


def _army(campaign_for, gm, slug, name):
    return services.create_army(campaign_for(slug), name=name, user=gm, data=examples.ARMIES[slug][name])


def test_duplicate_then_move_then_undo(campaign_for, gm, client_for, scrape, to_post):
    army = _army(campaign_for, gm, "synapse", "Ost d'Hannibal")
    client = client_for(gm)
    url = f"{army.get_absolute_url()}edit/"
    fields = scrape(client.get(url).content)
    copied = client.post(url, to_post(fields, _duplicate="units[0]"), HTTP_ACCEPT_LANGUAGE="fr")
    posted = dict(scrape(copied.content))
    assert posted["units[1].name"] == "Hommes d'armes 1" and posted["units[2].name"] == "Paysans"
    assert posted["units[1].id"] not in (posted["units[0].id"], posted["units[2].id"])
    assert 'type="hidden" name="units[1].id"' in copied.content.decode()  # ids are never typed
    moved = client.post(url, to_post(scrape(copied.content), _move="units[2]:up"))
    assert dict(scrape(moved.content))["units[1].name"] == "Paysans"
    undone = client.post(url, to_post(scrape(moved.content), _undo="1"))
    assert dict(scrape(undone.content))["units[2].name"] == "Paysans"  # back to before the move
    army.refresh_from_db()
    assert army.version == 1  # nothing saved until Save


def test_add_three_identical_stands_and_a_unit_from_a_creature(campaign_for, gm, client_for, scrape, to_post):
    army = _army(campaign_for, gm, "dnd5e", "Horde orque")
    client = client_for(gm)
    url = f"{army.get_absolute_url()}edit/"
    fields = scrape(client.get(url).content)
    grown = client.post(url, to_post(fields, **{"_add": "units[0].stands", "_count:units[0].stands": "3"}))
    names = dict(scrape(grown.content))
    assert [names[f"units[0].stands[{n}].profile"] for n in range(4, 7)] == ["ogre"] * 3  # copies of the last
    assert len({names[f"units[0].stands[{n}].id"] for n in range(7)}) == 7
    added = client.post(url, to_post(scrape(grown.content), **{"_add": "units", "_template:units": "goblin"}),
                        HTTP_ACCEPT_LANGUAGE="fr")
    body = added.content.decode()
    after = dict(scrape(body))
    assert after["units[1].name"] == "Gobelin 1" and after["units[1].stands[3].profile"] == "goblin"
    # The stand's profile is a pick list of the army's creatures, by name.
    assert '<select name="units[1].stands[0].profile"' in body and ">Gobelin</option>" in body  # in the GM's language
    assert client.post(url, to_post(scrape(body))).status_code == 302
    army.refresh_from_db()
    assert len(army.data["units"]) == 2 and len(army.data["units"]["u1"]["stands"]) == 7


def test_an_unknown_profile_is_refused_in_words_on_its_field_naming_the_unit(campaign_for, gm, client_for, scrape,
                                                                             to_post):
    army = _army(campaign_for, gm, "dnd5e", "Horde orque")
    client = client_for(gm)
    url = f"{army.get_absolute_url()}edit/"
    fields = [(n, "dragon" if n == "units[0].stands[0].profile" else v) for n, v in scrape(client.get(url).content)]
    body = client.post(url, to_post(fields), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    error = body[body.index('id="e-units[0].stands[0].profile"'):][:300]
    assert "Régiment orque" in error and "n’existe pas" in error and "Orc, Ogre, Orc war chief" in error and "Régiment orque › #1 :" in error
    assert 'href="#f-units[0].stands[0].profile">Aller à la première</a>' in body  # from the notice to the field
    english = client.post(url, to_post(fields), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Régiment orque › #1: this profile does not exist; choose among Orc, Ogre" in english
    army.refresh_from_db()
    assert army.version == 1


def test_a_new_army_from_a_template_is_named_and_opens_the_editor(campaign_for, gm, client_for):
    campaign = campaign_for("heros")
    client = client_for(gm)
    page = client.get(f"/campaigns/{campaign.pk}/armies/new/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'value="troops:Bw"' in page and "Archers" in page and 'value="armies:Armée rouge"' in page
    response = client.post(f"/campaigns/{campaign.pk}/armies/new/", {"name": "", "template": "troops:Bw"},
                           HTTP_ACCEPT_LANGUAGE="fr")
    army = campaign.armies.get()
    assert response["Location"] == f"{army.get_absolute_url()}edit/"
    assert army.name == "Archers" and army.data["units"][0]["name"] == "Archers 1"
    again = client.post(f"/campaigns/{campaign.pk}/armies/new/", {"name": ""}, HTTP_ACCEPT_LANGUAGE="fr")
    assert again.status_code == 302 and campaign.armies.filter(name="Armée 1").exists()
    assert campaign.armies.get(name="Armée 1").data["units"][0]["name"] == "Unité 1"
    bad = client.post(f"/campaigns/{campaign.pk}/armies/new/", {"name": "X", "template": "troops:nope"})
    assert bad.status_code == 200 and "This template does not exist" in bad.content.decode()


def test_bad_bulk_input_never_crashes(campaign_for, gm, client_for, scrape, to_post):
    army = _army(campaign_for, gm, "synapse", "Ost d'Hannibal")
    client = client_for(gm)
    url = f"{army.get_absolute_url()}edit/"
    fields = scrape(client.get(url).content)
    for extra in ({"_duplicate": "units[99]"}, {"_move": "nowhere:up"}, {"_undo": "1", "_previous": "[[[{"},
                  {"_add": "units", "_count:units": "lots"}, {"_duplicate": "units[0].headcount"},
                  {"_add": "units", "_template:units": "dragons_of_nowhere", "_count:units": "-4"}):
        assert client.post(url, to_post([f for f in fields if f[0] != "_previous"], **extra)).status_code == 200


def test_paths_and_counts():
    data = {"units": [{"id": "u1", "name": "Archers 1"}]}
    assert editing.duplicate(data, "units[0]", count=2)["units"][2] == {"id": "u3", "name": "Archers 3"}
    assert editing.move(data, "units[0]", -5) == data
    assert editing.count("0") == 1 and editing.count("500") == editing.MAX_ADDED
    assert editing.restore("not json") is None and editing.restore(editing.snapshot(data)) == data


def test_a_new_hero_from_an_srd_creature_and_its_attacks_duplicated(campaign_for, gm, client_for, scrape, to_post):
    campaign = campaign_for("dnd5e")
    client = client_for(gm)
    page = client.get(f"/campaigns/{campaign.pk}/heroes/new/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'value="heroes:roc"' in page and "Géant des collines" in page  # every SRD creature may fight alone
    client.post(f"/campaigns/{campaign.pk}/heroes/new/", {"name": "", "template": "heroes:hill_giant"},
                HTTP_ACCEPT_LANGUAGE="fr")
    hero = campaign.heroes.get()
    assert hero.name == "Géant des collines" and hero.data["name"] == "Géant des collines"
    url = f"{hero.get_absolute_url()}edit/"
    copied = client.post(url, to_post(scrape(client.get(url).content), _duplicate="attacks[0]"))
    posted = dict(scrape(copied.content))
    assert (posted["attacks[0].name"], posted["attacks[1].name"], posted["attacks[2].name"]) == (
        "greatclub", "greatclub 1", "rock")  # the copy right after its original, numbered


def test_the_sheet_lists_refusals_in_words_not_paths(campaign_for, gm, client_for, scrape, to_post):
    army = _army(campaign_for, gm, "dnd5e", "Horde orque")
    client = client_for(gm)
    fields = [(n, "dragon" if n == "units[0].stands[0].profile" else v)
              for n, v in scrape(client.get(f"{army.get_absolute_url()}edit/").content)]
    sheet = client.post(f"{army.get_absolute_url()}preview/", to_post(fields), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Units › Régiment orque › Stands › #1 › Profile" in sheet and "units.u1" not in sheet


def test_a_synapse_characters_unit_is_picked_by_name_from_the_heros_army(campaign_for, gm, client_for):
    army = _army(campaign_for, gm, "synapse", "Ost d'Hannibal")
    hero = services.create_hero(army.campaign, name="Maharbal", user=gm, army=army,
                                data=examples.SYNAPSE_HEROES["Maharbal"])
    body = client_for(gm).get(f"{hero.get_absolute_url()}edit/").content.decode()
    picker = body[body.index('<select name="unit_id"'):][:400]
    assert '<option value="men_at_arms" selected>Hommes d&#x27;armes</option>' in picker and "Paysans" in picker
