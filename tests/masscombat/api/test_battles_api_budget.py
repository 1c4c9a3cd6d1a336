"""The battles API runs its engine operations within the rules API's budget: 503 past it, 429 past the cap.

A slow operation is made by holding one engine operation until the test lets
it go: no timing is asserted, only that the answer comes back refused and that
nothing the request was writing was kept.
"""

import threading
import time

import pytest

from masscombat.battles.models import Round
from masscombat.core import engine_budget
from rules import registry
from tests.masscombat.api.test_battles_api import ATTACK, battle, other_player, post, url  # noqa: F401 - fixtures
from tests.masscombat.battles.test_battles_synapse import synapse_battle  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db

release = threading.Event()


@pytest.fixture
def slow(monkeypatch, settings):
    """``slow.add(op)``: that engine operation waits for ``release`` from now on; a budget of a fifth of a second."""
    held: set[str] = set()
    real = registry.run

    def run(slug, op, payload, **kwargs):
        if op in held:
            release.wait(30)
        return real(slug, op, payload, **kwargs)

    monkeypatch.setattr(registry, "run", run)
    settings.ENGINE_API_SECONDS = 0.2
    settings.ENGINE_API_CONCURRENT = 1
    release.clear()
    yield held
    release.set()
    deadline = time.monotonic() + 30
    while engine_budget.running_total() and time.monotonic() < deadline:
        time.sleep(0.01)


def test_reading_a_battle_past_the_budget_answers_503(slow, client_for, battle, player):
    slow.add("visible-state")
    response = client_for(player).get(url(battle))
    assert response.status_code == 503 and int(response["Retry-After"]) >= 1
    assert "did not finish" in response.json()["detail"]


def test_options_past_the_budget_answer_503(slow, client_for, battle, player):
    slow.add("declaration-options")
    response = client_for(player).get(url(battle, "options"), {"participant": "side:A"})
    assert response.status_code == 503


def test_a_declaration_past_the_budget_is_not_stored(slow, client_for, battle, player):
    slow.add("check-declaration")
    response = post(client_for(player), url(battle, "declare"),
                    {"participant": "side:A", "round": 1, "declaration": ATTACK})
    assert response.status_code == 503
    assert not battle.declarations.exists()


def test_a_resolve_past_the_budget_leaves_the_round_open(slow, client_for, battle, gm):
    slow.add("resolve-round")
    response = post(client_for(gm), url(battle, "resolve"), {"round": 1, "confirm_defaults": True})
    assert response.status_code == 503
    assert not Round.objects.filter(battle=battle).exists()
    battle.refresh_from_db()
    assert battle.current_round == 1 and battle.last_seq == 1  # only "created": no event of a resolution


def test_runs_still_going_cap_the_user_at_429(slow, client_for, battle, player, other_player, settings):
    slow.add("visible-state")
    assert client_for(player).get(url(battle)).status_code == 503
    refused = client_for(player).get(url(battle))
    assert refused.status_code == 429 and refused["Retry-After"] == "1"
    assert client_for(other_player).get(url(battle)).status_code == 503  # another user's slot is theirs
    release.set()
    deadline = time.monotonic() + 30
    while engine_budget.running_total() and time.monotonic() < deadline:
        time.sleep(0.01)
    settings.ENGINE_API_SECONDS = 60  # the real operation, however loaded the machine
    assert client_for(player).get(url(battle)).status_code == 200


def test_within_the_budget_the_answers_are_as_before(slow, client_for, battle, player, settings):
    settings.ENGINE_API_SECONDS = 60
    response = post(client_for(player), url(battle, "declare"),
                    {"participant": "side:A", "round": 1, "declaration": ATTACK})
    assert response.status_code == 200 and battle.declarations.count() == 1
