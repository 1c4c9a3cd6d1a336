"""Every change to armies and heroes (the write paths).

Each function validates the data with the ruleset's engine, locks the row,
checks the version the editor saw (optimistic locking), saves, bumps the
version and records a :class:`RosterChange`, all in one transaction: a refused
change saves nothing.  Once committed, the campaign's open pages are told
(:mod:`masscombat.campaigns.live`) and reload their roster lists.  The battles app calls :func:`update_army` and
:func:`update_hero` with ``source_kind="battle"`` to write a battle's aftermath.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from masscombat.campaigns import live
from masscombat.rosters import adapters
from masscombat.rosters.models import Army, Hero, RosterChange


class VersionConflict(ValidationError):
    """Someone saved the army or hero since this editor loaded it."""


def _check_version(locked, expected_version: int | None) -> None:
    if expected_version is not None and locked.version != expected_version:
        raise VersionConflict(
            {
                "version": _(
                    "Someone else saved this since you opened it (version %(current)s, yours %(yours)s). "
                    "Reload the page to see their changes, then make yours again."
                )
                % {"current": locked.version, "yours": expected_version}
            },
            code="conflict",
        )


def _lock(model, item, expected_version: int | None):
    """The row, locked for this transaction, if nobody saved it since the editor loaded it."""
    locked = model.objects.select_for_update().get(pk=item.pk)
    _check_version(locked, expected_version)
    return locked


def _replace(locked, data: dict, fields: dict) -> dict:
    """Put the new data and fields on a locked row, bump its version and save it; the old data back."""
    before = locked.data
    locked.data = data
    for name, value in fields.items():
        setattr(locked, name, value)
    locked.version += 1
    locked.full_clean(exclude=["data"])
    locked.save()
    return before


def _record(item, **change) -> None:
    """One history entry for an army or a hero; the campaign's open pages reload once it is committed."""
    RosterChange.objects.create(**{item._meta.model_name: item}, **change)
    live.campaign_changed(item.campaign_id)


def _create(model, campaign, *, name: str, data: dict, user, kind: str, summary: dict, fields: dict):
    item = model(campaign=campaign, name=name, data=data, **fields)
    item.full_clean(exclude=["data"])
    item.save()
    source = RosterChange.SourceKind.IMPORT if kind == "imported" else RosterChange.SourceKind.EDIT
    _record(item, kind=kind, after=data, summary=summary, source_kind=source, user=user)
    return item


@transaction.atomic
def update_army(
    army: Army,
    data: dict,
    *,
    user,
    expected_version: int | None,
    kind: str = "edited",
    source_kind: str = RosterChange.SourceKind.EDIT,
    source_id: int | None = None,
    source_label: str = "",
    summary: dict | None = None,
    **fields,
) -> Army:
    """Replace an army's data (and optionally ``name``, ``commander``, ...), recording the change.

    Raises :class:`rules.errors.InvalidInput` if the engine refuses ``data``
    and :class:`VersionConflict` if ``expected_version`` is stale.
    """
    adapter = adapters.get(army.campaign.ruleset)
    adapter.validate_army(data)
    locked = _lock(Army, army, expected_version)
    before = _replace(locked, data, fields)
    _record(
        locked,
        kind=kind,
        before=before,
        after=data,
        summary=summary if summary is not None else adapter.army_summary(data),
        source_kind=source_kind,
        source_id=source_id,
        source_label=source_label,
        user=user,
    )
    return locked


@transaction.atomic
def update_hero(
    hero: Hero,
    data: dict,
    *,
    user,
    expected_version: int | None,
    kind: str = "edited",
    source_kind: str = RosterChange.SourceKind.EDIT,
    source_id: int | None = None,
    source_label: str = "",
    summary: dict | None = None,
    **fields,
) -> Hero:
    """Replace a hero's data (and optionally ``name``, ``status``, ``army``...), recording the change."""
    adapters.get(hero.campaign.ruleset).validate_hero(data)
    locked = _lock(Hero, hero, expected_version)
    if kind == "edited" and fields.get("status", locked.status) != locked.status:
        kind = fields["status"]  # "wounded", "dead"...: the history says what happened, not just "edited"
    before = _replace(locked, data, fields)
    _record(
        locked,
        kind=kind,
        before=before,
        after=data,
        summary=summary or {},
        source_kind=source_kind,
        source_id=source_id,
        source_label=source_label,
        user=user,
    )
    return locked


@transaction.atomic
def create_army(campaign, *, name: str, user, data: dict | None = None, kind: str = "created", **fields) -> Army:
    adapter = adapters.get(campaign.ruleset)
    data = adapter.army.blank(name) if data is None else data
    adapter.validate_army(data)
    return _create(
        Army, campaign, name=name, data=data, user=user, kind=kind, summary=adapter.army_summary(data), fields=fields
    )


@transaction.atomic
def create_hero(campaign, *, name: str, user, data: dict | None = None, kind: str = "created", **fields) -> Hero:
    adapter = adapters.get(campaign.ruleset)
    data = adapter.hero.blank(name) if data is None else data
    adapter.validate_hero(data)
    return _create(Hero, campaign, name=name, data=data, user=user, kind=kind, summary={}, fields=fields)


def delete(model, campaign, item_id: int) -> bool:
    """Delete an army or a hero of ``campaign`` (its history goes with it); False if there is none."""
    deleted, _count = model.objects.filter(campaign=campaign, pk=item_id).delete()
    if deleted:
        live.campaign_changed(campaign.pk)
    return bool(deleted)
