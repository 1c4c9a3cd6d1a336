"""The map editor speaks the GM's language: every field has help, zones and objectives have names, ids stay hidden."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from masscombat.maps import field_help, services
from masscombat.maps.kinds import KIND_OF_RULESET, vocabulary
from masscombat.maps.render import legend, render_map_svg
from masscombat.maps.validation import MapInvalid, clean_map

pytestmark = pytest.mark.django_db

# The editor's own fields besides the engine's terms (terrains, flags, levels).
FIXED = {"square": {"name", "width", "height", "pan", "objective", "hp_max", "vp", "ac"},
         "hex": {"name", "width", "height", "pan", "feature"},
         "zones": {"name", "width", "height", "select", "add", "link", "move", "pan", "zone_name"}}


@pytest.mark.parametrize("kind", sorted(FIXED))
def test_every_field_of_the_editor_has_help_in_both_languages(kind):
    vocab = vocabulary(kind)
    fields = FIXED[kind] | set(vocab["terrains"]) | set(vocab["flags"]) | set(vocab["levels"])
    helps = field_help.for_kind(kind)
    missing = {name for name in fields if not {"en", "fr"} <= set(getattr(helps.get(name), "texts", {}))}
    assert missing == set()


@pytest.mark.parametrize("ruleset", sorted(KIND_OF_RULESET))
def test_the_editor_ties_each_help_to_its_control(client_for, gm, campaign_of, ruleset):
    campaign = campaign_of(ruleset)
    battle_map = services.create_map(campaign, name="Carte")
    client = client_for(gm)
    client.cookies["django_language"] = "fr"
    page = client.get(reverse("maps:edit", args=[campaign.pk, battle_map.pk]), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    described = set(re.findall(r'aria-describedby="(mh-[^"]+)"', page))
    helped = set(re.findall(r'id="(mh-[^"]+)"', page))
    assert described and described <= helped, described - helped
    assert "Largeur" in page and "Règle" in page


def test_a_new_zone_map_names_its_first_zone_in_the_gms_language(campaign_of):
    with translation.override("fr"):
        battle_map = services.create_map(campaign_of("jdrwiki"), name="Vallée")
    assert [zone["name"] for zone in battle_map.data["zones"].values()] == ["Zone 1"]


def test_an_unnamed_zone_is_saved_and_drawn_by_its_number_never_its_id(campaign_of):
    zones = {"z1": {"name": "Le gué", "at": [0, 0], "neighbors": ["z3"]}, "z3": {"name": "", "at": [1, 0]}}
    with translation.override("fr"):
        cleaned = clean_map("zones", 3, 2, {"zones": zones})
        assert cleaned["zones"]["z3"]["name"] == "Zone 1"
        svg = render_map_svg({"kind": "zones", "width": 3, "height": 2, "data": {"zones": zones}})
    names = re.findall(r'<text class="zone-name"[^>]*>([^<]*)</text>', svg)
    assert names == ["Le gué", "Zone 1"]
    assert "z3" not in re.sub(r'data-c="[^"]*"', "", svg)


def test_objectives_are_called_by_their_rank_on_the_map_and_in_errors(campaign_of):
    data = {"objective_squares": {"o1": {"at": [1, 1], "hp_max": 40, "vp": 2}, "o2": {"at": [9, 9], "hp_max": 40,
                                                                                    "vp": 2}}}
    with translation.override("fr"):
        svg = render_map_svg({"kind": "square", "width": 12, "height": 12, "data": data})
        assert re.findall(r"<title>(Objectif \d)", svg) == ["Objectif 1", "Objectif 2"]
        assert not re.search(r"<title>o\d", svg)
        with pytest.raises(MapInvalid) as invalid:
            clean_map("square", 5, 5, data)
    assert invalid.value.fields == {"objective_squares.o2.at": "Objectif 2 : Hors de la carte."}
    assert all("o1" not in text and "o2" not in text for _css, text in legend({"kind": "square", "width": 12,
                                                                                "height": 12, "data": data}))


def test_errors_name_the_zone_and_the_field(campaign_of):
    zones = {"z1": {"name": "Le gué", "at": [0, 0], "neighbors": ["z1"]}}
    with translation.override("fr"), pytest.raises(MapInvalid) as invalid:
        clean_map("zones", 0, 2, {"zones": zones})
    assert invalid.value.fields == {"width": "Largeur : Doit être compris entre 1 et 12."}
    with translation.override("fr"), pytest.raises(MapInvalid) as invalid:
        clean_map("zones", 3, 2, {"zones": zones})
    assert invalid.value.fields == {"zones.z1.neighbors": "Le gué : Une zone ne peut pas être sa propre voisine."}
