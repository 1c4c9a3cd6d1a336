"""Websocket of a watch link: ``ws/watch/<token>/`` (issue #19).

The battle room's socket (:class:`~masscombat.battles.consumers.BattleConsumer`),
with the same hello, catch-up, gap and heartbeat protocol and the same pushed
parts, for whoever holds a live watch link, signed in or not: it hears only
the events meant for everyone (``live.ALL``: no GM audience, no side's) and
gets the public's renderings of the parts (the ``watch`` audience of
:mod:`masscombat.battles.parts`), leaves no presence row,
and is closed (4403, not reopened) when the link is revoked, or at the next
hello once it no longer opens the battle.
"""

import asyncio

from channels.db import database_sync_to_async
from django.http import Http404

from masscombat.battles import events, live, push, spectators
from masscombat.battles.consumers import BattleConsumer, language_of
from masscombat.campaigns.consumers import REFUSED


class SpectatorConsumer(BattleConsumer):
    async def connect(self) -> None:
        self.token = self.scope["url_route"]["kwargs"]["token"]
        spectator = await self.current_spectator()
        if spectator is None:
            await self.close(code=REFUSED)
            return
        self.battle_id = spectator.battle.pk
        self.is_gm, self.audiences = False, [live.ALL]
        self.watcher, self.language = push.Watcher(spectator), language_of(self.scope)
        self.groups_joined = [live.group_name(self.battle_id, live.ALL), spectators.group_name(self.battle_id)]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        self.tasks = [asyncio.create_task(self.keep_count())]

    async def current_spectator(self) -> spectators.Spectator | None:
        """The public's view of the battle the link opens (loaded once per socket), None once revoked."""
        try:
            return await database_sync_to_async(spectators.watching)(self.token)
        except Http404:
            return None

    async def check_access(self) -> bool:
        """The link still opens this battle; else the socket closes for good."""
        if await database_sync_to_async(spectators.watched_battle_id)(self.token) == self.battle_id:
            return True
        self.ready = False
        await self.refuse()
        return False

    def redrawn_by(self, event: dict) -> list[str]:
        return [name for name in super().redrawn_by(event) if name != events.DECLARE]  # a watcher declares nothing

    async def watch_revoked(self, message: dict) -> None:
        if not self.refused:
            await self.check_access()

    async def disconnect(self, code: int) -> None:
        for task in self.tasks:
            task.cancel()
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
