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
    locked = Army.objects.select_for_update().get(pk=army.pk)
    _check_version(locked, expected_version)
    before = locked.data
    locked.data = data
    for name, value in fields.items():
        setattr(locked, name, value)
    locked.version += 1
    locked.full_clean(exclude=["data"])
    locked.save()
    RosterChange.objects.create(
        army=locked,
        kind=kind,
        before=before,
        after=data,
        summary=summary if summary is not None else adapter.army_summary(data),
        source_kind=source_kind,
        source_id=source_id,
        source_label=source_label,
        user=user,
    )
    live.campaign_changed(locked.campaign_id)
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
    adapter = adapters.get(hero.campaign.ruleset)
    adapter.validate_hero(data)
    locked = Hero.objects.select_for_update().get(pk=hero.pk)
    _check_version(locked, expected_version)
    if kind == "edited" and fields.get("status", locked.status) != locked.status:
        kind = fields["status"]  # "wounded", "dead"...: the history says what happened, not just "edited"
    before = locked.data
    locked.data = data
    for name, value in fields.items():
        setattr(locked, name, value)
    locked.version += 1
    locked.full_clean(exclude=["data"])
    locked.save()
    RosterChange.objects.create(
        hero=locked,
        kind=kind,
        before=before,
        after=data,
        summary=summary or {},
        source_kind=source_kind,
        source_id=source_id,
        source_label=source_label,
        user=user,
    )
    live.campaign_changed(locked.campaign_id)
    return locked


@transaction.atomic
def create_army(campaign, *, name: str, user, data: dict | None = None, kind: str = "created", **fields) -> Army:
    adapter = adapters.get(campaign.ruleset)
    data = adapter.army.blank(name) if data is None else data
    adapter.validate_army(data)
    army = Army(campaign=campaign, name=name, data=data, **fields)
    army.full_clean(exclude=["data"])
    army.save()
    source = RosterChange.SourceKind.IMPORT if kind == "imported" else RosterChange.SourceKind.EDIT
    RosterChange.objects.create(
        army=army, kind=kind, after=data, summary=adapter.army_summary(data), source_kind=source, user=user
    )
    live.campaign_changed(campaign.pk)
    return army


@transaction.atomic
def create_hero(campaign, *, name: str, user, data: dict | None = None, kind: str = "created", **fields) -> Hero:
    adapter = adapters.get(campaign.ruleset)
    data = adapter.hero.blank(name) if data is None else data
    adapter.validate_hero(data)
    hero = Hero(campaign=campaign, name=name, data=data, **fields)
    hero.full_clean(exclude=["data"])
    hero.save()
    source = RosterChange.SourceKind.IMPORT if kind == "imported" else RosterChange.SourceKind.EDIT
    RosterChange.objects.create(hero=hero, kind=kind, after=data, source_kind=source, user=user)
    live.campaign_changed(campaign.pk)
    return hero


def delete(model, campaign, item_id: int) -> bool:
    """Delete an army or a hero of ``campaign`` (its history goes with it); False if there is none."""
    deleted, _count = model.objects.filter(campaign=campaign, pk=item_id).delete()
    if deleted:
        live.campaign_changed(campaign.pk)
    return bool(deleted)
