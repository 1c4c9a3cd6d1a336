"""The one path by which a battle's changes become events and reach the browsers.

Zulip's events model: :func:`emit` is called inside the transaction that made
the change, with the battle row locked; it numbers the event (the battle's
``last_seq`` + 1), stores it, and once the transaction commits sends it over
the channel layer to the group of its audience.  A browser that was away
says the last number it saw and gets the rest from the database
(:func:`missed`), or reloads when too much was missed.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from masscombat.battles.models import Battle, BattleEvent

EVENT = "battle.event"  # the channel-layer message type the consumer handles
ALL, GM = "all", "gm"
# Past this many missed events a client reloads the page instead of replaying them.
CATCH_UP_LIMIT = 200


def side_audience(side: str) -> str:
    return f"side:{side}"


def group_name(battle_id: int, audience: str) -> str:
    # Channel-layer group names allow letters, digits, hyphens, underscores and periods.
    return f"battle-{battle_id}-{audience.replace(':', '.')}"


def audiences_for(is_gm: bool, sides: set[str]) -> list[str]:
    """The audiences a viewer hears: everything for a GM, else the public one and their sides'."""
    if is_gm:
        return [ALL, GM, *sorted(side_audience(side) for side in sides)]
    return [ALL, *sorted(side_audience(side) for side in sides)]


def as_message(event: BattleEvent) -> dict:
    return {"type": "event", "seq": event.seq, "kind": event.kind, "audience": event.audience,
            "payload": event.payload}


def emit(battle: Battle, kind: str, payload: dict | None = None, audience: str = ALL) -> BattleEvent:
    """Store the next event of ``battle`` (locked by the caller) and send it after commit.

    Side audiences are also sent to the GM group: the GM sees everything.
    """
    battle.last_seq += 1
    Battle.objects.filter(pk=battle.pk).update(last_seq=battle.last_seq)
    event = BattleEvent.objects.create(
        battle=battle, seq=battle.last_seq, kind=kind, audience=audience, payload=payload or {}
    )
    message = {"type": EVENT, "event": as_message(event)}
    groups = [group_name(battle.pk, audience)]
    if audience.startswith("side:"):
        groups.append(group_name(battle.pk, GM))

    def send() -> None:
        layer = get_channel_layer()
        for group in groups:
            async_to_sync(layer.group_send)(group, message)

    # Robust: with the channel layer down (Redis restarting) the change is still saved and
    # the request still succeeds; pages catch up from the database when they reconnect.
    transaction.on_commit(send, robust=True)
    return event


def missed(battle_id: int, last_seq: int, is_gm: bool, audiences: list[str]) -> list[dict] | None:
    """Events after ``last_seq`` this viewer may hear, oldest first; None when too many to replay."""
    events = BattleEvent.objects.filter(battle_id=battle_id, seq__gt=last_seq)
    if not is_gm:
        events = events.filter(audience__in=audiences)
    found = list(events.order_by("seq")[: CATCH_UP_LIMIT + 1])
    if len(found) > CATCH_UP_LIMIT:
        return None
    return [as_message(event) for event in found]
