"""A battle played live: its state, who plays what, declarations, rounds and events.

A :class:`Battle` holds the rules engine's state as JSON and the random
``seed`` it was given at creation, so every round's dice are reproducible.
Players declare through :class:`Declaration` rows (one per participant and
round, changeable until the round resolves); a resolution stores a
:class:`Round` with everything needed to undo it exactly or to replay it.
Every change is also a :class:`BattleEvent` with a per-battle sequence
number: the websocket pushes them, and a client that reconnects receives the
ones it missed from this table.
"""

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# Engine seeds are signed 64-bit; a battle's seed leaves room to add the round number.
SEED_BITS = 62


def new_seed() -> int:
    return secrets.randbits(SEED_BITS)


class Battle(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        PAUSED = "paused", _("paused")
        OVER = "over", _("over: aftermath to confirm")
        CLOSED = "closed", _("closed")

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="battles", verbose_name=_("campaign")
    )
    name = models.CharField(_("name"), max_length=100)
    ruleset = models.CharField(_("ruleset"), max_length=20)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.RUNNING)
    seed = models.BigIntegerField(_("seed"), default=new_seed)
    # The new-battle input and its complete output dice: enough to rebuild the initial state.
    setup = models.JSONField(_("setup"), default=dict)
    state = models.JSONField(_("state"), default=dict)
    # Rounds resolved so far; the round being declared is ``round + 1``.
    round = models.PositiveIntegerField(_("round"), default=0)
    auto_resolve = models.BooleanField(
        _("resolve automatically"),
        default=False,
        help_text=_("Resolve the round as soon as every required declaration is in."),
    )
    # Round deadlines (masscombat/battles/deadlines.py): the GM's duration per round (none: the
    # round waits for the GM), when the current round resolves, the seconds left while the GM has
    # the clock paused, and a number bumped by every change so a job for an older deadline does nothing.
    deadline_minutes = models.PositiveIntegerField(_("round deadline (minutes)"), null=True, blank=True)
    deadline_at = models.DateTimeField(_("round deadline"), null=True, blank=True)
    deadline_left = models.PositiveIntegerField(null=True, blank=True)
    deadline_version = models.PositiveIntegerField(default=0)
    # The end-of-battle operation's output, shown to the GM until confirmed.
    aftermath = models.JSONField(_("aftermath"), null=True, blank=True)
    last_seq = models.PositiveBigIntegerField(default=0)
    version = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("battle")
        verbose_name_plural = _("battles")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("battles:room", args=[self.pk])

    @property
    def current_round(self) -> int:
        return self.round + 1

    @property
    def accepts_declarations(self) -> bool:
        return self.status == self.Status.RUNNING


class BattleParticipant(models.Model):
    """Someone (or something the GM plays) who declares: a side's commander or a hero.

    ``kind`` and ``ref`` are the engine's participant kind and id for
    ``declaration-options``; ``key`` (``"side:a"``, ``"hero:lucie"``) names
    it in declarations and events.  ``user`` is null when the GM plays it.
    """

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="participants")
    kind = models.CharField(max_length=20)
    ref = models.CharField(max_length=64)
    side = models.CharField(_("side"), max_length=20)
    name = models.CharField(_("name"), max_length=100)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("player"),
    )
    # The roster entries it came from, where the aftermath is written back (ids, not foreign
    # keys: a roster entry deleted mid-battle must not take the battle's history with it).
    army_id = models.PositiveBigIntegerField(null=True, blank=True)
    hero_id = models.PositiveBigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["side", "kind", "name", "pk"]
        constraints = [models.UniqueConstraint(fields=["battle", "kind", "ref"], name="one_participant_per_ref")]

    def __str__(self) -> str:
        return self.name

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.ref}"


class Declaration(models.Model):
    """What one participant declared for one round: ``{option path: value}``."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="declarations")
    round = models.PositiveIntegerField()
    participant = models.CharField(max_length=100)
    data = models.JSONField(default=dict)
    declared_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["participant"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "round", "participant"], name="one_declaration_per_round")
        ]


class Round(models.Model):
    """One resolved round: enough to undo it exactly, report it and replay it."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    state_before = models.JSONField()
    declarations = models.JSONField(default=dict)
    dice = models.JSONField(default=dict)
    # The engine output without its state, dice and log (report, events, ...).
    output = models.JSONField(default=dict)
    events = models.JSONField(default=list)
    log = models.JSONField(default=list)
    strength = models.JSONField(default=dict)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    resolved_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["battle", "number"], name="one_round_per_number")]


class BattleEvent(models.Model):
    """One change, in order: what the websocket sends and a reconnecting client catches up on.

    ``audience`` is ``"all"``, ``"gm"`` or ``"side:<id>"``.
    """

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveBigIntegerField()
    kind = models.CharField(max_length=30)
    audience = models.CharField(max_length=40, default="all")
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["battle", "seq"], name="one_event_per_seq")]


class Connection(models.Model):
    """One open websocket of a battle room: who is here, for the GM's presence list.

    ``last_seen`` is refreshed by the socket's own server process while it
    lives; a row that stops being refreshed is a ghost (:mod:`masscombat.battles.presence`).
    """

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="connections")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    channel_name = models.CharField(max_length=200, unique=True)
    connected_at = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["battle", "last_seen"], name="battles_connection_seen")]


def new_watch_token() -> str:
    return secrets.token_urlsafe(24)


class SpectatorLink(models.Model):
    """A battle's read-only watch link (issue #19): whoever holds its token watches the battle as the
    public, without an account.  A revoked link keeps its row, so that its token is refused for good
    rather than ever given again; a battle has at most one link not revoked (its GM shares that one)."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="spectator_links")
    token = models.CharField(max_length=64, unique=True, default=new_watch_token)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["battle"], condition=models.Q(revoked_at__isnull=True),
                                               name="one_watch_link_per_battle")]
