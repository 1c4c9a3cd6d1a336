"""Every URL pattern and websocket route, for each kind of caller.

The test walks the project's URL resolver and websocket routes and requires an
entry in :data:`MATRIX` (or :data:`SOCKETS`) for each: a new view that nobody
thought about fails here until its expected access is written down.  Callers:
anonymous, an outsider (GM of another campaign), the player of the other side
(side B), the player of the side (side A: commands its army, owns its hero)
and the GM.  Refused POSTs are sent with empty data: a refusal must come
before any form is read.
"""

from dataclasses import dataclass, field

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from masscombat.battles import spectators
from masscombat.routing import websocket_urlpatterns

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "other_side", "player", "gm")
LOGIN = "login"  # a redirect to the login page
ADMIN_LOGIN = "admin-login"


@dataclass
class Entry:
    """How to build a URL's arguments, and the expected status per role for each method."""

    args: object = None  # world -> kwargs
    get: tuple | None = None
    post: tuple | None = None
    data: dict = field(default_factory=dict)


def sea(world):
    return {"pk": world["sea"].pk}


def army(world):
    return {"pk": world["sea"].pk, "item_id": world["army"].pk}


def hero(world):
    return {"pk": world["sea"].pk, "item_id": world["hero"].pk}


def member(world):
    return {"pk": world["sea"].pk, "user_id": world["target"].pk}


def battle(world):
    return {"pk": world["battle"].pk}


def a_map(world):
    return {"pk": world["zones"].pk, "map_id": world["map"].pk}


def api_sea(world):
    return {"campaign_pk": world["sea"].pk}


def api_army(world):
    return {"campaign_pk": world["sea"].pk, "pk": world["army"].pk}


def api_hero(world):
    return {"campaign_pk": world["sea"].pk, "pk": world["hero"].pk}


def api_battle(world):
    return {"campaign_pk": world["sea"].pk, "pk": world["battle"].pk}


def watch_token(world):
    """The battle's watch link, made for the test as its GM would."""
    return spectators.create_link(world["users"]["gm"], world["battle"].pk).token


def players_device(world):
    """A push subscription of side A's player: only they may forget it."""
    from masscombat.notifications.models import PushSubscription

    device = PushSubscription.objects.create(user=world["users"]["player"], endpoint="https://push.example/a",
                                             p256dh="key", auth="secret")
    return {"pk": device.pk}


L, AL = LOGIN, ADMIN_LOGIN
OPEN = (200, 200, 200, 200, 200)
SIGNED_IN = (L, 200, 200, 200, 200)
MEMBERS = (L, 404, 200, 200, 200)
GM_ONLY = (L, 404, 403, 403, 200)
GM_POST = (L, 404, 403, 403, 302)
API_OPEN = (401, 200, 200, 200, 200)
API_MEMBERS = (401, 404, 200, 200, 200)
API_GM = (401, 404, 403, 403, 200)

MATRIX: dict[str, Entry] = {
    # Public and account pages.
    "home": Entry(get=OPEN),
    "login": Entry(get=OPEN),
    "logout": Entry(get=(405,) * 5, post=(302,) * 5),
    "accounts:signup": Entry(get=(200, 302, 302, 302, 302)),
    "accounts:profile": Entry(get=SIGNED_IN),
    # Keeping a guest seat as an account: a member has no seat to keep (back to the profile).
    "accounts:keep-seat": Entry(get=(L, 302, 302, 302, 302), post=(L, 302, 302, 302, 302)),
    "password_change": Entry(get=SIGNED_IN),
    "password_change_done": Entry(get=SIGNED_IN),
    "password_reset": Entry(get=OPEN),
    "password_reset_done": Entry(get=OPEN),
    "password_reset_confirm": Entry(args=lambda w: {"uidb64": "MQ", "token": "set-password"}, get=OPEN),
    "password_reset_complete": Entry(get=OPEN),
    "set_language": Entry(post=(302,) * 5, data={"language": "fr"}),
    # The installable app (masscombat.core.pwa): the same for everybody.
    "pwa:worker": Entry(get=OPEN),
    "pwa:manifest": Entry(get=OPEN),
    "pwa:offline": Entry(args=lambda w: {"language": "fr"}, get=OPEN),
    # Notifications: each user's own settings and devices (an empty subscription is refused, 400).
    "notifications:settings": Entry(get=SIGNED_IN, post=(L, 302, 302, 302, 302)),
    "notifications:subscription": Entry(get=(L, 405, 405, 405, 405), post=(L, 400, 400, 400, 400)),
    "notifications:forget-device": Entry(players_device, post=(L, 404, 404, 302, 404)),
    # Campaigns.
    "campaigns:create": Entry(get=SIGNED_IN),
    "campaigns:join": Entry(get=SIGNED_IN),
    # An invitation link is open to anonymous visitors too: a guest seat is taken there with a name.
    "campaigns:join-code": Entry(args=lambda w: {"code": "ABCDEFGH"}, get=OPEN, post=OPEN),
    "campaigns:detail": Entry(sea, get=MEMBERS),
    "campaigns:members": Entry(sea, get=MEMBERS),
    "campaigns:edit": Entry(sea, get=GM_ONLY, post=(L, 404, 403, 403, 200)),
    "campaigns:delete": Entry(sea, get=GM_ONLY, post=GM_POST),
    "campaigns:leave": Entry(sea, post=(L, 404, 302, 302, 302)),
    "campaigns:invitation": Entry(sea, get=GM_ONLY),
    "campaigns:invitation-qr": Entry(sea, get=GM_ONLY),
    "campaigns:invitation-regenerate": Entry(sea, post=GM_POST),
    "campaigns:invitation-revoke": Entry(sea, post=GM_POST),
    "campaigns:member-promote": Entry(member, post=GM_POST),
    "campaigns:member-remove": Entry(member, post=GM_POST),
    # Rosters: side A's army (commanded by the player, not editable by them) and hero (owned by the player).
    "rosters:army-create": Entry(sea, get=GM_ONLY),
    "rosters:army": Entry(army, get=MEMBERS),
    "rosters:army-edit": Entry(army, get=GM_ONLY),
    "rosters:army-preview": Entry(army, post=(L, 404, 403, 403, 200)),
    "rosters:army-export": Entry(army, get=MEMBERS),
    "rosters:army-delete": Entry(army, post=GM_POST),
    "rosters:hero-create": Entry(sea, get=GM_ONLY),
    "rosters:hero": Entry(hero, get=MEMBERS),
    "rosters:hero-edit": Entry(hero, get=(L, 404, 403, 200, 200)),
    "rosters:hero-preview": Entry(hero, post=(L, 404, 403, 200, 200)),
    "rosters:hero-export": Entry(hero, get=MEMBERS),
    "rosters:hero-delete": Entry(hero, post=GM_POST),
    "rosters:section": Entry(sea, get=MEMBERS),
    "rosters:army-restore": Entry(lambda w: {**army(w), "change_id": w["army"].changes.first().pk},
                                    post=(L, 404, 403, 403, 302)),
    "rosters:hero-restore": Entry(lambda w: {**hero(w), "change_id": w["hero"].changes.first().pk},
                                    post=(L, 404, 403, 302, 302)),
    # Battles.
    "battles:create": Entry(lambda w: {"campaign_id": w["sea"].pk}, get=GM_ONLY),
    # The GM's odds (the balance of the setup form's choices, the round preview): the GM's alone.
    "battles:balance": Entry(lambda w: {"campaign_id": w["sea"].pk}, get=GM_ONLY),
    "battles:preview": Entry(battle, get=GM_ONLY, post=GM_POST),
    "battles:room": Entry(battle, get=MEMBERS),
    "battles:part": Entry(lambda w: {"pk": w["battle"].pk, "name": "declare"}, get=MEMBERS),
    # Declaring for side A: only its player and the GM may (an empty declaration is then refused, 400).
    "battles:declare": Entry(battle, post=(L, 404, 404, 400, 400), data={"participant": "side:a"}),
    "battles:place": Entry(battle, post=(L, 404, 403, 403, 404)),  # 7th Sea places no pieces
    "battles:resolve": Entry(battle, post=GM_POST),
    "battles:undo": Entry(battle, post=GM_POST),
    "battles:pause": Entry(battle, post=GM_POST),
    "battles:deadline": Entry(battle, post=GM_POST),
    "battles:end": Entry(battle, post=GM_POST),
    "battles:one_more_round": Entry(battle, post=GM_POST),
    "battles:confirm": Entry(battle, post=GM_POST),
    # Players watch the replay once the battle is over; this one is running.
    "battles:replay": Entry(battle, get=(L, 404, 404, 404, 200)),
    # Spectators (issue #19): the GM shares and revokes the watch link; whoever holds it watches, signed in or not.
    "battles:watch_share": Entry(battle, post=GM_POST),
    "battles:watch_revoke": Entry(battle, post=GM_POST),
    "battles:watch": Entry(lambda w: {"token": watch_token(w)}, get=(200,) * 5),
    "battles:watch_part": Entry(lambda w: {"token": watch_token(w), "name": "reports"}, get=(200,) * 5),
    # Maps.
    "maps:create": Entry(lambda w: {"pk": w["zones"].pk}, get=GM_ONLY),
    "maps:import": Entry(lambda w: {"pk": w["zones"].pk}, get=GM_ONLY),
    "maps:detail": Entry(a_map, get=MEMBERS),
    "maps:edit": Entry(a_map, get=GM_ONLY),
    "maps:preview": Entry(a_map, post=(L, 404, 403, 403, 400)),
    "maps:save": Entry(a_map, post=(L, 404, 403, 403, 400)),
    "maps:duplicate": Entry(a_map, post=GM_POST),
    "maps:export": Entry(a_map, get=MEMBERS),
    "maps:delete": Entry(a_map, get=GM_ONLY, post=GM_POST),
    "maps:section": Entry(lambda w: {"pk": w["zones"].pk}, get=MEMBERS),
    "maps:visibility": Entry(a_map, post=GM_POST),
    # API.
    "api:me": Entry(get=API_OPEN),
    "api:token": Entry(get=(405,) * 5, post=(400,) * 5),
    "api:join": Entry(post=(401, 400, 400, 400, 400)),
    "api:invitation": Entry(api_sea, get=API_GM),
    "api:rules": Entry(get=API_OPEN),
    "api:rules-ops": Entry(lambda w: {"slug": "seventh_sea"}, get=API_OPEN),
    "api:rules-run": Entry(lambda w: {"slug": "seventh_sea", "op": "new-battle"}, post=(401, 400, 400, 400, 400)),
    "api:schema": Entry(get=OPEN),
    "api:docs": Entry(get=OPEN),
    "api:redoc": Entry(get=OPEN),
    "api:campaign-list": Entry(get=API_OPEN),
    "api:campaign-detail": Entry(lambda w: {"pk": w["sea"].pk}, get=API_MEMBERS),
    "api:member-list": Entry(api_sea, get=API_MEMBERS),
    "api:member-detail": Entry(lambda w: {"campaign_pk": w["sea"].pk, "user_id": w["target"].pk}, get=API_MEMBERS),
    "api:army-list": Entry(api_sea, get=API_MEMBERS),
    "api:army-detail": Entry(api_army, get=API_MEMBERS),
    "api:army-export": Entry(api_army, get=API_MEMBERS),
    "api:army-history": Entry(api_army, get=API_MEMBERS),
    "api:army-sheet": Entry(api_army, get=API_MEMBERS),
    "api:army-restore": Entry(lambda w: {**api_army(w), "change_id": w["army"].changes.first().pk},
                               post=(401, 404, 403, 403, 400)),
    "api:hero-list": Entry(api_sea, get=API_MEMBERS),
    "api:hero-detail": Entry(api_hero, get=API_MEMBERS),
    "api:hero-export": Entry(api_hero, get=API_MEMBERS),
    "api:hero-history": Entry(api_hero, get=API_MEMBERS),
    "api:hero-sheet": Entry(api_hero, get=API_MEMBERS),
    "api:hero-restore": Entry(lambda w: {**api_hero(w), "change_id": w["hero"].changes.first().pk},
                               post=(401, 404, 403, 400, 400)),
    "api:map-list": Entry(lambda w: {"campaign_pk": w["zones"].pk}, get=API_MEMBERS),
    "api:map-detail": Entry(lambda w: {"campaign_pk": w["zones"].pk, "pk": w["map"].pk}, get=API_MEMBERS),
    "api:map-svg": Entry(lambda w: {"campaign_pk": w["zones"].pk, "pk": w["map"].pk}, get=API_MEMBERS),
    # Battles: members read and declare (an empty declaration is refused, 400); the GM's actions are the GM's.
    "api:battle-list": Entry(api_sea, get=API_MEMBERS),
    "api:battle-detail": Entry(api_battle, get=API_MEMBERS),
    "api:battle-events": Entry(api_battle, get=API_MEMBERS),
    "api:battle-options": Entry(api_battle, get=(401, 404, 404, 200, 200), data={"participant": "side:a"}),
    "api:battle-declare": Entry(api_battle, post=(401, 404, 400, 400, 400)),
    "api:battle-resolve": Entry(api_battle, post=(401, 404, 403, 403, 400)),
    "api:battle-undo": Entry(api_battle, post=(401, 404, 403, 403, 400)),
    "api:battle-pause": Entry(api_battle, post=(401, 404, 403, 403, 400)),
}

# Websocket routes: who may open one (the others are closed before the handshake ends).
SOCKETS = {
    "ws/campaigns/<int:campaign_id>/": (lambda w: f"/ws/campaigns/{w['sea'].pk}/", (False, False, True, True, True)),
    "ws/battles/<int:battle_id>/": (lambda w: f"/ws/battles/{w['battle'].pk}/", (False, False, True, True, True)),
    "ws/watch/<str:token>/": (lambda w: f"/ws/watch/{watch_token(w)}/", (True,) * 5),  # the link is the key
}


def url_names(resolver=None, namespace=None):
    """(name, route) of every URL pattern, walking included resolvers."""
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            inner = ":".join(filter(None, [namespace, pattern.namespace])) or None
            yield from url_names(pattern, inner)
        elif isinstance(pattern, URLPattern):
            yield (f"{namespace}:{pattern.name}" if namespace else pattern.name), str(pattern.pattern)


def test_every_url_has_an_entry_and_every_entry_a_url():
    found = {name for name, _route in url_names() if not (name or "").startswith("admin:")}
    assert None not in found, "every URL pattern needs a name to be in the matrix"
    assert sorted(found - set(MATRIX)) == [], "new URLs: write their expected access in MATRIX"
    assert sorted(set(MATRIX) - found) == [], "URLs gone: remove them from MATRIX"


def test_every_websocket_route_has_an_entry():
    assert sorted(str(route.pattern) for route in websocket_urlpatterns) == sorted(SOCKETS)


def cases():
    for name, entry in MATRIX.items():
        for method in ("get", "post"):
            expected = getattr(entry, method)
            for role, status in zip(ROLES, expected or ()):
                yield pytest.param(name, method, role, status, id=f"{method.upper()} {name} as {role}")


@pytest.mark.parametrize(("name", "method", "role", "expected"), list(cases()))
def test_access(world, client_for, name, method, role, expected):
    entry = MATRIX[name]
    url = reverse(name, kwargs=entry.args(world) if entry.args else None)
    client = client_for(world["users"][role])
    response = getattr(client, method)(url, entry.data)
    if expected in (LOGIN, ADMIN_LOGIN):
        assert response.status_code == 302, (url, response.status_code)
        login = reverse("admin:login") if expected == ADMIN_LOGIN else reverse("login")
        assert response["Location"].startswith(login), response["Location"]
    else:
        assert response.status_code == expected, (url, response.status_code, response.content[:200])


@pytest.mark.parametrize("role", ROLES)
def test_the_admin_is_for_staff_only(world, client_for, role):
    """The Django admin has its own guard: no campaign role opens it."""
    response = client_for(world["users"][role]).get(reverse("admin:index"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("admin:login"))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("route", sorted(SOCKETS))
def test_websockets(world, route):
    path_of, expected = SOCKETS[route]
    path = path_of(world)

    async def opens(user) -> bool:
        communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
        communicator.scope["user"] = user or AnonymousUser()
        connected, _ = await communicator.connect()
        await communicator.disconnect()
        return connected

    found = tuple(async_to_sync(opens)(world["users"][role]) for role in ROLES)
    assert dict(zip(ROLES, found)) == dict(zip(ROLES, expected))
