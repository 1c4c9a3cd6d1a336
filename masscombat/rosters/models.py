"""A campaign's armies and heroes, kept between battles, and their history.

An army's and a hero's ``data`` is the ruleset engine's own input format (the
entity ``new-battle`` takes for one army / side and for one hero), so a roster
goes into a battle, and comes back out of it, without translation.  What each
ruleset's army and hero are lives in :mod:`masscombat.rosters.adapters`.

``version`` is an optimistic lock: every save through
:mod:`masscombat.rosters.services` checks the version the editor saw and bumps
it, so two people editing at once cannot overwrite each other silently.
Every change is a :class:`RosterChange`; a battle's aftermath names the battle
by id and label, so this app never imports the battles app.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Army(models.Model):
    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="armies", verbose_name=_("campaign")
    )
    name = models.CharField(_("name"), max_length=100)
    data = models.JSONField(_("data"), default=dict)
    commander = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="commanded_armies",
        verbose_name=_("commanding player"),
    )
    player_may_edit = models.BooleanField(_("the commanding player may edit it"), default=False)
    visible_to_players = models.BooleanField(_("visible to players"), default=True)
    version = models.PositiveIntegerField(_("version"), default=1)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("army")
        verbose_name_plural = _("armies")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("rosters:army", args=[self.campaign_id, self.pk])


class Hero(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        WOUNDED = "wounded", _("wounded")
        CAPTURED = "captured", _("captured")
        DEAD = "dead", _("dead")

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="heroes", verbose_name=_("campaign")
    )
    name = models.CharField(_("name"), max_length=100)
    data = models.JSONField(_("data"), default=dict)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="heroes",
        verbose_name=_("player"),
    )
    army = models.ForeignKey(
        Army, on_delete=models.SET_NULL, null=True, blank=True, related_name="heroes", verbose_name=_("army")
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    visible_to_players = models.BooleanField(_("visible to players"), default=True)
    version = models.PositiveIntegerField(_("version"), default=1)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("hero")
        verbose_name_plural = _("heroes")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("rosters:hero", args=[self.campaign_id, self.pk])


class RosterChange(models.Model):
    """One change to an army or a hero: what it was, what it became, and why."""

    class SourceKind(models.TextChoices):
        EDIT = "edit", _("edit")
        IMPORT = "import", _("import")
        BATTLE = "battle", _("battle")

    army = models.ForeignKey(Army, on_delete=models.CASCADE, null=True, blank=True, related_name="changes")
    hero = models.ForeignKey(Hero, on_delete=models.CASCADE, null=True, blank=True, related_name="changes")
    kind = models.CharField(_("kind"), max_length=20)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    # Numbers to chart, e.g. {"strength": 540}.
    summary = models.JSONField(_("summary"), default=dict, blank=True)
    source_kind = models.CharField(_("source"), max_length=10, choices=SourceKind.choices, default=SourceKind.EDIT)
    source_id = models.PositiveBigIntegerField(_("source id"), null=True, blank=True)
    source_label = models.CharField(_("source label"), max_length=200, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("date"), auto_now_add=True)

    class Meta:
        verbose_name = _("roster change")
        verbose_name_plural = _("roster changes")
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["army", "created_at"]), models.Index(fields=["hero", "created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} ({self.source_kind})"
