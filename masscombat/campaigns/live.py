"""Telling a campaign's open pages that it changed (over the channel layer).

One group per campaign; every browser showing the campaign listens on
:class:`masscombat.campaigns.consumers.CampaignConsumer` and refreshes the
parts that changed.  Messages go out only once the transaction that made
the change has committed, so no page reloads to find the old state.

Every change has a number, counted per campaign in the cache (shared by the
server processes when Redis is configured, as the channel layer is): the
message carries it (``seq``), and the campaign's socket says the last one now
and then (:mod:`masscombat.campaigns.consumers`), so a page that lost a message
(the Redis link cut while it was in flight) sees the gap and refreshes.

One group per user too: when someone's place in a campaign changes (removed,
another role, the campaign deleted) every socket they have open on it, the
campaign page's and the battle rooms', checks again what they may hear and
closes when it is nothing (:func:`access_changed`).
"""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import transaction

CHANGED = "campaign.changed"
ACCESS_CHANGED = "access.changed"  # handled by every member's socket: check again, or close


def group_name(campaign_id: int) -> str:
    return f"campaign-{campaign_id}"


def user_group(user_id: int) -> str:
    return f"member-{user_id}"


def _after_commit(sends: list[tuple[str, dict]]) -> None:
    def send() -> None:
        layer = get_channel_layer()
        for group, message in sends:
            async_to_sync(layer.group_send)(group, message)

    # Robust: with the channel layer down (Redis restarting) the change is still saved and
    # the request still succeeds; pages catch up from the database when they reconnect.
    transaction.on_commit(send, robust=True)


def _seq_key(campaign_id: int) -> str:
    return f"campaign-live-seq:{campaign_id}"


def last_seq(campaign_id: int) -> int:
    """The number of the campaign's last change message (0: none counted, or the cache lost them)."""
    return cache.get(_seq_key(campaign_id)) or 0


def _next_seq(campaign_id: int) -> int:
    key = _seq_key(campaign_id)
    cache.add(key, 0, timeout=None)
    try:
        return cache.incr(key)
    except ValueError:  # evicted, or no cache answering: the count starts again, pages refresh once
        cache.set(key, 1, timeout=None)
        return 1


def campaign_changed(campaign_id: int) -> None:
    def send() -> None:
        message = {"type": CHANGED, "seq": _next_seq(campaign_id)}
        async_to_sync(get_channel_layer().group_send)(group_name(campaign_id), message)

    # Numbered when sent, after the commit: a rolled-back change takes no number, so it makes no gap.
    transaction.on_commit(send, robust=True)


def access_changed(campaign_id: int, user_ids) -> None:
    """The sockets these users have open on the campaign check their access again once this commits."""
    _after_commit([(user_group(user_id), {"type": ACCESS_CHANGED, "campaign": campaign_id}) for user_id in user_ids])
