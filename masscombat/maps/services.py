"""Every change to battle maps (the write paths).

Each function validates through :mod:`masscombat.maps.validation` (so
nothing the engine would refuse is stored) and saves in one transaction.
Saving is guarded by the map's ``version``: a save prepared on an older
version is refused with :class:`StaleMap`, unless it is the very same save
arriving twice (a retried request), which is answered as done.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from masscombat.campaigns import live
from masscombat.maps.kinds import kind_of_campaign
from masscombat.maps.models import BattleMap
from masscombat.maps.validation import MapInvalid, clean_map

EXPORT_FORMAT = "masscombat.battle-map"
EXPORT_VERSION = 1
NAME_MAX = BattleMap._meta.get_field("name").max_length
DEFAULT_SIZE = {"square": (20, 14), "hex": (16, 12), "zones": (4, 3)}
# A zone map needs at least one zone (jdrwiki S3.6); grids start as open ground.
STARTING_DATA = {"square": {}, "hex": {}, "zones": {"zones": {"z1": {"name": "", "at": [0, 0]}}}}


class StaleMap(Exception):
    """Someone saved the map since this editor loaded it."""

    def __init__(self, current: BattleMap):
        super().__init__(_("This map was changed elsewhere since you opened it."))
        self.current = current


def _clean_name(name) -> str:
    if not isinstance(name, str) or not name.strip():
        raise MapInvalid({"name": _("The map needs a name.")})
    if len(name.strip()) > NAME_MAX:
        raise MapInvalid({"name": _("A map's name has at most %(n)d characters.") % {"n": NAME_MAX}})
    return name.strip()


def _checked_kind(campaign) -> str:
    kind = kind_of_campaign(campaign)
    if kind is None:
        raise MapInvalid({"kind": _("This game is not played on a map.")})
    return kind


@transaction.atomic
def create_map(campaign, *, name: str, width: int | None = None, height: int | None = None,
               data: dict | None = None) -> BattleMap:
    """A new map of the kind the campaign's ruleset plays on; all open ground unless ``data`` says otherwise."""
    kind = _checked_kind(campaign)
    default_width, default_height = DEFAULT_SIZE[kind]
    width = default_width if width is None else width
    height = default_height if height is None else height
    cleaned = clean_map(kind, width, height, data or STARTING_DATA[kind])
    battle_map = BattleMap.objects.create(
        campaign=campaign, name=_clean_name(name), kind=kind, width=width, height=height, data=cleaned
    )
    live.campaign_changed(campaign.pk)
    return battle_map


@transaction.atomic
def save_map(battle_map: BattleMap, *, version, name, width, height, data) -> BattleMap:
    """Store the editor's map if it was made on the current version; returns the saved map."""
    name = _clean_name(name)
    cleaned = clean_map(battle_map.kind, width, height, data)
    current = BattleMap.objects.select_for_update().get(pk=battle_map.pk)
    wanted = (name, width, height, cleaned)
    if version != current.version:
        # The same save sent twice: the second finds its own result and changes nothing.
        if version == current.version - 1 and (current.name, current.width, current.height, current.data) == wanted:
            return current
        raise StaleMap(current)
    BattleMap.objects.filter(pk=current.pk).update(
        name=name, width=width, height=height, data=cleaned, version=F("version") + 1
    )
    current.refresh_from_db()
    live.campaign_changed(current.campaign_id)
    return current


@transaction.atomic
def set_visible(battle_map: BattleMap, visible: bool) -> BattleMap:
    """Show the map to the players, or hide it again (a GM preparing a surprise)."""
    BattleMap.objects.filter(pk=battle_map.pk).update(visible_to_players=visible)
    battle_map.visible_to_players = visible
    live.campaign_changed(battle_map.campaign_id)
    return battle_map


@transaction.atomic
def duplicate_map(battle_map: BattleMap) -> BattleMap:
    name = (_("%(name)s (copy)") % {"name": battle_map.name})[:NAME_MAX]
    copy = BattleMap.objects.create(
        campaign_id=battle_map.campaign_id, name=name, kind=battle_map.kind,
        width=battle_map.width, height=battle_map.height, data=battle_map.data,
        visible_to_players=battle_map.visible_to_players,
    )
    live.campaign_changed(battle_map.campaign_id)
    return copy


def export_map(battle_map: BattleMap) -> dict:
    """The map as a self-describing JSON document, to keep or to import in another campaign."""
    return {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_VERSION,
        "name": battle_map.name,
        "kind": battle_map.kind,
        "width": battle_map.width,
        "height": battle_map.height,
        "data": battle_map.data,
    }


def import_map(campaign, document) -> BattleMap:
    """A new map from an exported document, checked like any other map."""
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise MapInvalid({"file": _("This is not a battle map exported from masscombat.")})
    kind = _checked_kind(campaign)
    if document.get("kind") != kind:
        raise MapInvalid({"kind": _("This map is for another game: this campaign needs a map of kind “%(kind)s”.")
                          % {"kind": kind}})
    return create_map(campaign, name=document.get("name"), width=document.get("width"),
                      height=document.get("height"), data=document.get("data"))


def delete_map(battle_map: BattleMap) -> None:
    campaign_id = battle_map.campaign_id
    battle_map.delete()
    live.campaign_changed(campaign_id)
