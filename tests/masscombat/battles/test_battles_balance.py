"""The balance part of the setup page: each ruleset's demo battle gets its odds, computed once, for the GM alone."""

import threading
import time
import uuid

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from masscombat.battles import balance, simulation_runs
from masscombat.battles.models import Battle

pytestmark = pytest.mark.django_db

RULESETS = ["dnd5e", "heros", "jdrwiki", "seventh_sea", "synapse"]


@pytest.fixture(autouse=True)
def in_the_server_s_workers(monkeypatch):
    """The parts run in this server's worker processes, even where a queue exists (PostgreSQL and Redis): the
    queue's own path is tested in test_battles_balance_queue.py."""
    monkeypatch.setattr(simulation_runs, "queued", lambda: False)


@pytest.fixture
def small(settings):
    """A few short battles: the figures' quality is the simulator's tests' business, not the page's."""
    settings.BALANCE_BATTLES = 4
    settings.BALANCE_ROUND_CAP = 3


def form_data(battle: Battle) -> dict:
    """The setup form's fields as the GM chose them for this demo battle."""
    armies = {p.side: p.army_id for p in battle.participants.all() if p.kind in ("side", "army") and p.army_id}
    first, second = sorted(armies)
    data = {"army_a": armies[first], "army_b": armies[second]}
    for name, value in battle.setup["options"].items():
        if value is True:
            data[name] = "on"
        elif value not in (None, False):
            data[name] = value
    return data


def wait_for(check, what, seconds=120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"no {what} after {seconds} s")


def wait_ready(client, url, data, seconds=120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        page = client.get(url, data).content.decode()
        if 'data-balance="ready"' in page or "could not play" in page:
            return page
        assert 'data-balance="computing"' in page and "hx-trigger=\"load delay" in page  # it polls
        time.sleep(0.3)
    raise AssertionError(f"no balance after {seconds} s")


@pytest.mark.parametrize("slug", RULESETS)
def test_the_gm_gets_the_balance_of_each_demo_battle_then_from_the_cache(slug, small, client_for, monkeypatch):
    call_command("demo", verbosity=0)
    battle = Battle.objects.get(ruleset=slug)
    client = client_for(battle.created_by)
    url = reverse("battles:balance", args=[battle.campaign_id])
    page = wait_ready(client, url, form_data(battle))
    assert "could not play" not in page
    assert page.count(" wins ") == 2 and "draws" in page and "From 4 simulated battles" in page
    assert "stopped on an engine error" not in page

    def refuse(*args):
        raise AssertionError("the same choices were computed twice")

    monkeypatch.setattr(balance, "_start", refuse)
    assert client.get(url, form_data(battle)).content.decode() == page


def test_without_two_armies_the_part_asks_for_them(sea_campaign, sea_rosters, gm, client_for):
    page = client_for(gm).get(reverse("battles:balance", args=[sea_campaign.pk]), {"army_a": sea_rosters["a"].pk})
    assert page.status_code == 200 and "Choose the two armies" in page.content.decode()


def test_players_are_refused_and_outsiders_get_404(sea_campaign, sea_rosters, player, outsider, client_for):
    url = reverse("battles:balance", args=[sea_campaign.pk])
    data = {"army_a": sea_rosters["a"].pk, "army_b": sea_rosters["b"].pk, "attacker": "a"}
    assert client_for(player).get(url, data).status_code == 403
    assert client_for(outsider).get(url, data).status_code == 404


def test_a_stampede_of_identical_requests_computes_once(battle, small, monkeypatch):
    setup = {**battle.setup["input"], "name": f"stampede {uuid.uuid4()}"}  # never computed before
    runs = []
    real = simulation_runs.submit
    monkeypatch.setattr(simulation_runs, "submit", lambda *a, **k: runs.append(a) or real(*a, **k))

    def ask() -> None:
        try:
            balance.balance("seventh_sea", setup)
        finally:
            connection.close()  # back to PostgreSQL's pool: a thread's connection is never returned by itself

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(runs) == 1 and len(runs[0][2]) == len(balance.parts(4))  # one run, each part once
    found = wait_for(lambda: (found := balance.balance("seventh_sea", setup)).ready and found, "the balance")
    assert found.result["battles"] == 4 and len(runs) == 1


def test_a_superseded_run_stops_and_frees_its_worker(battle, settings):
    """The GM changes an army while a long balance runs: the worker leaves it for the new set-up at once."""
    settings.BALANCE_BATTLES = 10_000
    settings.BALANCE_ROUND_CAP = 30
    page = f"{battle.campaign_id}:{battle.created_by_id}"
    long = {**battle.setup["input"], "name": f"long {uuid.uuid4()}"}
    key = balance.digest("seventh_sea", long)
    balance.balance("seventh_sea", long, page=page)
    wait_for(lambda: balance.balance("seventh_sea", long, page=page).done, "the long run going")
    settings.BALANCE_BATTLES = 4
    short = {**battle.setup["input"], "name": f"short {uuid.uuid4()}"}
    balance.balance("seventh_sea", short, page=page)
    assert cache.get(balance._run_key(key)) is None  # the long run is cancelled at once
    found = wait_for(lambda: (found := balance.balance("seventh_sea", short, page=page)).ready and found,
                     "the new set-up's balance", seconds=60)
    assert found.result["battles"] == 4
    assert simulation_runs.pool().busy() == 0  # nothing of the long run still holds the worker
    assert cache.get(balance._result_key(key)) is None


def test_the_balance_speaks_french():
    from django.template.loader import render_to_string
    from django.utils import translation

    found = balance.Balance(result={
        "battles": 10, "round_cap": 30, "wins": {"a": 0.7, "b": 0.2}, "draws": 0.1, "unfinished": 0.0, "errors": 0.0,
        "intervals": {"wins": {"a": {"low": 0.4, "high": 0.9}, "b": {"low": 0.05, "high": 0.5}}},
        "rounds": {"median": 5, "p10": 3, "p90": 8}, "error_messages": []})
    with translation.override("fr"):
        page = render_to_string("battles/_balance.html", {
            "balance": found, "figures": balance.figures(found, {"a": "Montaigne", "b": "Castille"})})
    assert "<strong>Montaigne</strong> gagne 70 % (± 25)" in page and "égalités 10 %" in page
    assert "les batailles durent 3 à 8 tours" in page and "D’après 10 batailles simulées" in page
    assert "Premiers chiffres" not in page and "hx-get" not in page  # final figures: no more polling


def test_failures_are_sentences_in_french_never_the_engine_s_english():
    from django.template.loader import render_to_string
    from django.utils import translation

    with translation.override("fr"):
        refused = render_to_string("battles/_balance.html", {"balance": balance.Balance(error=balance.REFUSED)})
        lost = render_to_string("battles/_balance.html", {"balance": balance.Balance(error=balance.UNEXPECTED)})
    assert "le moteur de règles refuse cette mise en place" in refused
    assert "erreur inattendue" in lost


def test_parts_cover_every_battle_once_the_first_one_small():
    assert balance.parts(4) == [range(0, 2), range(2, 4)]
    assert [len(part) for part in balance.parts(50)] == [2, 4, 8, 16, 20]
    covered = [index for part in balance.parts(200) for index in part]
    assert covered == list(range(200)) and max(len(part) for part in balance.parts(200)) == balance.PART


def test_first_figures_show_while_the_rest_is_computed(battle, settings, monkeypatch):
    """Parts held back: the page shows the first part's figures, says they are first ones, and keeps polling."""
    from django.template.loader import render_to_string

    settings.BALANCE_BATTLES = 8
    settings.BALANCE_ROUND_CAP = 3
    setup = {**battle.setup["input"], "name": f"parts {uuid.uuid4()}"}
    held = []
    monkeypatch.setattr(simulation_runs, "submit", lambda kind, run, payloads: held.append((run, payloads)) or [])
    monkeypatch.setattr(balance, "FIRST_PART", 3)
    monkeypatch.setattr(balance, "PART", 5)
    assert balance.balance("seventh_sea", setup).partial is None
    (run, payloads), = held
    assert [(p["start"], p["stop"]) for p in payloads] == [(0, 3), (3, 8)]
    parts = balance._Parts()

    def play(index):
        parts.finished(run, index, parts.function(**parts.arguments(run, payloads[index])))

    play(0)
    found = balance.balance("seventh_sea", setup)
    assert not found.ready and found.partial["battles"] == 3 and found.done == 3
    page = render_to_string("battles/_balance.html", {"balance": found, "campaign": battle.campaign, "query": "",
                                                      "figures": balance.figures(found, {})})
    assert 'data-balance="computing"' in page and "From 3 simulated battles" in page and "First figures" in page
    assert "hx-get" in page and '<progress class="balance-progress" max="8" value="3"' in page
    assert "How each unit ends" in page and "Montaigne" in page
    play(1)
    found = balance.balance("seventh_sea", setup)
    assert found.ready and found.partial is None and found.result["battles"] == 8
    assert cache.get(balance._run_key(balance.digest("seventh_sea", setup))) is None  # the run's marks are gone
