"""Spectators (issue #19): a battle watched read-only through a link the GM shares.

The GM creates one watch link per battle (a random token, :class:`SpectatorLink`)
and may revoke it.  Whoever holds a live link, signed in or not, sees the room
as the engines' public viewer (``engines.PUBLIC``): what every side may see,
never a side's hidden piece or secret orders, and no form or GM control.  The
spectator's socket hears only the events meant for everyone, and is closed
when the link is revoked.  A spectator is no presence row: the GM's "Here now"
lists players only.
"""

from __future__ import annotations

from functools import cached_property

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.http import Http404
from django.utils import timezone

from masscombat.battles import live, selectors
from masscombat.battles.models import Battle, SpectatorLink
from masscombat.core.permissions import Access, Action, Role

REVOKED = "watch.revoked"  # the channel-layer message the spectator socket handles (``watch_revoked``)


class Spectator(selectors.Viewer):
    """The battle as a watch link's holder sees it: no role in the campaign, no participant, no side.

    ``mine`` is empty whoever the user is, so a signed-in holder who plays in
    the battle still watches it as the public here (their room is elsewhere)."""

    @cached_property
    def mine(self) -> list:
        return []


def live_link(battle_id: int) -> SpectatorLink | None:
    """The battle's watch link not revoked, if any."""
    return SpectatorLink.objects.filter(battle_id=battle_id, revoked_at__isnull=True).first()


def watched_battle_id(token: str) -> int | None:
    """The battle a live link's token opens (None: unknown or revoked)."""
    return (SpectatorLink.objects.filter(token=token, revoked_at__isnull=True)
            .values_list("battle_id", flat=True).first())


def watching(token: str) -> Spectator:
    """The battle a link opens, as its holder sees it; 404 for a token unknown or revoked."""
    battle_id = watched_battle_id(token)
    battle = Battle.objects.select_related("campaign").filter(pk=battle_id).first() if battle_id else None
    if battle is None:
        raise Http404
    return Spectator(battle, Access(battle.campaign, Role.OUTSIDER), AnonymousUser(),
                     list(battle.participants.select_related("user")))


def create_link(user, battle_id: int) -> SpectatorLink:
    """The GM's watch link for the battle: the live one when there is one (asking twice gives one link)."""
    with transaction.atomic():
        battle = selectors.viewer(user, Action.BATTLE_MANAGE, battle_id, lock=True).battle
        link = live_link(battle.pk)
        if link is None:
            link = SpectatorLink.objects.create(battle=battle, created_by=user)
            live.emit(battle, "watch_link", audience=live.GM)  # the GM's open rooms show it
        return link


def revoke_link(user, battle_id: int) -> bool:
    """End the battle's watch link (whether there was one); open spectator sockets are closed."""
    with transaction.atomic():
        battle = selectors.viewer(user, Action.BATTLE_MANAGE, battle_id, lock=True).battle
        ended = SpectatorLink.objects.filter(battle=battle, revoked_at__isnull=True).update(revoked_at=timezone.now())
        if ended:
            live.emit(battle, "watch_link", audience=live.GM)
            transaction.on_commit(lambda: _tell_sockets(battle.pk), robust=True)
    return bool(ended)


def group_name(battle_id: int) -> str:
    """The channel-layer group of the battle's spectator sockets."""
    return f"battle-{battle_id}-watch"


def _tell_sockets(battle_id: int) -> None:
    async_to_sync(get_channel_layer().group_send)(group_name(battle_id), {"type": REVOKED})
