"""The five game systems a campaign can be played with.

These are the slugs of the rules engines (``docs/battle-contract.md``), kept
here as choices so that a campaign can be created for a ruleset before its
engine lands in ``rules/``.  Whether an engine is registered is asked of
:mod:`rules.registry`, never assumed.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Ruleset(models.TextChoices):
    JDRWIKI = "jdrwiki", _("JdRWiki — meta-character army")
    SEVENTH_SEA = "seventh_sea", _("7th Sea — mass combat")
    HEROS = "heros", _("HÉROS (Champs de Bataille / DBM)")
    SYNAPSE = "synapse", _("SYNAPSE — mass combat")
    DND5E = "dnd5e", _("D&D 5e — mass combat")
