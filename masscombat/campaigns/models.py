"""Campaigns, who is in them, and how to get in.

A campaign has one or more game masters and any number of players, each a
:class:`Membership` with a role.  Players get in with the campaign's active
:class:`Invitation` (a short code, also shown as a link and a QR code); the GM
can revoke it or replace it with a new one.
"""

import secrets
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from masscombat.campaigns.rulesets import Ruleset
from masscombat.core.permissions import Role

# No 0/O, 1/I/L: a code read aloud across the table or typed on a phone must survive.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(raw: str) -> str:
    """What a person typed, as stored: capitals, no spaces or dashes."""
    return "".join(ch for ch in raw.upper() if ch.isalnum())


DISCORD_HOSTS = ("discord.com", "discordapp.com")


def discord_webhook(url: str) -> None:
    """A Discord webhook: https on Discord's hosts (any URL with ``ANY_WEBHOOK_URL``, for local tests).

    The server posts to this URL by itself: limiting it to Discord keeps a GM
    from pointing it at addresses inside the server's network.
    """
    if settings.ANY_WEBHOOK_URL:
        return
    parts = urlsplit(url)
    if parts.scheme != "https" or parts.hostname not in DISCORD_HOSTS or parts.port not in (None, 443):
        raise ValidationError(_("Give a Discord webhook address: https://discord.com/api/webhooks/…"))


class Campaign(models.Model):
    name = models.CharField(_("name"), max_length=100)
    ruleset = models.CharField(_("ruleset"), max_length=20, choices=Ruleset.choices)
    description = models.TextField(_("description"), blank=True, max_length=5000)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="campaigns", verbose_name=_("members")
    )
    language = models.CharField(_("language"), max_length=10, choices=settings.LANGUAGES,
                                default=settings.LANGUAGE_CODE,
                                help_text=_("The language of the messages posted to Discord."))
    discord_webhook = models.URLField(
        _("Discord webhook"), max_length=300, blank=True, validators=[discord_webhook],
        help_text=_("Each resolved round and each new battle is posted there (channel settings, Integrations)."),
    )
    # The last post that failed, shown to the GM on the campaign page; cleared by the next one that works.
    discord_error = models.CharField(max_length=300, blank=True)
    discord_error_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("campaigns:detail", args=[self.pk])


class Membership(models.Model):
    ROLE_CHOICES = [(Role.GM.value, _("Game master")), (Role.PLAYER.value, _("Player"))]

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=10, choices=ROLE_CHOICES, default=Role.PLAYER.value)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user"),
            models.CheckConstraint(condition=Q(role__in=["gm", "player"]), name="membership_role_known"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.campaign}"

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM


class Invitation(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    code = models.CharField(_("join code"), max_length=CODE_LENGTH, unique=True, default=new_code)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.UniqueConstraint(
                fields=["campaign"], condition=Q(revoked_at__isnull=True), name="one_active_invitation"
            )
        ]

    def __str__(self) -> str:
        return self.code

    @property
    def display_code(self) -> str:
        """The code in two halves, easier to read aloud: ``ABCD-EFGH``."""
        return f"{self.code[:4]}-{self.code[4:]}"

    def get_absolute_url(self) -> str:
        return reverse("campaigns:join-code", args=[self.code])
