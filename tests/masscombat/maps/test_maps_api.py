"""The maps REST API: the same permissions and checks as the pages."""

import pytest
from rest_framework.test import APIClient

from masscombat.maps.models import BattleMap

pytestmark = pytest.mark.django_db


@pytest.fixture
def api_for(gm, player, outsider):
    def make(role):
        client = APIClient()
        user = {"gm": gm, "player": player, "outsider": outsider, "anonymous": None}[role]
        if user is not None:
            client.force_authenticate(user)
        return client

    return make


def _url(battle_map, suffix=""):
    return f"/api/campaigns/{battle_map.campaign_id}/maps/{battle_map.pk}/{suffix}"


@pytest.mark.parametrize(
    ("role", "read", "write"),
    [("anonymous", 401, 401), ("outsider", 404, 404), ("player", 200, 403), ("gm", 200, 200)],
)
def test_api_permission_matrix(api_for, square_map, role, read, write):
    client = api_for(role)
    assert client.get(f"/api/campaigns/{square_map.campaign_id}/maps/").status_code == read
    assert client.get(_url(square_map)).status_code == read
    assert client.get(_url(square_map, "svg/")).status_code == read
    assert client.patch(_url(square_map), {"name": "X", "version": 1}, format="json").status_code == write
    created = client.post(f"/api/campaigns/{square_map.campaign_id}/maps/", {"name": "New"}, format="json")
    assert created.status_code == (201 if write == 200 else write)
    assert client.delete(_url(square_map)).status_code == (204 if write == 200 else write)


def test_create_save_conflict_and_errors(api_for, campaign):
    client = api_for("gm")
    base = f"/api/campaigns/{campaign.pk}/maps/"
    made = client.post(base, {"name": "Ford", "width": 10, "height": 8,
                              "data": {"cells": [{"at": [1, 1], "terrain": "forest"}]}}, format="json")
    assert made.status_code == 201 and made.json()["kind"] == "square" and made.json()["version"] == 1
    url = f"{base}{made.json()['id']}/"
    bad = client.patch(url, {"version": 1, "data": {"cells": [{"at": [1, 1], "terrain": "lava"}]}}, format="json")
    assert bad.status_code == 400 and "cells[0].terrain" in bad.json()
    assert client.patch(url, {"name": "No version"}, format="json").status_code == 400
    assert client.patch(url, {"version": 1, "width": 12}, format="json").json()["version"] == 2
    assert client.patch(url, {"version": 1, "width": 14}, format="json").status_code == 409
    too_big = client.post(base, {"name": "Huge", "width": 500}, format="json")
    assert too_big.status_code == 400 and "width" in too_big.json()
    assert BattleMap.objects.get(pk=made.json()["id"]).width == 12


def test_svg_is_the_rendered_map(api_for, hex_map):
    answer = api_for("player").get(_url(hex_map, "svg/"))
    assert answer["Content-Type"] == "image/svg+xml" and b'class="battle-map kind-hex"' in answer.content


def test_schema_documents_the_maps(api_for):
    schema = api_for("gm").get("/api/schema/?format=json").json()
    assert "/api/campaigns/{campaign_pk}/maps/{id}/" in schema["paths"]
