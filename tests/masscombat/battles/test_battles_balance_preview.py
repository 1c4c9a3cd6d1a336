"""The GM's round preview: the GM's alone, heard by the GM's socket only, in parts run by the server's worker
processes, and dropped as soon as the battle moves on, a new declaration included."""

import time

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from masscombat.battles import preview, selectors, services, simulation_runs
from masscombat.battles.models import Battle, BattleEvent, Declaration
from masscombat.core.permissions import Action

from .test_battles_websocket import drain, joined

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def in_the_server_s_workers(monkeypatch):
    """The parts run in this server's worker processes, even where a queue exists (PostgreSQL and Redis): the
    queue's own path is tested in test_battles_balance_queue.py."""
    monkeypatch.setattr(simulation_runs, "queued", lambda: False)


@pytest.fixture
def few(settings, monkeypatch):
    """Three parts: 10, 20 and 30 resolutions."""
    settings.PREVIEW_RESOLUTIONS = 60
    monkeypatch.setattr(preview, "FIRST_PART", 10)


@pytest.fixture
def endless(settings, monkeypatch):
    """A preview far longer than any test waits, in parts of 20 resolutions."""
    settings.PREVIEW_RESOLUTIONS = 100_000
    monkeypatch.setattr(preview, "FIRST_PART", 20)
    monkeypatch.setattr(preview, "PART", 20)


def wait_for(check, what, seconds=120):
    """``check()`` once true."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if found := check():
            return found
        time.sleep(0.1)
    raise AssertionError(f"no {what} after {seconds} s")


def page_in(client, battle, state):
    url = reverse("battles:preview", args=[battle.pk])
    return wait_for(lambda: (page := client.get(url).content.decode()) and
                    f'data-preview-state="{state}"' in page and page, f"{state} preview")


def final(battle):
    """The preview's entry once its last part is in."""
    return wait_for(lambda: (found := preview.current(Battle.objects.get(pk=battle.pk))) and found.get("final")
                    and found, "last figures")


def preview_events(battle):
    return list(BattleEvent.objects.filter(battle=battle, kind=preview.EVENT).order_by("seq")
                .values_list("audience", "payload"))


def running(battle):
    """The preview's entry once some resolutions are played."""
    def played():
        entry = preview.current(Battle.objects.get(pk=battle.pk))
        return entry if entry and not entry.get("dropped") and entry["progress"] > 0 else None
    return wait_for(played, "progress")


def test_the_gm_previews_the_round_and_sees_first_figures_then_the_last(battle, gm, few, client_for):
    client = client_for(gm)
    started = client.post(reverse("battles:preview", args=[battle.pk]), HTTP_HX_REQUEST="true")
    assert started.status_code == 200 and 'data-preview-state="running"' in started.content.decode()
    page = page_in(client, battle, "done")
    assert "Over 60 tries of this round" in page and page.count("<tr>") == 3  # a header and one row per side
    assert "What the round does to each unit" in page and "Montaigne" in page and "still fighting" in page
    events = preview_events(battle)
    assert {audience for audience, _ in events} == {"gm"}
    token = events[0][1]["token"]
    assert all(payload["token"] == token and payload["version"] == battle.version for _, payload in events)
    assert events[0][1]["progress"] == 0.0  # the bar appears at once
    figures = [payload for _, payload in events if payload.get("figures")]
    assert len(figures) == 3 and [p["done"] for p in figures] == [False, False, True]  # one per part, the last done
    assert figures[0]["progress"] < 1 and events[-1][1]["done"] is True


def test_the_same_request_twice_starts_one_preview(battle, gm, few, client_for, monkeypatch):
    client = client_for(gm)
    runs = []
    real = simulation_runs.submit
    monkeypatch.setattr(simulation_runs, "submit", lambda *a, **k: runs.append(a) or real(*a, **k))
    url = reverse("battles:preview", args=[battle.pk])
    client.post(url, HTTP_HX_REQUEST="true")
    client.post(url, HTTP_HX_REQUEST="true")
    page_in(client, battle, "done")
    client.post(url, HTTP_HX_REQUEST="true")  # the battle still stands so: the figures answer
    assert len(runs) == 1


def test_the_room_offers_the_preview_to_the_gm_only(battle, gm, player, client_for):
    assert "data-preview-part" in client_for(gm).get(battle.get_absolute_url()).content.decode()
    assert "data-preview" not in client_for(player).get(battle.get_absolute_url()).content.decode()


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_player_is_refused_and_starts_nothing(battle, player, outsider, client_for, method):
    url = reverse("battles:preview", args=[battle.pk])
    assert getattr(client_for(player), method)(url, HTTP_HX_REQUEST="true").status_code == 403
    assert getattr(client_for(outsider), method)(url, HTTP_HX_REQUEST="true").status_code == 404
    assert cache.get(f"preview:{battle.pk}") is None
    assert not BattleEvent.objects.filter(battle=battle, kind=preview.EVENT).exists()


def test_only_the_gms_socket_hears_the_progress(battle, gm, player, other_player, few):
    def run_preview():
        preview.start(Battle.objects.get(pk=battle.pk))
        final(battle)

    async def scenario():
        gm_socket, _ = await joined(gm, battle.pk)
        player_sockets = [(await joined(user, battle.pk))[0] for user in (player, other_player)]
        await sync_to_async(run_preview)()
        heard = await drain(gm_socket)
        overheard = [await drain(socket) for socket in player_sockets]
        for socket in (gm_socket, *player_sockets):
            await socket.disconnect()
        return heard, overheard

    heard, overheard = async_to_sync(scenario)()
    previews = [m for m in heard if m.get("kind") == preview.EVENT]
    assert previews and {m["audience"] for m in previews} == {"gm"} and previews[-1]["payload"]["done"] is True
    assert [m for messages in overheard for m in messages if m.get("kind") == preview.EVENT] == []


def test_a_new_declaration_drops_the_running_preview_and_frees_the_worker(battle, gm, player, endless, client_for):
    """A player's declaration, through the service, while the preview runs: its parts stop (the worker is
    free again), its records go, its figures are never shown, and the page says why."""
    preview.start(Battle.objects.get(pk=battle.pk))
    entry = running(battle)
    services.declare(player, battle.pk, "side:a", {"sides.a.strategy": "march"}, expected_round=1)
    dropped = cache.get(f"preview:{battle.pk}")
    assert dropped["dropped"] is True and dropped["token"] == entry["token"]
    wait_for(lambda: simulation_runs.pool().busy() == 0, "a free worker", seconds=30)
    assert cache.get_many([f"preview:{battle.pk}:{entry['token']}:{what}:0" for what in ("part", "done")]) == {}
    events_then = len(preview_events(battle))
    time.sleep(1)  # a worker told to stop would have sent its next tenth by now
    assert len(preview_events(battle)) == events_then
    page = client_for(gm).get(reverse("battles:preview", args=[battle.pk])).content.decode()
    assert 'data-preview-state="dropped"' in page and "A declaration came in" in page and "<table" not in page
    # Asked again, the preview counts the declaration: a new one runs, with the declared orders kept.
    restarted = preview.start(Battle.objects.get(pk=battle.pk))
    assert restarted["token"] != entry["token"] and restarted["digest"] == preview.digest(
        {"side:a": {"sides.a.strategy": "march"}})
    preview.forget(battle.pk)


def test_the_same_declaration_again_keeps_the_preview(battle, gm, player, few):
    services.declare(player, battle.pk, "side:a", {"sides.a.strategy": "march"}, expected_round=1)
    started = preview.start(Battle.objects.get(pk=battle.pk))
    entry = final(battle)
    services.declare(player, battle.pk, "side:a", {"sides.a.strategy": "march"}, expected_round=1)
    again = preview.current(Battle.objects.get(pk=battle.pk))
    assert again["token"] == entry["token"] == started["token"] and not again.get("dropped") and again["final"]


def test_a_resolved_round_forgets_the_preview(battle, gm, endless, client_for):
    preview.start(Battle.objects.get(pk=battle.pk))
    running(battle)
    services.resolve_round(gm, battle.pk, expected_round=1)
    assert cache.get(f"preview:{battle.pk}") is None
    wait_for(lambda: simulation_runs.pool().busy() == 0, "a free worker", seconds=30)
    assert preview.current(Battle.objects.get(pk=battle.pk)) is None
    page = client_for(gm).get(reverse("battles:preview", args=[battle.pk])).content.decode()
    assert "data-preview-state" not in page and "Preview this round" in page


def test_a_part_queued_before_a_declaration_never_plays_the_old_round(battle):
    """The part asks for the battle as it stands just before it runs: the declarations changed, it is dropped."""
    kind = preview._Parts()
    payload = {"battle_id": battle.pk, "version": battle.version, "round": 1, "digest": preview.digest({}),
               "seed": 1, "start": 0, "stop": 5}
    assert kind.arguments("x", payload)["declarations_so_far"] == {}
    Declaration.objects.create(battle=battle, round=1, participant="side:b", data={"sides.b.strategy": "march"})
    assert kind.arguments("x", payload) is None


def test_a_refused_preview_keeps_a_code_not_the_engine_s_sentence(battle, few):
    """Orders for a participant the round does not have (written past the services): the engine refuses the
    preview's input, the parts fail, and the page says it in words."""
    Declaration.objects.create(battle=battle, round=1, participant="side:z", data={"sides.z.strategy": "march"})
    preview.start(Battle.objects.get(pk=battle.pk))
    entry = wait_for(lambda: (preview.current(Battle.objects.get(pk=battle.pk)) or {}).get("error"), "refusal")
    assert entry == preview.REFUSED


def _room_preview(battle, viewer_user, entry, language):
    viewer = selectors.viewer(viewer_user, Action.BATTLE_MANAGE, battle.pk)
    cache.set(f"preview:{battle.pk}", entry, 60)
    with translation.override(language):
        return render_to_string("battles/_preview.html", {"battle": viewer.battle, "viewer": viewer})


@pytest.mark.parametrize("code,french", [(preview.REFUSED, "le moteur de règles refuse ce tour"),
                                         (preview.UNEXPECTED, "erreur inattendue")])
def test_a_failed_preview_is_told_in_french_never_in_the_engine_s_english(battle, gm, code, french):
    entry = {"token": "t", "version": battle.version, "round": 1, "digest": preview.digest({}), "parts": 1,
             "requested": 10, "seed": 1, "slug": "seventh_sea", "jobs": [], "error": code}
    page = _room_preview(battle, gm, entry, "fr")
    assert 'data-preview-state="error"' in page and french in page and "could not" not in page


def test_the_units_are_told_in_words_in_french(battle, gm, few):
    preview.start(Battle.objects.get(pk=battle.pk))
    entry = final(battle)
    page = _room_preview(battle, gm, {k: v for k, v in entry.items() if k not in ("progress", "result", "final")},
                         "fr")
    assert "Ce que le tour fait à chaque unité" in page and "toujours au combat" in page
    assert "tours gagnés" in page and "Montaigne" in page
    assert "still fighting" not in page and "rounds won" not in page
