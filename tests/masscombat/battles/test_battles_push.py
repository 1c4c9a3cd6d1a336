"""The room's parts pushed over the battle's socket: each audience its own HTML, rendered once; and GET.

On the HÉROS ambush (side b's slingers hidden in the wood from side a, a lurker
in b's pool): Pippin plays side a, Merry side b, Gandalf is the GM, and a
watch link's holder sees the public's view.  Runs on whichever channel layer
and cache the settings chose: in-memory and local memory in pass 1, Redis in
pass 2 of ``bin/test``.
"""

import gzip
import json
import re
from collections import Counter

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import translation

from masscombat.battles import events, live, parts, push, selectors, services, spectators
from masscombat.battles.models import Battle, BattleEvent
from masscombat.battles.spectator_socket import SpectatorConsumer
from masscombat.core.permissions import Action
from masscombat.maps.render import without_terrain
from tests.masscombat.battles.test_battles_heros import SECRETS, ambush, plain  # noqa: F401 - fixtures
from tests.masscombat.battles.test_battles_websocket import drain, joined, until_pushed

pytestmark = pytest.mark.django_db(transaction=True)
SHARED = ["status", "map", "reports"]
PARTICIPANT = re.compile(r'data-participant="([^"]+)"')


def watcher_socket(token: str):
    communicator = WebsocketCommunicator(SpectatorConsumer.as_asgi(), f"/ws/watch/{token}/")
    communicator.scope["user"] = AnonymousUser()
    communicator.scope["url_route"] = {"kwargs": {"token": token}}
    return communicator


async def opened(communicator, last_seq):
    assert (await communicator.connect())[0]
    await communicator.send_json_to({"type": "hello", "last_seq": last_seq})
    while (await communicator.receive_json_from(timeout=10))["type"] != "ready":
        pass
    return communicator


def now_as(user, battle_id: int, name: str) -> str:
    """The part as ``user`` sees the battle now, rendered afresh (no cache), marks in place, in the language a
    socket whose page said none is pushed in."""
    with translation.override(settings.LANGUAGE_CODE):
        return parts.render_fresh(selectors.viewer(user, Action.BATTLE_VIEW, battle_id), name)


def keys_of(battle, side: str) -> set[str]:
    return {p.key for p in battle.participants.filter(side=side)}


def test_each_socket_gets_the_html_of_its_own_audience_only(ambush, gm, player, other_player):
    token = spectators.create_link(gm, ambush.pk).token
    start = Battle.objects.get(pk=ambush.pk).last_seq

    async def scenario():
        sockets = {name: (await joined(user, ambush.pk, start))[0]
                   for name, user in (("gm", gm), ("a", player), ("b", other_player))}
        sockets["watch"] = await opened(watcher_socket(token), start)
        for communicator in sockets.values():
            await drain(communicator, frames=True)  # presence
        await database_sync_to_async(services.resolve_round)(gm, ambush.pk, expected_round=1)
        pushed = {}
        for name, communicator in sockets.items():
            wanted = SHARED if name == "watch" else [*SHARED, "declare"]
            heard, pushed[name] = await until_pushed(communicator, wanted)
            resolved = next(m for m in heard if m.get("kind") == "round_resolved")
            assert resolved["refresh"] == (SHARED if name == "watch" else ["status", "declare", "map", "reports"])
            assert not set(pushed[name]) - set(wanted), name  # nothing beyond its parts: a watcher has no forms
            await communicator.disconnect()
        return pushed

    pushed = async_to_sync(scenario)()
    battle = Battle.objects.get(pk=ambush.pk)
    # Side a and the public never receive the ambushers, in any part; side b and the GM do.
    for name in ("a", "watch"):
        assert not [secret for secret in SECRETS if secret in str(pushed[name])], name
    assert "Frondeurs" in pushed["b"]["status"] and "b-frondeurs" in pushed["gm"]["map"]
    # Each audience's HTML is its own rendering of the battle as it is now, not another's.
    # (The map's terrain is left out: the page keeps its own.)
    for name, user in (("gm", gm), ("a", player), ("b", other_player)):
        for part in ("map", "reports", "declare"):
            assert pushed[name][part] == without_terrain(now_as(user, ambush.pk, part)), (name, part)
    assert pushed["a"]["map"] != pushed["b"]["map"] != pushed["gm"]["map"]
    with translation.override(settings.LANGUAGE_CODE):
        assert pushed["watch"]["map"] == without_terrain(parts.render_fresh(spectators.watching(token), "map"))
    # A player's own forms are theirs alone: side a's forms never name side b's participants.
    assert set(PARTICIPANT.findall(pushed["a"]["declare"])) <= keys_of(battle, "a")
    assert set(PARTICIPANT.findall(pushed["b"]["declare"])) <= keys_of(battle, "b")
    assert PARTICIPANT.findall(pushed["a"]["declare"]) and PARTICIPANT.findall(pushed["b"]["declare"])
    # Forms in shared HTML carry the mark the page replaces with its own CSRF token, never a token.
    tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', pushed["a"]["declare"] + pushed["gm"]["status"]))
    assert tokens == {parts.CSRF_MARK}


def test_a_round_costs_one_rendering_per_audience_however_many_sockets(ambush, gm, player, other_player, monkeypatch):
    rendered = Counter()
    real = parts.render_fresh

    def counting(viewer, name):
        rendered[parts.audience(viewer), name] += 1
        return real(viewer, name)

    monkeypatch.setattr(parts, "render_fresh", counting)
    start = Battle.objects.get(pk=ambush.pk).last_seq

    async def scenario():
        sockets = [(await joined(user, ambush.pk, start))[0] for user in (player, player, player, other_player,
                                                                          other_player)]
        for communicator in sockets:
            await drain(communicator, frames=True)
        rendered.clear()
        await database_sync_to_async(services.resolve_round)(gm, ambush.pk, expected_round=1)
        for communicator in sockets:
            await until_pushed(communicator, [*SHARED, "declare"])
            await communicator.disconnect()

    async_to_sync(scenario)()
    assert rendered == {(audience, name): 1 for audience in ("sides:a", "sides:b")
                        for name in ("status", "declare", "map", "reports")}


def test_a_pushed_map_leaves_its_terrain_for_the_page_to_keep(ambush, player):
    """Most of a map's bytes are its terrain, the same every round: a frame carries the pieces and the
    terrain's digest, which is the digest the page's own map (its GET) shows."""
    shown = now_as(player, ambush.pk, "map")
    digests = re.findall(r'<g class="terrain" data-keep="([0-9a-f]{16})">', shown)
    assert len(digests) == 1 and 'class="cell' in shown
    frame, failed = push.frames(push.Watcher(selectors.viewer(player, Action.BATTLE_VIEW, ambush.pk)), ["map"],
                                Battle.objects.get(pk=ambush.pk).last_seq, settings.LANGUAGE_CODE, False)
    pushed = json.loads(frame[0])["html"]["map"]
    assert failed == [] and f'<g class="terrain" data-keep="{digests[0]}" data-kept></g><g class="highlights">' in pushed
    assert 'class="cell' not in pushed and 'class="piece' in pushed and len(pushed) < len(shown) / 2
    # Everything but the terrain is the page's own map.
    assert re.sub(r'<g class="terrain".*?</g><g class="highlights">', "", shown, flags=re.S) == re.sub(
        r'<g class="terrain".*?</g><g class="highlights">', "", pushed, flags=re.S)


def test_a_socket_whose_parts_are_cached_asks_the_database_nothing(ambush, player, django_assert_num_queries):
    watcher = push.Watcher(selectors.viewer(player, Action.BATTLE_VIEW, ambush.pk))
    seq = watcher.viewer.battle.last_seq
    first, failed = push.frames(watcher, ["status", "map", "reports"], seq, "fr", True)
    assert len(first) == 1 and not failed
    with django_assert_num_queries(0):
        again, _ = push.frames(push.Watcher(watcher.viewer), ["status", "map", "reports"], seq, "fr", True)
    assert again == first


def test_a_page_that_missed_a_push_gets_the_current_html_when_it_says_hello(ambush, gm, player):
    seen = Battle.objects.get(pk=ambush.pk).last_seq

    async def scenario():
        communicator, _ = await joined(player, ambush.pk, seen)
        await communicator.disconnect()  # phone locked: the round's push never reaches it
        await database_sync_to_async(services.resolve_round)(gm, ambush.pk, expected_round=1)
        back, caught_up = await joined(player, ambush.pk, seen)
        heard, html = await until_pushed(back, ["status", "declare", "map", "reports"])
        await back.disconnect()
        return caught_up, heard, html

    caught_up, heard, html = async_to_sync(scenario)()
    assert [m["kind"] for m in caught_up] == ["round_resolved"] and caught_up[0]["refresh"]
    assert not [m for m in heard if m["type"] == "event"]  # the catch-up's HTML comes after ready, alone
    for name in ("status", "declare", "map", "reports"):
        assert html[name] == without_terrain(now_as(player, ambush.pk, name)), name
    assert 'data-round="1"' in html["reports"]  # the report of the round it missed


def test_a_part_that_fails_to_render_is_named_for_the_page_to_ask(ambush, gm, player, monkeypatch):
    real = parts.render_fresh

    def broken(viewer, name):
        if name == "map":
            raise RuntimeError("the map renderer is down")
        return real(viewer, name)

    monkeypatch.setattr(parts, "render_fresh", broken)
    start = Battle.objects.get(pk=ambush.pk).last_seq

    async def scenario():
        communicator, _ = await joined(player, ambush.pk, start)
        await database_sync_to_async(services.resolve_round)(gm, ambush.pk, expected_round=1)
        heard, html = await until_pushed(communicator, ["status", "declare", "reports"])
        while not any(m["type"] == "fetch" for m in heard):
            heard.append(await communicator.receive_json_from(timeout=10))
        await communicator.disconnect()
        return heard, html

    heard, html = async_to_sync(scenario)()
    assert [m["parts"] for m in heard if m["type"] == "fetch"] == [["map"]] and "map" not in html


def test_frames_are_gzipped_when_the_page_inflates_them_and_in_its_language(ambush, player):
    watcher = push.Watcher(selectors.viewer(player, Action.BATTLE_VIEW, ambush.pk))
    seq = watcher.viewer.battle.last_seq
    (packed,), _ = push.frames(watcher, ["status"], seq, "fr", True)
    (text,), _ = push.frames(watcher, ["status"], seq, "fr", False)
    (english,), _ = push.frames(watcher, ["status"], seq, "en", False)
    assert isinstance(packed, bytes) and json.loads(gzip.decompress(packed)) == json.loads(text)
    assert json.loads(text)["seq"] == seq and "Déclarations" in json.loads(text)["html"]["status"]
    assert "Declarations" in json.loads(english)["html"]["status"]


def test_the_room_without_javascript_has_every_part_and_its_forms_post(ambush, gm, player):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    page = browser.get(ambush.get_absolute_url()).content.decode()
    assert parts.CSRF_MARK not in page and parts.ORIGIN_MARK not in page
    for name in ("status", "declare", "map", "reports"):
        section = re.search(rf'<section id="battle-[a-z]+"[^>]*data-part="{name}"[^>]*>(.*?)</section>', page, re.S)
        assert section and section.group(1).strip(), name
    form = re.search(r'<form method="post" action="([^"]+)"[^>]*data-participant="([^"]+)".*?'
                     r'name="csrfmiddlewaretoken" value="([^"]+)".*?name="round" value="(\d+)"', page, re.S)
    action, key, token, number = form.groups()
    answer = browser.post(action, {"csrfmiddlewaretoken": token, "participant": key, "round": number})
    assert answer.status_code == 302  # saved: the page reloads, and shows it
    assert "badge done" in browser.get(ambush.get_absolute_url()).content.decode()

    master = Client(enforce_csrf_checks=True)
    master.force_login(gm)
    room = master.get(ambush.get_absolute_url()).content.decode()
    token = re.search(r'action="/battles/\d+/resolve/"[^>]*>\s*<input type="hidden" name="csrfmiddlewaretoken" '
                      r'value="([^"]+)"', room).group(1)
    assert master.post(reverse("battles:resolve", args=[ambush.pk]),
                       {"csrfmiddlewaretoken": token, "round": 1, "confirm_missing": "1"}).status_code == 302
    after = browser.get(ambush.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-round="1"' in after and "Round 2" in after


def test_the_watch_link_reads_the_address_the_page_was_asked_at(ambush, gm):
    spectators.create_link(gm, ambush.pk)
    master = Client()
    master.force_login(gm)
    for part in (master.get(ambush.get_absolute_url()), master.get(reverse("battles:part", args=[ambush.pk, "status"]))):
        html = part.content.decode()
        assert parts.ORIGIN_MARK not in html and 'value="http://testserver/watch/' in html


def test_an_undeclared_kind_of_event_is_refused_before_anything_is_stored(ambush):
    before = BattleEvent.objects.filter(battle=ambush).count()
    with pytest.raises(ValueError, match="undeclared"), transaction.atomic():
        live.emit(Battle.objects.select_for_update().get(pk=ambush.pk), "shout")
    assert BattleEvent.objects.filter(battle=ambush).count() == before
    assert Battle.objects.get(pk=ambush.pk).last_seq == ambush.last_seq


def test_the_gms_declaration_redraws_the_players_forms_not_the_gms():
    assert events.parts_for("declared", {"participant": "gm"}, is_gm=False) == ["status", "declare"]
    assert events.parts_for("declared", {"participant": "gm"}, is_gm=True) == ["status"]
    assert events.parts_for("declared", {"participant": "side:a"}, is_gm=False) == ["status"]
    assert events.parts_for("round_resolved", {"round": 1}, is_gm=False) == list(events.ALL_PARTS)
