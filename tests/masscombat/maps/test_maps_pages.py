"""Map pages and the editor's JSON endpoints: who may do what, what they answer, in how many queries."""

import json

import pytest
from django.urls import reverse

from masscombat.maps.models import BattleMap

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "player", "gm")
LOGIN = "login"


@pytest.fixture
def users(gm, player, outsider):
    return {"anonymous": None, "outsider": outsider, "player": player, "gm": gm}


def _save_body(battle_map, **changes):
    body = {"version": battle_map.version, "name": battle_map.name, "width": battle_map.width,
            "height": battle_map.height, "data": battle_map.data}
    body.update(changes)
    return json.dumps(body)


# (method, url name, body, expected status: anonymous, outsider, player, gm)
MATRIX = [
    ("get", "maps:detail", None, (LOGIN, 404, 200, 200)),
    ("get", "maps:export", None, (LOGIN, 404, 200, 200)),
    ("get", "maps:edit", None, (LOGIN, 404, 403, 200)),
    ("post", "maps:preview", "same", (LOGIN, 404, 403, 200)),
    ("post", "maps:save", "same", (LOGIN, 404, 403, 200)),
    ("post", "maps:duplicate", None, (LOGIN, 404, 403, 302)),
    ("post", "maps:visibility", None, (LOGIN, 404, 403, 302)),
    ("get", "maps:delete", None, (LOGIN, 404, 403, 200)),
    ("post", "maps:delete", None, (LOGIN, 404, 403, 302)),
]
CAMPAIGN_MATRIX = [
    ("get", "maps:create", (LOGIN, 404, 403, 200)),
    ("get", "maps:import", (LOGIN, 404, 403, 200)),
]


@pytest.mark.parametrize("role_index,role", list(enumerate(ROLES)))
@pytest.mark.parametrize(("method", "name", "body", "expected"), MATRIX, ids=[f"{m} {n}" for m, n, _b, _e in MATRIX])
def test_map_permission_matrix(client_for, users, square_map, role_index, role, method, name, body, expected):
    client = client_for(users[role])
    url = reverse(name, args=[square_map.campaign_id, square_map.pk])
    if method == "get":
        response = client.get(url)
    elif body == "same":
        response = client.post(url, _save_body(square_map), content_type="application/json")
    else:
        response = client.post(url)
    want = expected[role_index]
    if want == LOGIN:
        assert response.status_code == 302 and "/login" in response["Location"]
    else:
        assert response.status_code == want


@pytest.mark.parametrize("role_index,role", list(enumerate(ROLES)))
@pytest.mark.parametrize(("method", "name", "expected"), CAMPAIGN_MATRIX)
def test_campaign_map_pages_matrix(client_for, users, campaign, role_index, role, method, name, expected):
    response = client_for(users[role]).get(reverse(name, args=[campaign.pk]))
    want = expected[role_index]
    if want == LOGIN:
        assert response.status_code == 302
    else:
        assert response.status_code == want


def test_a_map_of_another_campaign_is_not_found(client_for, gm, square_map, campaign_of):
    other = campaign_of("dnd5e")
    response = client_for(gm).get(reverse("maps:detail", args=[other.pk, square_map.pk]))
    assert response.status_code == 404


def test_gm_creates_a_map_and_lands_in_the_editor(client_for, gm, campaign):
    response = client_for(gm).post(reverse("maps:create", args=[campaign.pk]),
                                   {"name": "Bridge", "width": 12, "height": 9})
    made = BattleMap.objects.get(campaign=campaign)
    assert response.status_code == 302 and response["Location"] == reverse("maps:edit", args=[campaign.pk, made.pk])
    assert (made.kind, made.width, made.height, made.data["cells"]) == ("square", 12, 9, [])


def test_create_form_says_what_is_wrong(client_for, gm, campaign):
    response = client_for(gm).post(reverse("maps:create", args=[campaign.pk]), {"name": "", "width": 500, "height": 9})
    assert response.status_code == 200
    assert set(response.context["form"].errors) == {"name", "width"}
    assert not BattleMap.objects.exists()


def test_no_map_pages_for_a_game_without_maps(client_for, gm, campaign_of):
    synapse = campaign_of("synapse")
    assert client_for(gm).get(reverse("maps:create", args=[synapse.pk])).status_code == 404
    page = client_for(gm).get(reverse("campaigns:detail", args=[synapse.pk]))
    assert "not played on a map" in page.content.decode()


def test_save_answers_per_field_errors_and_conflicts(client_for, gm, square_map):
    client = client_for(gm)
    url = reverse("maps:save", args=[square_map.campaign_id, square_map.pk])
    bad = client.post(url, _save_body(square_map, data={"cells": [{"at": [0, 0], "terrain": "lava"}]}),
                      content_type="application/json")
    assert bad.status_code == 400 and "cells[0].terrain" in bad.json()["fields"]
    ok = client.post(url, _save_body(square_map, name="Renamed"), content_type="application/json")
    assert ok.status_code == 200 and ok.json()["version"] == 2
    stale = client.post(url, _save_body(square_map, name="Third"), content_type="application/json")
    assert stale.status_code == 409 and stale.json()["version"] == 2
    garbage = client.post(url, "{not json", content_type="application/json")
    assert garbage.status_code == 400 and "error" in garbage.json()
    square_map.refresh_from_db()
    assert (square_map.name, square_map.version) == ("Renamed", 2)


def test_preview_draws_without_saving(client_for, gm, zones_map):
    url = reverse("maps:preview", args=[zones_map.campaign_id, zones_map.pk])
    data = json.loads(json.dumps(zones_map.data))
    data["zones"]["camp"] = {"name": "Camp", "neighbors": ["ford"], "at": [2, 0]}
    answer = client_for(gm).post(url, _save_body(zones_map, data=data), content_type="application/json")
    assert answer.status_code == 200
    assert 'data-c="camp"' in answer.json()["svg"] and "slot:" in answer.json()["svg"]
    assert answer.json()["data"]["zones"]["ford"]["neighbors"] == ["camp", "hill"]
    zones_map.refresh_from_db()
    assert "camp" not in zones_map.data["zones"]


def test_export_then_import_through_the_pages(client_for, gm, square_map):
    client = client_for(gm)
    exported = client.get(reverse("maps:export", args=[square_map.campaign_id, square_map.pk]))
    assert exported["Content-Disposition"].startswith("attachment")
    response = client.post(reverse("maps:import", args=[square_map.campaign_id]), {"text": exported.content.decode()})
    assert response.status_code == 302
    assert BattleMap.objects.filter(campaign_id=square_map.campaign_id).count() == 2
    refused = client.post(reverse("maps:import", args=[square_map.campaign_id]), {"text": "[1, 2"})
    assert refused.status_code == 200 and refused.context["form"].non_field_errors()


def test_detail_page_draws_the_map_with_its_legend(client_for, player, square_map):
    page = client_for(player).get(square_map.get_absolute_url()).content.decode()
    assert 'class="battle-map kind-square"' in page and 'data-c="1,1"' in page
    assert "Forest" in page and "Objective square" in page
    assert reverse("maps:edit", args=[square_map.campaign_id, square_map.pk]) not in page


def test_french_labels(client_for, gm, square_map):
    client = client_for(gm)
    client.cookies["django_language"] = "fr"
    page = client.get(square_map.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Forêt" in page


def test_campaign_page_lists_maps_in_flat_queries(client_for, gm, campaign, square_map, django_assert_max_num_queries):
    from masscombat.maps import services

    client = client_for(gm)
    client.get(campaign.get_absolute_url())  # warm the session
    with django_assert_max_num_queries(40) as few:
        first = client.get(campaign.get_absolute_url())
    for index in range(6):
        services.create_map(campaign, name=f"Map {index}")
    with django_assert_max_num_queries(len(few.captured_queries)):
        many = client.get(campaign.get_absolute_url())
    assert "The ford" in first.content.decode() and "Map 5" in many.content.decode()


def test_map_page_queries_do_not_grow_with_the_map(client_for, gm, campaign, django_assert_num_queries):
    from masscombat.maps import services

    small = services.create_map(campaign, name="Small", width=4, height=4)
    big = services.create_map(campaign, name="Big", width=40, height=30,
                              data={"cells": [{"at": [x, y], "terrain": "forest"} for x in range(40) for y in range(30)]})
    client = client_for(gm)
    client.get(small.get_absolute_url())
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as small_queries:
        client.get(small.get_absolute_url())
    with django_assert_num_queries(len(small_queries.captured_queries)):
        client.get(big.get_absolute_url())


@pytest.mark.parametrize(("role", "status"), [("anonymous", 302), ("outsider", 404), ("player", 200), ("gm", 200)])
def test_maps_section_fragment(client_for, users, square_map, role, status):
    response = client_for(users[role]).get(reverse("maps:section", args=[square_map.campaign_id]))
    assert response.status_code == status
    if status == 200:
        assert "The ford" in response.content.decode() and "<html" not in response.content.decode()
        assert ("New map" in response.content.decode()) == (role == "gm")


def test_a_hidden_map_does_not_exist_for_players(client_for, gm, player, square_map):
    from rest_framework.test import APIClient

    gm_client = client_for(gm)
    hidden = gm_client.post(reverse("maps:visibility", args=[square_map.campaign_id, square_map.pk]), {"visible": "0"})
    assert hidden.status_code == 302
    square_map.refresh_from_db()
    assert not square_map.visible_to_players
    players = client_for(player)
    for name in ("maps:detail", "maps:export"):
        assert players.get(reverse(name, args=[square_map.campaign_id, square_map.pk])).status_code == 404
    assert "The ford" not in players.get(reverse("maps:section", args=[square_map.campaign_id])).content.decode()
    assert "hidden from the players" in gm_client.get(reverse("maps:section", args=[square_map.campaign_id])).content.decode()
    api = APIClient()
    api.force_authenticate(player)
    base = f"/api/campaigns/{square_map.campaign_id}/maps/"
    assert api.get(base).json() == []
    assert api.get(f"{base}{square_map.pk}/").status_code == 404
    assert api.get(f"{base}{square_map.pk}/svg/").status_code == 404
    gm_client.post(reverse("maps:visibility", args=[square_map.campaign_id, square_map.pk]), {"visible": "1"})
    assert players.get(square_map.get_absolute_url()).status_code == 200


def test_api_toggles_visibility_without_a_version(client_for, gm, square_map):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(gm)
    url = f"/api/campaigns/{square_map.campaign_id}/maps/{square_map.pk}/"
    answer = api.patch(url, {"visible_to_players": False}, format="json")
    assert answer.status_code == 200 and answer.json()["visible_to_players"] is False
    assert answer.json()["version"] == 1


def test_map_page_says_in_words_what_the_drawing_shows(client_for, player, square_map, zones_map):
    square_page = client_for(player).get(square_map.get_absolute_url()).content.decode()
    assert "bridge" in square_page and "40 hit points" in square_page and "3 victory points" in square_page
    zones_page = client_for(player).get(zones_map.get_absolute_url()).content.decode()
    assert "Grey hill" in zones_page and "Heights 2" in zones_page and "The ford, Old woods" in zones_page
