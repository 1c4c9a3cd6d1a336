"""Websocket of a battle room: ``ws/battles/<id>/``.

On connect the session user is checked (campaign member, through
:func:`authorize`), then joins the groups of what they may hear: the public
one, their sides', and the GM's if GM.  The viewer (role, permissions,
participants) is loaded then, once for the socket (:class:`push.Watcher`),
and again only when access changes or the page says hello.  The client then
says ``{"type": "hello", "last_seq": n, "lang": "fr", "gzip": true}`` and
receives every event after ``n`` from the database (or ``{"type": "reload"}``
when it missed too many), then ``ready``, then the live events; it drops
duplicates by ``seq``.  Each open socket is a presence row the GM sees, kept
fresh by a heartbeat task of this process while the socket is open
(:mod:`masscombat.battles.presence`).

Each event names the parts of the room it redraws for this viewer
(``refresh``, :mod:`masscombat.battles.events`) and is followed by their new
HTML in one or two ``parts`` frames, rendered once per audience and language
(:mod:`masscombat.battles.push`): binary gzipped JSON when the page said
``gzip``, else JSON text.  Parts that could not be rendered are named in a
``{"type": "fetch", "parts": [...]}``: the page asks for those by GET.  After a
catch-up, the parts the missed events redrew come as they are now, after
``ready`` (which gives the ``marks`` the page puts its CSRF token and address
in place of).

An open socket can still lose a live event (a Redis connection cut while it
was in flight), so none is lost for good: every event carries ``prev``, the
number of the event this socket heard just before it, and every
``COUNT_SECONDS`` a ``{"type": "heartbeat", "last_seq": n}`` says the last
number it should have heard (:mod:`masscombat.battles.live`); a client that
sees a number it did not get says hello again.  Hellos are limited per
socket (:meth:`MemberSocket.hello_allowed`): past it an error
event, nothing replayed.  The socket closes when its user may no longer look
(:class:`masscombat.campaigns.consumers.MemberSocket`), and a hello is
answered only after the access was checked again.
"""

import asyncio

from channels.db import database_sync_to_async
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, connection
from django.http import Http404
from django.utils.translation import get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header

from masscombat.battles import events, live, parts, presence, push, selectors
from masscombat.campaigns.consumers import REFUSED, TOO_MANY_HELLOS, MemberSocket
from masscombat.core.permissions import Action

# A role changed under an open socket (a GM stepping back to player): the client reconnects
# and hears what the new role may.
RECONNECT = 4409
COUNT_SECONDS = 20.0


def _frames_apart(*args) -> tuple[list, list[str]]:
    """:func:`push.frames` in a thread of the event loop's pool, its database connection given back as soon as
    it is done.  channels' own clean-up after the call (``close_old_connections``) did not always release it: a
    probe of the pool saw each rendering thread keep its pooled connection, idle, until that thread's next
    call, so a few idle threads held connections the requests then waited for."""
    try:
        return push.frames(*args)
    finally:
        connection.close()


class BattleConsumer(MemberSocket):
    groups_joined: list[str] = []
    # Live events are forwarded only after the client's "hello" was answered, and only
    # past the last one sent: one connection then sends each event once, in order.  One
    # that arrives earlier was committed before the catch-up query, which includes it.
    ready = False
    sent_seq = 0
    tasks: list[asyncio.Task] = []
    watcher: push.Watcher | None = None
    language = settings.LANGUAGE_CODE  # the page's, from its hello (else the request's, when it opened)
    compressed = False  # whether the page inflates gzipped frames (it says so in its hello)
    bad_message = "Unknown message: send {\"type\": \"hello\", \"last_seq\": n}."

    async def connect(self) -> None:
        self.battle_id = self.scope["url_route"]["kwargs"]["battle_id"]
        user = self.scope["user"]
        viewer = await self.current_viewer()
        if viewer is None:
            await self.close(code=REFUSED)
            return
        self.is_gm, self.audiences = viewer.is_gm, viewer.audiences
        self.watcher, self.language = push.Watcher(viewer), language_of(self.scope)
        self.groups_joined = [live.group_name(self.battle_id, audience) for audience in self.audiences]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.follow_access(viewer.battle.campaign_id)
        await self.accept()
        await database_sync_to_async(presence.connected)(self.battle_id, user, self.channel_name)
        self.tasks = [asyncio.create_task(self.keep_presence(user)), asyncio.create_task(self.keep_count())]

    async def current_viewer(self) -> selectors.Viewer | None:
        try:
            return await database_sync_to_async(selectors.viewer)(self.scope["user"], Action.BATTLE_VIEW, self.battle_id)
        except (Http404, PermissionDenied):
            return None

    async def check_access(self) -> bool:
        """Refused now: closed for good.  Another role (other audiences): closed, to reconnect as it."""
        viewer = await self.current_viewer()
        if viewer is None:
            self.ready = False
            await self.refuse()
            return False
        if (viewer.is_gm, viewer.audiences) != (self.is_gm, self.audiences):
            self.ready, self.refused = False, True
            await self.close(code=RECONNECT)
            return False
        self.watcher = push.Watcher(viewer)
        return True

    async def keep_presence(self, user) -> None:
        """Refresh this socket's presence row while it is open; it dies with the process, as it should."""
        while True:
            await asyncio.sleep(presence.HEARTBEAT_SECONDS)
            await database_sync_to_async(presence.safe_beat)(self.battle_id, user, self.channel_name)

    async def keep_count(self) -> None:
        """Tell the client the last number it should have: a live event it never got shows as a gap."""
        while True:
            await asyncio.sleep(COUNT_SECONDS)
            if not self.ready:
                continue
            try:
                last = await database_sync_to_async(live.last_heard)(self.battle_id, self.is_gm, self.audiences)
            except DatabaseError:  # the next one, once the database is back
                continue
            await self.send_json({"type": "heartbeat", "last_seq": last})

    async def disconnect(self, code: int) -> None:
        for task in self.tasks:
            task.cancel()
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        await super().disconnect(code)
        if self.groups_joined:
            await database_sync_to_async(presence.disconnected)(self.battle_id, self.scope["user"], self.channel_name)

    async def receive_json(self, content, **kwargs) -> None:
        if not isinstance(content, dict) or content.get("type") != "hello":
            await self.send_json({"type": "error", "error": self.bad_message})
            return
        last_seq = content.get("last_seq", 0)
        if not isinstance(last_seq, int) or isinstance(last_seq, bool) or last_seq < 0:
            await self.send_json({"type": "error", "error": "last_seq must be a whole number, 0 or more."})
            return
        if not self.hello_allowed():
            await self.send_json({"type": "error", "error": TOO_MANY_HELLOS})
            return
        if not await self.check_access():
            return
        self.read_hello(content)
        missed = await database_sync_to_async(live.missed)(self.battle_id, last_seq, self.is_gm, self.audiences)
        if missed is None:
            await self.send_json({"type": "reload"})
            return
        redrawn = []
        for event in missed:
            names = self.redrawn_by(event)
            redrawn.extend(name for name in names if name not in redrawn)
            await self.send_json({**event, "refresh": names})
        self.sent_seq = missed[-1]["seq"] if missed else last_seq
        self.ready = True
        await self.send_json({"type": "ready", "last_seq": self.sent_seq,
                              "marks": {"csrf": parts.CSRF_MARK, "origin": parts.ORIGIN_MARK}})
        await self.push(redrawn, self.sent_seq)  # what the missed events redrew, as it is now

    def read_hello(self, content: dict) -> None:
        """The page's language (its pushed parts are in it) and whether it inflates gzip; both optional."""
        language = content.get("lang")
        if isinstance(language, str) and language in dict(settings.LANGUAGES):
            self.language = language
        self.compressed = content.get("gzip") is True

    def redrawn_by(self, event: dict) -> list[str]:
        """The parts of this socket's room the event redraws (a ruleset played without a map has none)."""
        names = events.parts_for(event["kind"], event.get("payload"), is_gm=self.is_gm)
        return [name for name in names if name != events.MAP or self.watcher.viewer.adapter.uses_map]

    async def push(self, names: list[str], seq: int, stamp: str | None = None) -> None:
        """The new HTML of ``names`` for this socket's audience, as of event ``seq`` (rendered once per
        audience, or cached); those that could not be rendered are named for the page to ask by GET."""
        if not names:
            return
        try:  # in a thread of its own: a rendering holds up no other socket's database work
            found, failed = await database_sync_to_async(_frames_apart, thread_sensitive=False)(
                self.watcher, names, seq, self.language, self.compressed, stamp)
        except DatabaseError:  # the page asks for them by GET, and catches up when the database is back
            found, failed = [], names
        for frame in found:
            if isinstance(frame, bytes):
                await self.send(bytes_data=frame)
            else:
                await self.send(text_data=frame)
        if failed:
            await self.send_json({"type": "fetch", "seq": seq, "parts": failed})

    async def battle_event(self, message: dict) -> None:
        event = message["event"]
        if not self.ready or event["seq"] <= self.sent_seq:
            return
        self.sent_seq = event["seq"]
        names = self.redrawn_by(event)
        prev = live.previous(message.get("marks", {}), self.is_gm, self.audiences)
        await self.send_json({**event, "prev": prev, "refresh": names})
        await self.push(names, event["seq"], message.get("stamp"))


def language_of(scope) -> str:
    """The language the page was most likely served in (its language cookie, else the browser's first
    supported choice), until its hello says which."""
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
    headers = dict(scope.get("headers") or [])
    wanted = [cookie] if cookie else []
    wanted += [code for code, _q in parse_accept_lang_header(headers.get(b"accept-language", b"").decode("latin-1"))]
    for code in wanted:
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE
