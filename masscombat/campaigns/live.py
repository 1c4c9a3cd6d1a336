"""Telling a campaign's open pages that it changed (over the channel layer).

One group per campaign; every browser showing the campaign listens on
:class:`masscombat.campaigns.consumers.CampaignConsumer` and refreshes the
parts that changed.  Messages go out only once the transaction that made
the change has committed, so no page reloads to find the old state.
"""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

CHANGED = "campaign.changed"


def group_name(campaign_id: int) -> str:
    return f"campaign-{campaign_id}"


def campaign_changed(campaign_id: int) -> None:
    def send() -> None:
        async_to_sync(get_channel_layer().group_send)(group_name(campaign_id), {"type": CHANGED})

    # Robust: with the channel layer down (Redis restarting) the change is still saved and
    # the request still succeeds; pages catch up from the database when they reconnect.
    transaction.on_commit(send, robust=True)
