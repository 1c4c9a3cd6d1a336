"""The battles' background jobs: resolve a round whose deadline has come; play a part of a simulation.

Why procrastinate: its queue is a table of the PostgreSQL database the app
already runs, so a deadline's job is written in the same transaction as the
deadline (never one without the other), survives restarts, and any number of
workers share it safely (each job is taken by one worker, ``FOR UPDATE SKIP
LOCKED``); there is no broker to run and keep in step.  Its Django
integration autodiscovers this module and runs the worker
(``manage.py procrastinate worker``, started by ``bin/run`` beside daphne).
Without PostgreSQL the same function is run by the server's own clock
(:mod:`masscombat.battles.deadline_clock`).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from procrastinate.contrib.django import app

from masscombat.battles import balance, preview  # noqa: F401  (each registers its simulation parts' kind)
from masscombat.battles import deadlines, services, simulation_runs
from masscombat.battles.models import Battle

logger = logging.getLogger(__name__)


@app.task(name=deadlines.TASK_NAME, queue=settings.DEADLINES_QUEUE)
def resolve_at_deadline(battle_id: int, round: int, version: int) -> bool:
    """Resolve round ``round`` of the battle if it still stands at that round with that deadline; whether it did.

    Missing declarations get the engine's default orders (the report names
    them).  Whatever worker runs it, and however often, one round is resolved:
    the battle row is locked first, and a resolved round or a changed deadline
    makes the job a no-op.
    """
    with transaction.atomic():
        battle = Battle.objects.select_for_update().filter(pk=battle_id).first()
        gm = deadlines.game_master(battle) if deadlines.due(battle, round, version) else None
        if gm is None:
            return False
        try:
            with transaction.atomic():
                services.resolve_round(gm, battle_id, expected_round=round, confirmed_missing=True)
        except ValidationError as exc:  # the engine refused the round: the GM resolves it by hand
            logger.warning("battle %s round %s was not resolved at its deadline: %s", battle_id, round, exc.messages)
            return False
    return True


@app.task(name=simulation_runs.TASK_NAME, queue=simulation_runs.QUEUE)
def simulate_part(kind: str, run: str, index: int, payload: dict) -> str:
    """One part of a balance or a round preview (:mod:`masscombat.battles.simulation_runs`), on whichever
    worker of whichever machine takes it; what became of it (done, dropped as stale, cancelled, refused)."""
    return simulation_runs.run_queued(kind, run, index, payload)
