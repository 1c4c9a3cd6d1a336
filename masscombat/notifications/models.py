"""Where each user is reached (push subscriptions), what they want to hear, and the server's VAPID keys."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# The kinds of message, each switched on or off per user and per channel.
YOUR_TURN, REMINDER, ROUND_RESOLVED, BATTLE_STARTED = "your_turn", "reminder", "round_resolved", "battle_started"
KINDS = (
    (YOUR_TURN, _("Your turn: a round starts and you have orders to give")),
    (REMINDER, _("Orders missing: a reminder before the round's deadline")),
    (ROUND_RESOLVED, _("A round of your battle is resolved")),
    (BATTLE_STARTED, _("A battle starts in one of your campaigns")),
)
PUSH, EMAIL = "push", "email"


def switch(channel: str, kind: str) -> str:
    """The name of the field that switches ``kind`` on ``channel``."""
    return f"{channel}_{kind}"


class Preferences(models.Model):
    """One user's switches, and the language they last used (messages sent later speak it)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    language = models.CharField(max_length=10, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE)
    push_your_turn = models.BooleanField(default=True)
    push_reminder = models.BooleanField(default=True)
    push_round_resolved = models.BooleanField(default=True)
    push_battle_started = models.BooleanField(default=True)
    email_your_turn = models.BooleanField(default=True)
    email_reminder = models.BooleanField(default=True)
    email_round_resolved = models.BooleanField(default=True)
    email_battle_started = models.BooleanField(default=True)

    def wants(self, channel: str, kind: str) -> bool:
        return getattr(self, switch(channel, kind))


class PushSubscription(models.Model):
    """One browser (one device) that agreed to receive this user's notifications."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    def info(self) -> dict:
        """The subscription as the browser gave it, as pywebpush takes it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class VapidKey(models.Model):
    """The server's one key pair for Web Push, made the first time it is needed (never in the code)."""

    private_pem = models.TextField()
    public_key = models.CharField(max_length=200)  # base64url, uncompressed point: the browser's applicationServerKey
    created_at = models.DateTimeField(auto_now_add=True)


class CampaignOrigin(models.Model):
    """The address (``scheme://host[:port]``) a request of the campaign last came in by.

    A job with no request around it (a round resolved at its deadline, a
    reminder) builds its links on it: the players reached the campaign there.
    """

    campaign = models.OneToOneField("campaigns.Campaign", on_delete=models.CASCADE, primary_key=True, related_name="+")
    url = models.CharField(max_length=300)
    updated_at = models.DateTimeField(auto_now=True)


class SentReminder(models.Model):
    """The "orders missing" reminder of one deadline (a battle's round and deadline version) was sent.

    The deadlines' schedule defers one reminder per deadline, but a job can
    run twice (the SQLite clock reads the deadlines again every minute, a
    procrastinate job may be retried): the first run takes this row, the
    others find it taken and stay silent.
    """

    battle = models.ForeignKey("battles.Battle", on_delete=models.CASCADE, related_name="+")
    round = models.PositiveIntegerField()
    version = models.PositiveIntegerField()
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["battle", "round", "version"], name="one_reminder_per_deadline")]
