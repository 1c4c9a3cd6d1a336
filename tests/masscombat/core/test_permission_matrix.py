"""Every page and API endpoint of a campaign, for each kind of caller.

Anonymous visitors are sent to log in (pages) or get 401 (API); outsiders are
told the campaign does not exist (404); players may look but not manage (403);
game masters may do everything.  A new view or endpoint belongs in this table.
"""

import pytest
from django.urls import reverse

from masscombat.campaigns import services
from masscombat.core.permissions import POLICY, Action, Role

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "player", "gm")
LOGIN = "login"  # expected: a redirect to the login page


@pytest.fixture
def world(campaign, gm, player, outsider, make_user):
    """The campaign, an open invitation, and a second player for the GM to act on."""
    target = make_user("merry")
    campaign.memberships.create(user=target, role=Role.PLAYER)
    services.regenerate_invitation(campaign, by=gm)
    return {"campaign": campaign, "target": target, "users": {"anonymous": None, "outsider": outsider, "player": player, "gm": gm}}


def page(name, *, with_target=False):
    def url(world):
        args = [world["campaign"].pk] + ([world["target"].pk] if with_target else [])
        return reverse(name, args=args)

    url.label = name
    return url


def fixed(path):
    def url(world):
        return path

    url.label = path
    return url


CAMPAIGN_EDIT = {"name": "Renamed", "ruleset": "heros", "description": "", "language": "fr"}

# (method, url, data, expected status by role: anonymous, outsider, player, gm)
PAGES = [
    ("get", fixed("/"), None, (200, 200, 200, 200)),
    ("get", fixed("/campaigns/new/"), None, (LOGIN, 200, 200, 200)),
    ("get", fixed("/join/"), None, (LOGIN, 200, 200, 200)),
    ("get", fixed("/accounts/profile/"), None, (LOGIN, 200, 200, 200)),
    ("get", page("campaigns:detail"), None, (LOGIN, 404, 200, 200)),
    ("get", page("campaigns:members"), None, (LOGIN, 404, 200, 200)),
    ("get", page("campaigns:edit"), None, (LOGIN, 404, 403, 200)),
    ("post", page("campaigns:edit"), CAMPAIGN_EDIT, (LOGIN, 404, 403, 302)),
    ("get", page("campaigns:delete"), None, (LOGIN, 404, 403, 200)),
    ("post", page("campaigns:delete"), {}, (LOGIN, 404, 403, 302)),
    ("get", page("campaigns:invitation"), None, (LOGIN, 404, 403, 200)),
    ("get", page("campaigns:invitation-qr"), None, (LOGIN, 404, 403, 200)),
    ("post", page("campaigns:invitation-regenerate"), {}, (LOGIN, 404, 403, 302)),
    ("post", page("campaigns:invitation-revoke"), {}, (LOGIN, 404, 403, 302)),
    ("post", page("campaigns:member-promote", with_target=True), {}, (LOGIN, 404, 403, 302)),
    ("post", page("campaigns:member-remove", with_target=True), {}, (LOGIN, 404, 403, 302)),
    ("post", page("campaigns:leave"), {}, (LOGIN, 404, 302, 302)),
]


def api(path_format):
    def url(world):
        return path_format.format(pk=world["campaign"].pk, target=world["target"].pk)

    url.label = path_format
    return url


API = [
    ("get", fixed("/api/me/"), None, (401, 200, 200, 200)),
    ("get", fixed("/api/campaigns/"), None, (401, 200, 200, 200)),
    ("post", fixed("/api/campaigns/"), {"name": "New", "ruleset": "synapse"}, (401, 201, 201, 201)),
    ("get", api("/api/campaigns/{pk}/"), None, (401, 404, 200, 200)),
    ("patch", api("/api/campaigns/{pk}/"), {"name": "Renamed"}, (401, 404, 403, 200)),
    ("put", api("/api/campaigns/{pk}/"), CAMPAIGN_EDIT, (401, 404, 403, 200)),
    ("delete", api("/api/campaigns/{pk}/"), None, (401, 404, 403, 204)),
    ("get", api("/api/campaigns/{pk}/members/"), None, (401, 404, 200, 200)),
    ("get", api("/api/campaigns/{pk}/members/{target}/"), None, (401, 404, 200, 200)),
    ("patch", api("/api/campaigns/{pk}/members/{target}/"), {"role": "gm"}, (401, 404, 403, 200)),
    ("delete", api("/api/campaigns/{pk}/members/{target}/"), None, (401, 404, 403, 204)),
    ("get", api("/api/campaigns/{pk}/invitation/"), None, (401, 404, 403, 200)),
    ("post", api("/api/campaigns/{pk}/invitation/"), None, (401, 404, 403, 201)),
    ("delete", api("/api/campaigns/{pk}/invitation/"), None, (401, 404, 403, 204)),
    ("post", fixed("/api/join/"), {"code": "NOPE-NOPE"}, (401, 400, 400, 400)),
    ("get", fixed("/api/rules/"), None, (401, 200, 200, 200)),
    ("get", fixed("/api/schema/"), None, (200, 200, 200, 200)),
]


def cases(table):
    return [
        pytest.param(method, url, data, role, status, id=f"{method.upper()} {url.label} as {role}")
        for method, url, data, expected in table
        for role, status in zip(ROLES, expected)
    ]


@pytest.mark.parametrize(("method", "url", "data", "role", "expected"), cases(PAGES))
def test_pages(world, client_for, method, url, data, role, expected):
    client = client_for(world["users"][role])
    path = url(world)
    response = getattr(client, method)(path, data or {})
    if expected == LOGIN:
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code == expected, path


@pytest.mark.parametrize(("method", "url", "data", "role", "expected"), cases(API))
def test_api(world, client_for, method, url, data, role, expected):
    client = client_for(world["users"][role])
    path = url(world)
    kwargs = {"content_type": "application/json"} if method != "get" else {}
    response = getattr(client, method)(path, data or ({} if method == "get" else None), **kwargs)
    assert response.status_code == expected, (path, response.content[:300])


def test_policy_covers_every_action():
    assert set(POLICY) == set(Action)
    for roles in POLICY.values():
        assert Role.OUTSIDER not in roles


def test_the_gm_leaving_alone_is_refused(world, client_for):
    """The last GM's "leave" redirects with a message and changes nothing."""
    client = client_for(world["users"]["gm"])
    response = client.post(reverse("campaigns:leave", args=[world["campaign"].pk]), follow=True)
    assert world["campaign"].memberships.filter(user=world["users"]["gm"], role="gm").exists()
    assert "needs a game master" in response.content.decode()
