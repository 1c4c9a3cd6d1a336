"""Web Push: one encrypted message to each device a user subscribed, signed with the server's VAPID key."""

import json
import logging

from django.conf import settings
from pywebpush import WebPushException, webpush

from masscombat.notifications import vapid
from masscombat.notifications.messages import Message
from masscombat.notifications.models import PushSubscription

logger = logging.getLogger(__name__)
# The push service keeps an undelivered message this long (a phone off for the night misses a turn, not a week).
TTL_SECONDS = 12 * 3600
GONE = (404, 410)  # the push service forgot this subscription: the browser unsubscribed


def send(subscriptions: list[PushSubscription], message: Message) -> int:
    """Push ``message`` to each subscription; how many accepted it.  Forgotten subscriptions are deleted."""
    data = json.dumps(message.as_push())
    signer = vapid.signer()
    sent = 0
    for subscription in subscriptions:
        try:
            webpush(subscription.info(), data=data, vapid_private_key=signer,
                    vapid_claims={"sub": settings.VAPID_CONTACT}, ttl=TTL_SECONDS, timeout=10)
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in GONE:
                subscription.delete()
            else:
                logger.warning("push to subscription %s failed: %s", subscription.pk, exc)
            continue
        sent += 1
    return sent
