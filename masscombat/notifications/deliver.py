"""Who hears a message and by which channel: push on the devices they subscribed, else e-mail; their switches decide."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable

from django.utils import translation

from masscombat.battles import selectors
from masscombat.notifications import mail, push
from masscombat.notifications.messages import Message
from masscombat.notifications.models import EMAIL, PUSH, Preferences, PushSubscription

logger = logging.getLogger(__name__)


def waiting_users(battle) -> list:
    """The players who still have orders to give this round (the engine's ``round-participants``, less who declared)."""
    keys = {p.key for p in selectors.missing(battle, selectors.declarations(battle))}
    seen, users = set(), []
    for participant in battle.participants.select_related("user"):
        if participant.key in keys and participant.user is not None and participant.user.pk not in seen:
            seen.add(participant.user.pk)
            users.append(participant.user)
    return users


def players(battle) -> list:
    """Every user who plays a participant of the battle, once each."""
    return list({p.user.pk: p.user for p in battle.participants.select_related("user") if p.user is not None}.values())


def notify(users, kind: str, compose: Callable[[], Message]) -> dict[str, int]:
    """Send ``kind`` to each user in their language: by push if they subscribed a device, else by e-mail.

    Returns how many users were reached by each channel.  One user's failure
    is logged and the others still get theirs.
    """
    users = list(users)
    preferences = {p.user_id: p for p in Preferences.objects.filter(user__in=users)}
    devices = defaultdict(list)
    for subscription in PushSubscription.objects.filter(user__in=users):
        devices[subscription.user_id].append(subscription)
    reached = {PUSH: 0, EMAIL: 0}
    for user in users:
        prefs = preferences.get(user.pk) or Preferences(user=user)
        channel = PUSH if devices[user.pk] else EMAIL
        if not prefs.wants(channel, kind):
            continue
        try:
            with translation.override(prefs.language):
                message = compose()
                sent = push.send(devices[user.pk], message) if channel == PUSH else mail.send(user, message)
        except Exception:
            logger.exception("%s notification %s to user %s failed", channel, kind, user.pk)
            continue
        reached[channel] += bool(sent)
    return reached
