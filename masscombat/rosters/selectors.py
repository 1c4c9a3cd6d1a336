"""Read paths of the rosters: what a member may see, in a fixed number of queries.

An army's units live in its ``data`` (the engine's JSON), so a page's query
count does not grow with the number of units; lists select their users in the
same query.
"""

from __future__ import annotations

from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.db.models.fields.json import KT

from masscombat.core.permissions import Access
from masscombat.rosters.models import Army, Hero, RosterChange


def armies_for(access: Access, user) -> QuerySet[Army]:
    """The campaign's armies this member may see: all for the GM; visible or commanded for a player.

    Each with ``strength``, the charted number of its last change (as text, as the database gives it).
    """
    latest = RosterChange.objects.filter(army=OuterRef("pk")).order_by("-created_at", "-pk")
    armies = (
        Army.objects.filter(campaign=access.campaign)
        .select_related("commander")
        # The strength the engine gave at the last change (the charted number), in the same query.
        .annotate(strength=Subquery(latest.annotate(value=KT("summary__strength")).values("value")[:1]))
    )
    if not access.is_gm:
        armies = armies.filter(Q(visible_to_players=True) | Q(commander=user))
    return armies


def heroes_for(access: Access, user) -> QuerySet[Hero]:
    """The campaign's heroes this member may see: all for the GM; visible or owned for a player."""
    heroes = Hero.objects.filter(campaign=access.campaign).select_related("owner", "army")
    if not access.is_gm:
        heroes = heroes.filter(Q(visible_to_players=True) | Q(owner=user))
    return heroes


def history(entity) -> QuerySet[RosterChange]:
    """The changes of an army or hero, oldest first, with who made them."""
    return entity.changes.select_related("user").order_by("created_at", "pk")


def strength_points(changes) -> list[tuple[int | float, RosterChange]]:
    """The charted strength after each change that recorded one, with that change."""
    return [
        (change.summary["strength"], change)
        for change in changes
        if isinstance(change.summary, dict) and isinstance(change.summary.get("strength"), int | float)
    ]


def known_to_the_editor(campaign, item) -> dict:
    """What an editor offers in its pick lists beyond the data itself: a hero's army (from its settings); for a
    HÉROS army (two queries) the campaign's players, as the battle names a player (``user-<id>``), and the
    characters of its other armies, whom this army may hold captive."""
    from masscombat.rosters import references

    if isinstance(item, Hero):  # its army, from its settings (already loaded with it)
        army = item.army if item.army_id else None
        ident = (army.data or {}).get("id") if army is not None else None
        return {references.ARMY: [(str(ident), army.name)] if ident else []}
    if campaign.ruleset != "heros" or not isinstance(item, Army):
        return {}
    from django.contrib.auth import get_user_model

    players = get_user_model().objects.filter(memberships__campaign=campaign).order_by("display_name", "username")
    others = Army.objects.filter(campaign=campaign).exclude(pk=item.pk).only("name", "data").order_by("name", "pk")
    characters = [(str(c["id"]), f"{c.get('name') or c['id']} ({army.name})") for army in others
                  for c in (army.data or {}).get("characters", []) if isinstance(c, dict) and c.get("id")]
    return {references.PLAYERS: [(f"user-{user.pk}", user.shown_name) for user in players],
            references.CHARACTERS: characters}
