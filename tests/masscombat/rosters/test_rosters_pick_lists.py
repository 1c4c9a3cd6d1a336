"""References are picked by name, never typed as ids: players, armies, characters, attacks, corps."""

import copy
import re

import pytest

from masscombat.rosters import examples, services

pytestmark = pytest.mark.django_db


def _options(page: str, name: str) -> list[tuple[str, str]]:
    select = re.search(rf'<select name="{re.escape(name)}"[^>]*>(.*?)</select>', page, re.DOTALL)
    assert select, f"{name} is not a pick list"
    return re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select.group(1))


def test_dnd5e_multiattack_is_a_count_per_attack_and_reads_back(campaign_for, gm, client_for, scrape, to_post):
    data = copy.deepcopy(examples.DND5E_HEROES["Chef de guerre orque"])
    data["multiattack"] = ["greataxe", "greataxe"]
    hero = services.create_hero(campaign_for("dnd5e"), name="Chef", user=gm, data=data)
    client = client_for(gm)
    url = f"{hero.get_absolute_url()}edit/"
    page = client.get(url).content.decode()
    assert "<textarea" not in page  # no raw JSON box
    fields = dict(scrape(page))
    assert fields["multiattack.__tally.greataxe"] == "2"
    posted = [(n, "3" if n == "multiattack.__tally.greataxe" else v) for n, v in scrape(page)]
    assert client.post(url, to_post(posted)).status_code == 302
    hero.refresh_from_db()
    assert hero.data["multiattack"] == ["greataxe"] * 3
    posted = [(n, "0" if n == "multiattack.__tally.greataxe" else v) for n, v in scrape(client.get(url).content)]
    client.post(url, to_post(posted, _version=str(hero.version)))
    hero.refresh_from_db()
    assert "multiattack" not in hero.data  # no attack counted: one attack per action, the engine's default


def test_a_new_dnd5e_profile_is_named_never_x1(campaign_for, gm, client_for, scrape, to_post):
    army = services.create_army(campaign_for("dnd5e"), name="Horde", user=gm,
                                data=copy.deepcopy(examples.DND5E_ARMIES["Horde orque"]))
    client = client_for(gm)
    url = f"{army.get_absolute_url()}edit/"
    grown = client.post(url, to_post(scrape(client.get(url).content), _add="profiles"), HTTP_ACCEPT_LANGUAGE="fr")
    page = grown.content.decode()
    fields = dict(scrape(page))
    assert fields["profiles[3].__key"] == "p1" and fields["profiles[3].name"] == "Orc war chief 1"  # a copy
    # Values and the page's CSRF header (random letters, which may hold "x1") are not what a reader sees.
    assert "x1" not in re.sub(r'value="[^"]*"|hx-headers=\'[^\']*\'', "", page)


def test_heros_corps_and_generals_are_named_by_words(campaign_for, gm, client_for):
    data = copy.deepcopy(examples.HEROS_ARMIES["Armée rouge"])
    for corps in data["corps"]:
        corps.pop("name")
    army = services.create_army(campaign_for("heros"), name="Rouge", user=gm, data=data)
    page = client_for(gm).get(f"{army.get_absolute_url()}edit/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert ("c1", "Corps 1") in _options(page, "units[0].corps_id")
    assert "· cinc" not in page


def test_heros_player_and_captives_are_picked_from_the_campaign(campaign_for, gm, player, client_for):
    campaign = campaign_for("heros")
    army = services.create_army(campaign, name="Rouge", user=gm, data=copy.deepcopy(examples.HEROS_ARMIES["Armée rouge"]))
    enemy = copy.deepcopy(examples.HEROS_ARMIES["Armée rouge"])
    enemy["side_id"] = "blue"
    enemy["characters"][1]["name"] = "Sire Bleu"
    services.create_army(campaign, name="Bleue", user=gm, data=enemy)
    army.data = {**army.data, "captives_held": [{"character_id": "g2", "role": "sub_general"}]}
    army.save()
    page = client_for(gm).get(f"{army.get_absolute_url()}edit/").content.decode()
    assert (f"user-{player.pk}", player.shown_name) in _options(page, "characters[0].player_id")
    assert ("g2", "Sire Bleu (Bleue)") in _options(page, "captives_held[0].character_id")


def test_fields_the_battle_fills_in_are_not_typed(campaign_for, gm, client_for):
    """A hero's player comes from its settings, a JdRWiki hero's corps from its army: the editor hides them."""
    for slug, name, field in (("seventh_sea", "Lucie", "player"), ("jdrwiki", "Ildar Adeldiral", "corps_id")):
        hero = services.create_hero(campaign_for(slug), name=name, user=gm, data=examples.HEROES[slug][name])
        page = client_for(gm).get(f"{hero.get_absolute_url()}edit/").content.decode()
        assert f'type="hidden" name="{field}"' in page or f'name="{field}"' not in page, slug


def test_a_jdrwiki_hero_picks_its_army_by_name(campaign_for, gm, client_for):
    campaign = campaign_for("jdrwiki")
    army = services.create_army(campaign, name="Ost de Loreval", user=gm, data=examples.JDRWIKI_ARMIES["Ost de Loreval"])
    hero = services.create_hero(campaign, name="Ildar", user=gm, data=examples.JDRWIKI_HEROES["Ildar Adeldiral"])
    hero.army = army
    hero.save()
    page = client_for(gm).get(f"{hero.get_absolute_url()}edit/").content.decode()
    assert ("north", "Ost de Loreval") in _options(page, "army_id")


def test_a_blank_dnd5e_profile_gets_a_readable_name_and_a_hidden_id():
    from django.http import QueryDict
    from django.utils import translation

    from masscombat.rosters import adapters, schema_forms

    schema = adapters.get("dnd5e").army.schema()
    with translation.override("fr"):
        data = schema_forms.read(schema, QueryDict("name=Horde"), add="profiles")
    assert data["profiles"] == {"p1": {**data["profiles"]["p1"], "name": "Créature 1"}}
