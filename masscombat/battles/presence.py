"""Who has a battle room open: presence rows that fade unless their socket keeps them alive.

A :class:`Connection` row is written when a socket opens and deleted when it
closes.  A server process that dies (``kill -9``, a crash, a restart) never
runs that delete, and its rows would show the GM ghosts "online" forever.  So
each socket's consumer refreshes its row's ``last_seen`` every
``HEARTBEAT_SECONDS`` from a task of its own process (:meth:`beat`): the rows
of a dead process stop being refreshed, count for nothing once older than
``STALE_AFTER_SECONDS`` (:func:`live_connections`), and are deleted, with a
presence event for the GM, at the next connect or heartbeat in that battle
(:func:`purge`).

Why a server-side heartbeat rather than a client ping or process ids:
what outlives a socket here is the server process, not the client (a phone
that vanishes without closing is caught by the server's own websocket ping,
which closes the socket and runs the delete); a heartbeat needs no change in
the browser, works the same with any number of server processes on any
machine, and needs nothing to restart, whereas rows tagged with a process id
and cleaned at startup stay ghosts when the dead process is never restarted.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import DatabaseError, transaction
from django.utils import timezone

from masscombat.battles import live
from masscombat.battles.models import Battle, Connection

logger = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 30.0
# Two missed heartbeats are forgiven (a slow database, a busy event loop): the third makes a ghost.
STALE_AFTER_SECONDS = 3 * HEARTBEAT_SECONDS


def cutoff():
    return timezone.now() - timedelta(seconds=STALE_AFTER_SECONDS)


def live_connections(battle_id: int):
    """The battle's rows still kept alive by a running process."""
    return Connection.objects.filter(battle_id=battle_id, last_seen__gte=cutoff())


def purge(battle: Battle) -> None:
    """Delete the battle's ghost rows (the caller holds the battle row locked) and tell the GM who left."""
    stale = Connection.objects.filter(battle=battle, last_seen__lt=cutoff())
    gone = sorted(set(stale.values_list("user_id", flat=True)))
    if gone:
        stale.delete()
        for user_id in gone:
            live.emit(battle, "presence", {"user": user_id, "connected": False}, audience=live.GM)


def connected(battle_id: int, user, channel_name: str) -> None:
    """A socket opened: its presence row, fresh; the battle's ghosts go, and the GM hears who came."""
    with transaction.atomic():
        battle = Battle.objects.select_for_update().get(pk=battle_id)
        purge(battle)
        Connection.objects.update_or_create(channel_name=channel_name, defaults={
            "battle": battle, "user": user, "last_seen": timezone.now()})
        live.emit(battle, "presence", {"user": user.pk, "connected": True}, audience=live.GM)


def disconnected(battle_id: int, user, channel_name: str) -> None:
    """A socket closed: its row goes, and the GM hears who left (nothing when the battle is gone)."""
    with transaction.atomic():
        battle = Battle.objects.select_for_update().filter(pk=battle_id).first()
        deleted, _rows = Connection.objects.filter(channel_name=channel_name).delete()
        if battle is not None and deleted:
            live.emit(battle, "presence", {"user": user.pk, "connected": False}, audience=live.GM)


def beat(battle_id: int, user, channel_name: str) -> None:
    """One heartbeat of an open socket: its row is fresh again, and the battle's ghosts go.

    The battle row is locked only when there is a ghost to remove, so the
    heartbeats of a busy room cost one UPDATE and one EXISTS each.  A row
    gone meanwhile (purged while the database was too slow to refresh it) is
    written again: the socket is open, so its user is here.
    """
    refreshed = Connection.objects.filter(channel_name=channel_name).update(last_seen=timezone.now())
    if not refreshed:
        connected(battle_id, user, channel_name)
        return
    if Connection.objects.filter(battle_id=battle_id, last_seen__lt=cutoff()).exists():
        with transaction.atomic():
            battle = Battle.objects.select_for_update().filter(pk=battle_id).first()
            if battle is not None:
                purge(battle)


def safe_beat(battle_id: int, user, channel_name: str) -> None:
    """A heartbeat that a database outage only skips: the next one, once it is back, catches up.

    A battle deleted under an open socket has nobody to be present for: nothing is written.
    """
    try:
        beat(battle_id, user, channel_name)
    except Battle.DoesNotExist:
        return
    except DatabaseError:
        logger.warning("presence heartbeat skipped for battle %s: database unavailable", battle_id, exc_info=True)
