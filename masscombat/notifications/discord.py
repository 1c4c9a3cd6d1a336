"""A campaign's Discord channel: a line per resolved round and per new battle, through its webhook.

A post that fails (Discord down, the webhook deleted) is logged and kept on
the campaign for its GM to see; it never touches the battle.
"""

import json
import logging
import urllib.error
import urllib.request

from django.utils import timezone

from masscombat.campaigns.models import Campaign

logger = logging.getLogger(__name__)
TIMEOUT_SECONDS = 10
MAX_CONTENT = 2000  # Discord refuses longer messages


def post(campaign: Campaign, content: str) -> bool:
    """Post ``content`` to the campaign's webhook; whether it was accepted.  The outcome is kept on the campaign."""
    if not campaign.discord_webhook:
        return False
    # No pings: a battle named "@everyone" must not wake the whole server.
    body = json.dumps({"content": content[:MAX_CONTENT], "allowed_mentions": {"parse": []}}).encode()
    request = urllib.request.Request(campaign.discord_webhook, data=body, method="POST", headers={
        "Content-Type": "application/json", "User-Agent": "masscombat (notifications)"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS):
            pass
    except urllib.error.HTTPError as exc:
        return _failed(campaign, f"HTTP {exc.code} {exc.reason}")
    except (OSError, ValueError) as exc:  # refused, unreachable, timed out, a malformed address
        return _failed(campaign, str(getattr(exc, "reason", None) or exc))
    Campaign.objects.filter(pk=campaign.pk).update(discord_error="", discord_error_at=None)
    return True


def _failed(campaign: Campaign, error: str) -> bool:
    logger.warning("Discord post of campaign %s failed: %s", campaign.pk, error)
    Campaign.objects.filter(pk=campaign.pk).update(discord_error=error[:300], discord_error_at=timezone.now())
    return False
