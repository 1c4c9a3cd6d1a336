"""The "orders missing" reminder before a round's deadline, deferred by the deadlines' schedule
(:func:`masscombat.battles.deadlines.reminder_at` says when) or called by any other scheduler."""

from __future__ import annotations

import math

from django.utils import timezone

from masscombat.battles.models import Battle
from masscombat.notifications import deliver, messages, origin
from masscombat.notifications.models import REMINDER, SentReminder

# With less time left than this the round resolves before a reminder is read: none is sent.
LAST_SECONDS = 60


def remind_missing(battle_id: int, round: int, version: int | None = None) -> int:
    """Remind who still has orders to give in round ``round``; how many were reached (0 once the round is over).

    Only those the round still waits for hear it, with the minutes left before
    the deadline when the battle has one.  With ``version`` (the deadlines'
    job) it is the reminder of that one deadline: nothing once the GM changed,
    paused or took away the clock, nothing in its last minute, and never twice.
    """
    battle = Battle.objects.select_related("campaign").filter(pk=battle_id).first()
    if battle is None or battle.status != Battle.Status.RUNNING or battle.current_round != round:
        return 0
    left = (battle.deadline_at - timezone.now()).total_seconds() if battle.deadline_at is not None else None
    if version is not None:
        if battle.deadline_version != version or left is None or left < LAST_SECONDS:
            return 0
        _row, first = SentReminder.objects.get_or_create(battle=battle, round=round, version=version)
        if not first:
            return 0
    minutes = None if left is None else max(0, math.ceil(left / 60))
    with origin.of_campaign(battle.campaign_id):
        reached = deliver.notify(deliver.waiting_users(battle), REMINDER, lambda: messages.reminder(battle, minutes))
    return sum(reached.values())
