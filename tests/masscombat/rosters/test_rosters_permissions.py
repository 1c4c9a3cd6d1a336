"""Who sees and edits which army and hero: pages and API, for every kind of caller.

GM / commanding (or owning) player / another player / another campaign's user / anonymous.
Outsiders get 404 (ids leak nothing), members without the right 403, anonymous
visitors the login page (pages) or 401 (API).
"""

import pytest
from rest_framework.test import APIClient

from masscombat.rosters import examples, services

pytestmark = pytest.mark.django_db

SIDES = ("gm", "player", "other_player", "outsider", None)


@pytest.fixture
def roster(campaign_for, gm, player, other_player, outsider):
    campaign = campaign_for("synapse")
    hannibal = examples.SYNAPSE_ARMIES["Ost d'Hannibal"]
    shown = services.create_army(campaign, name="Shown", user=gm, data=hannibal, commander=player)
    hidden = services.create_army(campaign, name="Hidden", user=gm, data=hannibal, visible_to_players=False)
    mine = services.create_hero(campaign, name="Mine", user=gm, data=examples.SYNAPSE_HEROES["Maharbal"],
                                owner=player, visible_to_players=False)
    theirs = services.create_hero(campaign, name="Theirs", user=gm, data=examples.SYNAPSE_HEROES["Maharbal"],
                                  owner=other_player)
    users = {"gm": gm, "player": player, "other_player": other_player, "outsider": outsider, None: None}
    return {"campaign": campaign, "shown": shown, "hidden": hidden, "mine": mine, "theirs": theirs, "users": users}


def _status(client_for, users, who, method, url, data=None):
    client = client_for(users[who])
    response = client.get(url) if method == "get" else client.post(url, data or {})
    if who is None:
        assert response.status_code == 302 and "/login" in response["Location"]
        return "login"
    return response.status_code


@pytest.mark.parametrize(
    "target,suffix,method,expected",
    [
        ("shown", "", "get", {"gm": 200, "player": 200, "other_player": 200, "outsider": 404}),
        ("shown", "export.json", "get", {"gm": 200, "player": 200, "other_player": 200, "outsider": 404}),
        ("shown", "edit/", "get", {"gm": 200, "player": 403, "other_player": 403, "outsider": 404}),
        ("shown", "preview/", "post", {"gm": 200, "player": 403, "other_player": 403, "outsider": 404}),
        ("hidden", "", "get", {"gm": 200, "player": 404, "other_player": 404, "outsider": 404}),
        ("hidden", "export.json", "get", {"gm": 200, "player": 404, "other_player": 404, "outsider": 404}),
        ("hidden", "edit/", "get", {"gm": 200, "player": 404, "other_player": 404, "outsider": 404}),
        ("mine", "", "get", {"gm": 200, "player": 200, "other_player": 404, "outsider": 404}),
        ("mine", "edit/", "get", {"gm": 200, "player": 200, "other_player": 404, "outsider": 404}),
        ("mine", "preview/", "post", {"gm": 200, "player": 200, "other_player": 404, "outsider": 404}),
        ("theirs", "", "get", {"gm": 200, "player": 200, "other_player": 200, "outsider": 404}),
        ("theirs", "edit/", "get", {"gm": 200, "player": 403, "other_player": 200, "outsider": 404}),
    ],
)
def test_page_matrix(roster, client_for, target, suffix, method, expected):
    url = f"{roster[target].get_absolute_url()}{suffix}"
    for who in SIDES:
        got = _status(client_for, roster["users"], who, method, url)
        assert got == expected.get(who, "login"), (who, url, got)


def test_the_commanding_player_edits_once_the_gm_allows_it(roster, client_for, player, other_player):
    army = roster["shown"]
    army.player_may_edit = True
    army.save()
    assert client_for(player).get(f"{army.get_absolute_url()}edit/").status_code == 200
    assert client_for(other_player).get(f"{army.get_absolute_url()}edit/").status_code == 403
    # The commander edits the army's data, never who commands it or who sees it.
    page = client_for(player).get(f"{army.get_absolute_url()}edit/").content.decode()
    assert 'name="meta-commander"' not in page


@pytest.mark.parametrize("kind", ["armies", "heroes"])
def test_create_and_delete_are_the_gms(roster, client_for, kind):
    campaign = roster["campaign"]
    url = f"/campaigns/{campaign.pk}/{kind}/new/"
    expected = {"gm": 200, "player": 403, "other_player": 403, "outsider": 404}
    for who in SIDES:
        assert _status(client_for, roster["users"], who, "get", url) == expected.get(who, "login"), who
    item = roster["shown"] if kind == "armies" else roster["theirs"]
    delete = f"{item.get_absolute_url()}delete/"
    for who in ("player", "other_player", "outsider"):
        assert _status(client_for, roster["users"], who, "post", delete) in (403, 404)
    assert _status(client_for, roster["users"], None, "post", delete) == "login"
    assert type(item).objects.filter(pk=item.pk).exists()
    assert _status(client_for, roster["users"], "gm", "post", delete) == 302
    assert not type(item).objects.filter(pk=item.pk).exists()


def test_campaign_page_lists_only_what_each_member_may_see(roster, client_for):
    url = roster["campaign"].get_absolute_url()
    gm_page = client_for(roster["users"]["gm"]).get(url).content.decode()
    assert all(name in gm_page for name in ("Shown", "Hidden", "Mine", "Theirs"))
    player_page = client_for(roster["users"]["player"]).get(url).content.decode()
    assert "Shown" in player_page and "Mine" in player_page and "Theirs" in player_page and "Hidden" not in player_page
    other_page = client_for(roster["users"]["other_player"]).get(url).content.decode()
    assert "Shown" in other_page and "Theirs" in other_page and "Mine" not in other_page and "Hidden" not in other_page


def _api(user):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.mark.parametrize("kind,names", [
    ("armies", {"gm": ["Hidden", "Shown"], "player": ["Shown"], "other_player": ["Shown"]}),
    ("heroes", {"gm": ["Mine", "Theirs"], "player": ["Mine", "Theirs"], "other_player": ["Theirs"]}),
])
def test_api_lists(roster, kind, names):
    url = f"/api/campaigns/{roster['campaign'].pk}/{kind}/"
    for who in SIDES:
        response = _api(roster["users"][who]).get(url)
        if who is None:
            assert response.status_code == 401
        elif who == "outsider":
            assert response.status_code == 404
        else:
            assert sorted(item["name"] for item in response.json()) == names[who], who


@pytest.mark.parametrize("target,suffix,expected", [
    ("shown", "", {"gm": 200, "player": 200, "other_player": 200, "outsider": 404, None: 401}),
    ("shown", "sheet/", {"gm": 200, "player": 200, "other_player": 200, "outsider": 404, None: 401}),
    ("hidden", "", {"gm": 200, "player": 404, "other_player": 404, "outsider": 404, None: 401}),
    ("hidden", "sheet/", {"gm": 200, "player": 404, "other_player": 404, "outsider": 404, None: 401}),
    ("hidden", "history/", {"gm": 200, "player": 404, "other_player": 404, "outsider": 404, None: 401}),
    ("hidden", "export/", {"gm": 200, "player": 404, "other_player": 404, "outsider": 404, None: 401}),
    ("mine", "", {"gm": 200, "player": 200, "other_player": 404, "outsider": 404, None: 401}),
])
def test_api_read_matrix(roster, target, suffix, expected):
    item = roster[target]
    kind = "armies" if target in ("shown", "hidden") else "heroes"
    url = f"/api/campaigns/{roster['campaign'].pk}/{kind}/{item.pk}/{suffix}"
    for who in SIDES:
        assert _api(roster["users"][who]).get(url).status_code == expected[who], who


def test_api_write_matrix(roster, player, other_player):
    campaign, army, hero = roster["campaign"], roster["shown"], roster["mine"]
    army_url = f"/api/campaigns/{campaign.pk}/armies/{army.pk}/"
    data = {"data": army.data, "version": 1}
    assert _api(player).patch(army_url, data, format="json").status_code == 403  # not allowed yet
    assert _api(other_player).patch(army_url, data, format="json").status_code == 403
    assert _api(roster["users"]["outsider"]).patch(army_url, data, format="json").status_code == 404
    assert _api(None).patch(army_url, data, format="json").status_code == 401
    army.player_may_edit = True
    army.save()
    assert _api(player).patch(army_url, data, format="json").status_code == 200
    assert _api(player).patch(army_url, {"visible_to_players": False}, format="json").status_code == 403
    assert _api(other_player).patch(army_url, {"data": army.data, "version": 2}, format="json").status_code == 403
    hero_url = f"/api/campaigns/{campaign.pk}/heroes/{hero.pk}/"
    assert _api(player).patch(hero_url, {"data": hero.data, "version": 1}, format="json").status_code == 200
    assert _api(player).patch(hero_url, {"owner": other_player.pk}, format="json").status_code == 403
    assert _api(other_player).patch(hero_url, {"data": hero.data, "version": 2}, format="json").status_code == 404
    for who, code in (("player", 403), ("other_player", 403), ("outsider", 404)):
        assert _api(roster["users"][who]).post(f"/api/campaigns/{campaign.pk}/armies/", {"name": "X"},
                                               format="json").status_code == code
        assert _api(roster["users"][who]).delete(army_url).status_code == code
    assert _api(roster["users"]["gm"]).delete(army_url).status_code == 204
