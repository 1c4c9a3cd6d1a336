"""The one path by which a battle's changes become events and reach the browsers.

Zulip's events model: :func:`emit` is called inside the transaction that made
the change, with the battle row locked; it numbers the event (the battle's
``last_seq`` + 1), stores it, and once the transaction commits sends it over
the channel layer to the group of its audience.  A browser that was away
says the last number it saw and gets the rest from the database
(:func:`missed`), or reloads when too much was missed.

A socket that stays open can lose an event too (a Redis connection cut while
it was in flight).  So each event tells each socket the number of the event
it should have heard just before (``prev``, from the audiences' marks the
message carries, :func:`previous`) and the consumer's heartbeat tells it the
last number it should have heard by now (:func:`last_heard`): a client that
sees one it did not get asks for the catch-up.  Numbers of events meant for
another audience (the GM's, the other side's) never count as a gap.

What each kind of event holds and redraws is declared in
:mod:`masscombat.battles.events`; the socket sends the redrawn parts with it
(:mod:`masscombat.battles.push`).
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import Max
from django.dispatch import Signal

from masscombat.battles import events
from masscombat.battles.models import Battle, BattleEvent
from masscombat.campaigns import live as campaign_live

EVENT = "battle.event"  # the channel-layer message type the consumer handles
ALL, GM = "all", "gm"
# Sent once the event's transaction commits, with battle, kind and payload: apps above listen (notifications).
committed = Signal()
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

    Side audiences are also sent to the GM group: the GM sees everything.  The message
    carries each audience's last number before this event (``marks``, read under the
    battle's lock, so none is missing), from which each socket learns its ``prev``.
    """
    events.declared(kind)  # refused before anything is stored: each kind is declared, with the parts it redraws
    marks = dict(BattleEvent.objects.filter(battle=battle).order_by().values_list("audience").annotate(Max("seq")))
    battle.last_seq += 1
    Battle.objects.filter(pk=battle.pk).update(last_seq=battle.last_seq)
    event = BattleEvent.objects.create(
        battle=battle, seq=battle.last_seq, kind=kind, audience=audience, payload=payload or {}
    )
    message = {"type": EVENT, "event": as_message(event), "marks": marks, "stamp": stamp(battle)}
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
    transaction.on_commit(lambda: committed.send_robust(Battle, battle=battle, kind=kind, payload=event.payload))
    if kind in ("created", "status"):  # the campaign page lists battles with their status
        campaign_live.campaign_changed(battle.campaign_id)
    return event


def stamp(battle: Battle) -> str:
    """The battle's version, round, status and whether its clock runs, as an event's message carries them:
    with the event's number, what the parts rendered after it are kept under (:mod:`masscombat.battles.parts`)."""
    return f"{battle.version}.{battle.round}.{battle.status}.{int(battle.deadline_at is not None)}"


def previous(marks: dict[str, int], is_gm: bool, audiences: list[str]) -> int:
    """The number of the last event a viewer with these audiences heard before the one ``marks`` came with.

    The GM hears every audience; anyone else, only theirs: the GM's presence
    events or the other side's declarations are no gap for them.
    """
    return max(marks.values() if is_gm else (marks.get(audience, 0) for audience in audiences), default=0)


def heard_by(is_gm: bool, audiences: list[str]):
    """The battle events a viewer hears (every one for the GM)."""
    every = BattleEvent.objects.all()
    return every if is_gm else every.filter(audience__in=audiences)


def last_heard(battle_id: int, is_gm: bool, audiences: list[str]) -> int:
    """The number of the last event this viewer should have by now: one query down the (battle, seq) index."""
    if is_gm:
        return Battle.objects.filter(pk=battle_id).values_list("last_seq", flat=True).first() or 0
    latest = heard_by(is_gm, audiences).filter(battle_id=battle_id).order_by("-seq").values_list("seq", flat=True)
    return latest.first() or 0


def missed(battle_id: int, last_seq: int, is_gm: bool, audiences: list[str]) -> list[dict] | None:
    """Events after ``last_seq`` this viewer may hear, oldest first, each with its ``prev``; None when too many."""
    after = heard_by(is_gm, audiences).filter(battle_id=battle_id, seq__gt=last_seq)
    found = list(after.order_by("seq")[: CATCH_UP_LIMIT + 1])
    if len(found) > CATCH_UP_LIMIT:
        return None
    return [{**as_message(event), "prev": before} for event, before in zip(found, [last_seq, *(e.seq for e in found)])]
