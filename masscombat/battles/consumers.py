"""Websocket of a battle room: ``ws/battles/<id>/``.

On connect the session user is checked (campaign member, through
:func:`authorize`), then joins the groups of what they may hear: the public
one, their sides', and the GM's if GM.  The client then says
``{"type": "hello", "last_seq": n}`` and receives every event after ``n``
from the database (or ``{"type": "reload"}`` when it missed too many), then
the live ones; it drops duplicates by ``seq``.  Each open socket is a
presence row the GM sees, kept fresh by a heartbeat task of this process
while the socket is open (:mod:`masscombat.battles.presence`).
"""

import asyncio

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.core.exceptions import PermissionDenied
from django.http import Http404

from masscombat.battles import live, presence, selectors, services
from masscombat.core.permissions import Action

REFUSED = 4403


class BattleConsumer(AsyncJsonWebsocketConsumer):
    groups_joined: list[str] = []
    # Live events are forwarded only after the client's "hello" was answered, and only
    # past the last one sent: one connection then sends each event once, in order.  One
    # that arrives earlier was committed before the catch-up query, which includes it.
    ready = False
    sent_seq = 0
    heartbeat: asyncio.Task | None = None

    async def connect(self) -> None:
        self.battle_id = self.scope["url_route"]["kwargs"]["battle_id"]
        user = self.scope["user"]
        try:
            viewer = await database_sync_to_async(selectors.viewer)(user, Action.BATTLE_VIEW, self.battle_id)
        except (Http404, PermissionDenied):
            await self.close(code=REFUSED)
            return
        self.is_gm, self.audiences = viewer.is_gm, viewer.audiences
        self.groups_joined = [live.group_name(self.battle_id, audience) for audience in self.audiences]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await database_sync_to_async(services.connected)(self.battle_id, user, self.channel_name)
        self.heartbeat = asyncio.create_task(self.keep_presence(user))

    async def keep_presence(self, user) -> None:
        """Refresh this socket's presence row while it is open; it dies with the process, as it should."""
        while True:
            await asyncio.sleep(presence.HEARTBEAT_SECONDS)
            await database_sync_to_async(presence.safe_beat)(self.battle_id, user, self.channel_name)

    async def disconnect(self, code: int) -> None:
        if self.heartbeat is not None:
            self.heartbeat.cancel()
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.groups_joined:
            await database_sync_to_async(services.disconnected)(self.battle_id, self.scope["user"], self.channel_name)

    async def receive_json(self, content, **kwargs) -> None:
        if not isinstance(content, dict) or content.get("type") != "hello":
            await self.send_json({"type": "error", "error": "Unknown message: send {\"type\": \"hello\", \"last_seq\": n}."})
            return
        last_seq = content.get("last_seq", 0)
        if not isinstance(last_seq, int) or isinstance(last_seq, bool) or last_seq < 0:
            await self.send_json({"type": "error", "error": "last_seq must be a whole number, 0 or more."})
            return
        events = await database_sync_to_async(live.missed)(self.battle_id, last_seq, self.is_gm, self.audiences)
        if events is None:
            await self.send_json({"type": "reload"})
            return
        for event in events:
            await self.send_json(event)
        self.sent_seq = events[-1]["seq"] if events else last_seq
        self.ready = True
        await self.send_json({"type": "ready", "last_seq": self.sent_seq})

    async def battle_event(self, message: dict) -> None:
        event = message["event"]
        if not self.ready or event["seq"] <= self.sent_seq:
            return
        self.sent_seq = event["seq"]
        await self.send_json(event)
