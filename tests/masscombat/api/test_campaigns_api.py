"""The campaigns API: what it does, and how it refuses bad input (400, one message per field)."""

import pytest
from rest_framework.authtoken.models import Token

from masscombat.campaigns.models import Campaign, Membership

pytestmark = pytest.mark.django_db


def send(client, method, path, data=None):
    return getattr(client, method)(path, data, content_type="application/json")


def test_create_makes_the_caller_gm(client_for, outsider):
    client = client_for(outsider)
    response = send(client, "post", "/api/campaigns/", {"name": "Siege", "ruleset": "synapse", "description": "x"})
    assert response.status_code == 201
    body = response.json()
    assert body["role"] == "gm" and body["ruleset"] == "synapse"
    assert Membership.objects.get(campaign_id=body["id"], user=outsider).role == "gm"


@pytest.mark.parametrize(
    ("data", "fields"),
    [
        ({}, {"name", "ruleset"}),
        ({"name": "", "ruleset": "dnd5e"}, {"name"}),
        ({"name": "x" * 101, "ruleset": "dnd5e"}, {"name"}),
        ({"name": "Ok", "ruleset": "chess"}, {"ruleset"}),
        ({"name": "Ok", "ruleset": None}, {"ruleset"}),
        ({"name": ["a"], "ruleset": "dnd5e"}, {"name"}),
        ({"name": "Ok", "ruleset": "dnd5e", "description": "d" * 5001}, {"description"}),
    ],
)
def test_create_refuses_bad_input_per_field(client_for, outsider, data, fields):
    response = send(client_for(outsider), "post", "/api/campaigns/", data)
    assert response.status_code == 400
    assert set(response.json()) == fields
    assert all(isinstance(messages, list) and messages for messages in response.json().values())
    assert not Campaign.objects.exists()


def test_malformed_json_is_400(client_for, outsider):
    response = client_for(outsider).post("/api/campaigns/", "{nope", content_type="application/json")
    assert response.status_code == 400
    assert "detail" in response.json()


def test_patch_refuses_bad_ruleset_and_keeps_the_campaign(client_for, gm, campaign):
    response = send(client_for(gm), "patch", f"/api/campaigns/{campaign.pk}/", {"name": "New", "ruleset": "x"})
    assert response.status_code == 400 and set(response.json()) == {"ruleset"}
    campaign.refresh_from_db()
    assert campaign.name == "War of the Ring"


def test_list_shows_only_my_campaigns_with_role(client_for, player, campaign, make_user):
    other = make_user("frodo")
    Campaign.objects.create(name="Elsewhere", ruleset="heros")
    body = client_for(player).get("/api/campaigns/").json()
    assert [(c["name"], c["role"]) for c in body] == [("War of the Ring", "player")]
    assert client_for(other).get("/api/campaigns/").json() == []


def test_members_role_change_and_last_gm_rule(client_for, gm, player, campaign):
    client = client_for(gm)
    path = f"/api/campaigns/{campaign.pk}/members/"
    assert send(client, "patch", f"{path}{player.pk}/", {"role": "boss"}).status_code == 400
    assert send(client, "patch", f"{path}{gm.pk}/", {"role": "player"}).json() == {
        "role": ["A campaign needs a game master: promote someone else first."]
    }
    assert send(client, "patch", f"{path}{player.pk}/", {"role": "gm"}).json()["role"] == "gm"
    assert send(client, "patch", f"{path}{gm.pk}/", {"role": "player"}).status_code == 200
    assert send(client, "get", f"{path}999999/").status_code == 404


def test_a_player_may_leave_but_not_remove_others(client_for, gm, player, campaign):
    client = client_for(player)
    assert client.delete(f"/api/campaigns/{campaign.pk}/members/{gm.pk}/").status_code == 403
    assert client.delete(f"/api/campaigns/{campaign.pk}/members/{player.pk}/").status_code == 204
    assert not campaign.memberships.filter(user=player).exists()


def test_last_gm_cannot_leave(client_for, gm, campaign):
    response = client_for(gm).delete(f"/api/campaigns/{campaign.pk}/members/{gm.pk}/")
    assert response.status_code == 400 and "role" in response.json()


def test_invitation_lifecycle_and_join(client_for, gm, outsider, campaign):
    client = client_for(gm)
    path = f"/api/campaigns/{campaign.pk}/invitation/"
    first = client.get(path).json()
    assert first["url"].endswith(f"/join/{first['code']}/")
    second = client.post(path).json()
    assert second["code"] != first["code"]

    joiner = client_for(outsider)
    stale = send(joiner, "post", "/api/join/", {"code": first["code"]})
    assert stale.status_code == 400 and set(stale.json()) == {"code"}
    joined = send(joiner, "post", "/api/join/", {"code": second["display_code"].lower()})
    assert joined.status_code == 201 and joined.json()["role"] == "player"
    assert send(joiner, "post", "/api/join/", {"code": second["code"]}).status_code == 200

    assert client.delete(path).status_code == 204
    assert client.get(path).status_code == 404
    assert send(joiner, "post", "/api/join/", {"code": second["code"]}).status_code == 400


@pytest.mark.parametrize("data", [{}, {"code": ""}, {"code": "x" * 21}, {"code": 12}])
def test_join_refuses_bad_input(client_for, outsider, data):
    response = send(client_for(outsider), "post", "/api/join/", data)
    assert response.status_code == 400 and set(response.json()) == {"code"}


def test_join_is_rate_limited(client_for, outsider, settings):
    client = client_for(outsider)
    statuses = [send(client, "post", "/api/join/", {"code": "AAAA-AAAA"}).status_code for _ in range(21)]
    assert statuses[:20] == [400] * 20 and statuses[20] == 429


def test_profile_read_and_update(client_for, player):
    client = client_for(player)
    assert client.get("/api/me/").json()["display_name"] == "Pippin"
    response = send(client, "patch", "/api/me/", {"display_name": "Peregrin", "username": "hacker"})
    assert response.status_code == 200 and response.json()["username"] == "pippin"
    assert send(client, "patch", "/api/me/", {"email": "not-an-email"}).json().keys() == {"email"}
    assert send(client, "patch", "/api/me/", {"display_name": "x" * 101}).json().keys() == {"display_name"}


def test_token_authentication(client, player):
    response = client.post("/api/token/", {"username": "pippin", "password": "correct horse battery"})
    assert response.status_code == 200
    key = response.json()["token"]
    assert Token.objects.get(user=player).key == key
    assert client.get("/api/me/", HTTP_AUTHORIZATION=f"Token {key}").json()["username"] == "pippin"
    assert client.get("/api/me/", HTTP_AUTHORIZATION="Token nope").status_code == 401
    bad = client.post("/api/token/", {"username": "pippin"})
    assert bad.status_code == 400 and "password" in bad.json()


def test_openapi_schema_and_docs(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert schema["openapi"].startswith("3.")
    for path in ("/api/campaigns/", "/api/campaigns/{id}/", "/api/campaigns/{campaign_pk}/members/",
                 "/api/campaigns/{campaign_pk}/invitation/", "/api/join/", "/api/me/", "/api/token/",
                 "/api/rules/", "/api/rules/{slug}/ops/", "/api/rules/{slug}/{op}/"):
        assert path in schema["paths"], path
    assert client.get("/api/docs/").status_code == 200
    assert client.get("/api/redoc/").status_code == 200


def test_campaign_list_query_count(client_for, gm, make_user, django_assert_num_queries):
    from masscombat.campaigns import services

    for i in range(5):
        services.create_campaign(gm, name=f"C{i}", ruleset="dnd5e")
    client = client_for(gm)
    # session + user + the campaigns with role and count
    with django_assert_num_queries(3):
        assert len(client.get("/api/campaigns/").json()) == 5
