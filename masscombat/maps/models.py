"""Battle maps, stored per campaign.

A map is one of three kinds, fixed by the campaign's ruleset (see
:mod:`masscombat.maps.kinds`): a square grid (D&D 5e), a grid of
flat-topped hexes (HÉROS) or a set of linked zones (JdRWiki).  ``data`` holds
the terrain in the ruleset's own terms, already in the shape its engine's
``new-battle`` reads, plus what only the page needs (where a zone is drawn):

* square: ``{"cells": [{"at": [x, y], "terrain", "difficult", "elevation"}],
  "objective_squares": {id: {"at", "hp_max", "vp", "ac"}}}``
* hex: ``{"hexes": [{"col", "row", "terrain", "wooded", ..., "elevation", "feature_id"}]}``
* zones: ``{"zones": {id: {"name", "neighbors", "terrain": {...}, "at": [x, y]}}}``,
  ``width`` x ``height`` being the grid of slots the zones are drawn in.

``version`` grows by one at every save: the editor sends the version it
loaded, and a save over a newer one is refused rather than silently lost.
"""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

MAX_SIDE = 80


class MapKind(models.TextChoices):
    SQUARE = "square", _("Square grid")
    HEX = "hex", _("Hex grid")
    ZONES = "zones", _("Zones")


class BattleMap(models.Model):
    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="maps", verbose_name=_("campaign")
    )
    name = models.CharField(_("name"), max_length=100)
    kind = models.CharField(_("kind"), max_length=10, choices=MapKind.choices)
    width = models.PositiveSmallIntegerField(
        _("width"), validators=[MinValueValidator(1), MaxValueValidator(MAX_SIDE)]
    )
    height = models.PositiveSmallIntegerField(
        _("height"), validators=[MinValueValidator(1), MaxValueValidator(MAX_SIDE)]
    )
    data = models.JSONField(_("terrain"), default=dict, blank=True)
    # The GM may prepare a map in secret: players see it only once it is shown (battles show theirs anyway).
    visible_to_players = models.BooleanField(_("visible to players"), default=True)
    version = models.PositiveIntegerField(_("version"), default=1)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("battle map")
        verbose_name_plural = _("battle maps")
        ordering = ["name", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=["square", "hex", "zones"]), name="battle_map_kind_known"),
            models.CheckConstraint(
                condition=Q(width__gte=1, width__lte=MAX_SIDE, height__gte=1, height__lte=MAX_SIDE),
                name="battle_map_size_bounded",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("maps:detail", args=[self.campaign_id, self.pk])
