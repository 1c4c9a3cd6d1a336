"""Websockets of a campaign's members: the campaign page's, and the base of the battle room's.

:class:`MemberSocket` is what every such socket shares: it decodes what the
client sends through :func:`masscombat.core.jsonsafe.loads` (bad or deeply
nested JSON gets an error event, never a crashed consumer), and it listens
on its user's group so that a member removed, given another role, or whose
campaign is deleted, is checked again at once and closed with the refusal
code when they may no longer look (:func:`masscombat.campaigns.live.access_changed`).
Each socket answers at most ``HELLO_LIMIT`` hellos in any ``HELLO_WINDOW``
seconds (:meth:`MemberSocket.hello_allowed`): a hello costs a database read
(the campaign's last number, a battle's catch-up), so a client sending a
thousand gets an error event for all but the first few.
"""

import asyncio
import time
from collections import deque

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.core.exceptions import PermissionDenied
from django.http import Http404

from masscombat.campaigns import live
from masscombat.campaigns.access import authorize
from masscombat.core import jsonsafe
from masscombat.core.permissions import Action

REFUSED = 4403  # the client does not reconnect after it
COUNT_SECONDS = 20.0  # how often the campaign's socket says the last change's number
HELLO_LIMIT, HELLO_WINDOW = 5, 10.0
TOO_MANY_HELLOS = "Too many hellos: wait a few seconds."


class MemberSocket(AsyncJsonWebsocketConsumer):
    campaign_id: int | None = None
    following: str | None = None  # the user's group, once joined
    refused = False  # closed for lost access: nothing more is sent, nothing asked is answered
    hellos: deque | None = None  # when this socket's last hellos came (time.monotonic)
    bad_message = "Send JSON text."

    async def follow_access(self, campaign_id: int) -> None:
        """Join the user's group: their access to ``campaign_id`` is checked again whenever it changes."""
        self.campaign_id = campaign_id
        self.following = live.user_group(self.scope["user"].pk)
        await self.channel_layer.group_add(self.following, self.channel_name)

    async def disconnect(self, code: int) -> None:
        if self.following:
            await self.channel_layer.group_discard(self.following, self.channel_name)

    async def refuse(self) -> None:
        self.refused = True
        await self.close(code=REFUSED)

    async def access_changed(self, message: dict) -> None:
        if message.get("campaign") == self.campaign_id and not self.refused:
            await self.check_access()

    async def check_access(self) -> bool:
        """Whether the user may still look (closing the socket when not); each socket says how."""
        raise NotImplementedError

    def hello_allowed(self) -> bool:
        """At most ``HELLO_LIMIT`` hellos in any ``HELLO_WINDOW`` seconds on this socket; each is a database read."""
        if self.hellos is None:
            self.hellos = deque()
        now = time.monotonic()
        while self.hellos and now - self.hellos[0] >= HELLO_WINDOW:
            self.hellos.popleft()
        if len(self.hellos) >= HELLO_LIMIT:
            return False
        self.hellos.append(now)
        return True

    async def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        if self.refused:
            return
        try:
            content = jsonsafe.loads(text_data) if text_data is not None else None
        except ValueError:
            content = None
        if content is None:
            await self.send_json({"type": "error", "error": self.bad_message})
            return
        await self.receive_json(content, **kwargs)


class CampaignConsumer(MemberSocket):
    """The campaign page's socket: pushes "changed" so the page refreshes its lists (it expects nothing back).

    Each change carries its number (``seq``); answering the page's ``hello``
    (``ready``) and every ``COUNT_SECONDS`` after it (``heartbeat``) the socket
    says the last number, so a page that missed a change (its message lost, or
    sent while it was away) sees a number it never got and refreshes.  A change only tells the page to reload
    its lists, so there is nothing to replay: one refresh covers any gap.
    """

    counting: asyncio.Task | None = None

    async def connect(self) -> None:
        campaign_id = self.scope["url_route"]["kwargs"]["campaign_id"]
        try:
            await database_sync_to_async(authorize)(self.scope["user"], Action.VIEW, campaign_id)
        except (Http404, PermissionDenied):
            await self.close(code=REFUSED)
            return
        self.group = live.group_name(campaign_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.follow_access(campaign_id)
        await self.accept()

    async def receive_json(self, content, **kwargs) -> None:
        """``{"type": "hello"}``: the page follows the numbers; it hears the last one now and every heartbeat."""
        if not isinstance(content, dict) or content.get("type") != "hello":
            return
        if not self.hello_allowed():
            await self.send_json({"type": "error", "error": TOO_MANY_HELLOS})
            return
        await self.send_count("ready")
        if self.counting is None:
            self.counting = asyncio.create_task(self.keep_count())

    async def send_count(self, kind: str) -> None:
        await self.send_json({"type": kind, "last_seq": await database_sync_to_async(live.last_seq)(self.campaign_id)})

    async def keep_count(self) -> None:
        while True:
            await asyncio.sleep(COUNT_SECONDS)
            if not self.refused:
                await self.send_count("heartbeat")

    async def disconnect(self, code: int) -> None:
        if self.counting is not None:
            self.counting.cancel()
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await super().disconnect(code)

    async def check_access(self) -> bool:
        try:
            await database_sync_to_async(authorize)(self.scope["user"], Action.VIEW, self.campaign_id)
        except (Http404, PermissionDenied):
            await self.refuse()
            return False
        return True

    async def campaign_changed(self, event: dict) -> None:
        if not self.refused:
            await self.send_json({"type": live.CHANGED, "seq": event.get("seq", 0)})
