"""The reminder as a procrastinate task, which the deadlines' schedule defers by name without importing this app.

:func:`masscombat.battles.deadlines.schedule` defers ``notifications.remind_missing``
with the battle, the round and the deadline version, on procrastinate's queue
(PostgreSQL) or on the SQLite server's clock, which finds it by the same name.
"""

from django.conf import settings
from procrastinate.contrib.django import app

from masscombat.notifications import reminders

TASK_NAME = "notifications.remind_missing"


@app.task(name=TASK_NAME, queue=settings.DEADLINES_QUEUE)
def remind_missing(battle_id: int, round: int, version: int | None = None) -> int:
    return reminders.remind_missing(battle_id, round, version)
