"""Roster pages read in French hold no English and no id (issue #18, the French crawl's roster findings).

Every ruleset's worked-example armies and heroes (the demo's) and its first army and hero templates, their
sheet and their editor, read in French: no id of their data, no snake_case engine word, no English fragment
of the catalogues (the French crawl's own list, derived from the engines' and the project's catalogues).
"""

import html
import re
from functools import cache

import pytest
from django.utils import translation

from masscombat.rosters import examples, presets, services
from tests.masscombat.browser import french_crawl_lists as lists

pytestmark = pytest.mark.django_db

# Words both languages share that the derived list still counts as English here: a game term (ArE, 7th Sea's
# Incitation), a French word spelt as in English (Absorption), the language switch, which speaks each language.
SHARED = {"are", "incitation", "absorption", "use this language"}


@cache
def _english():
    return lists.english_list().pattern()


def _text(page: str) -> str:
    page = re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]*lang=\"en\"[^>]*>[^<]*", " ", page, flags=re.DOTALL)
    attributes = re.findall(r'(?:title|aria-label|placeholder)="([^"]*)"', page)
    return html.unescape(re.sub(r"<[^>]+>", " ", page) + " " + " ".join(attributes))


def _ids(data) -> set[str]:
    found = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if (key == "id" or key.endswith("_id")) and isinstance(value, str) and len(value) > 1:
                found.add(value)
            if key in ("units", "profiles") and isinstance(value, dict):
                found |= set(value)
            found |= _ids(value)
    elif isinstance(data, list):
        for item in data:
            found |= _ids(item)
    return found


@pytest.mark.parametrize("slug", ["synapse", "jdrwiki", "heros", "dnd5e", "seventh_sea"])
def test_roster_pages_read_in_french(slug, campaign_for, gm, client_for):
    campaign = campaign_for(slug)
    campaign.name = "Première campagne"
    campaign.save()
    client = client_for(gm)
    items = []
    with translation.override("fr"):
        army = presets.templates(slug, "armies")[0]
        hero = presets.templates(slug, "heroes")[0]
        items.append(services.create_army(campaign, name="Ost du Nord", user=gm,
                                          data=presets.start(slug, "army", "armies", army.key, "Ost du Nord")))
        items.append(services.create_hero(campaign, name="Héros", user=gm,
                                          data=presets.start(slug, "hero", "heroes", hero.key, "Héros")))
    items += [services.create_army(campaign, name=f"Exemple {n}", user=gm, data=data)
              for n, data in enumerate(examples.ARMIES[slug].values())]
    items += [services.create_hero(campaign, name=f"Héros {n}", user=gm, data=data)
              for n, data in enumerate(examples.HEROES[slug].values())]
    findings = []
    for item in items:
        ids = _ids(item.data) - {"champion", "magician"}  # template ids that are French words too
        for suffix in ("", "edit/"):
            text = _text(client.get(f"{item.get_absolute_url()}{suffix}", HTTP_ACCEPT_LANGUAGE="fr").content.decode())
            found = {m.group(0).lower() for m in _english().finditer(text)} - SHARED
            found |= {m.group(0) for m in lists.SNAKE.finditer(text)}
            found |= {ident for ident in ids if re.search(rf"(?<![\w-]){re.escape(ident)}(?![\w-])", text)}
            findings += [(item.name, suffix, word) for word in sorted(found)]
    assert findings == []


def test_a_battle_written_to_the_roster_reads_in_french_in_its_history():
    """The kind the confirmed aftermath writes (``battle``) is named as the older ``aftermath`` was."""
    from masscombat.rosters.templatetags.rosters import change_kind

    with translation.override("fr"):
        assert change_kind("battle") == "suites de la bataille"
        assert change_kind("aftermath") == "suites de la bataille"
