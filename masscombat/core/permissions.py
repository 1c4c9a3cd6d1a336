"""Who may do what in a campaign: the one place where it is decided.

A user's relation to a campaign is a :class:`Role` (game master, player, or
outsider), and :data:`POLICY` says which roles may take each :class:`Action`.
Views and API endpoints never test roles themselves: they call
:func:`masscombat.campaigns.access.authorize`, which loads the campaign and
the caller's role in one query and raises the right error.  This module holds
the policy alone and imports no model, so that every app, the campaigns' own
models included, can depend on it.  An outsider is told the campaign does not
exist (404), so campaign ids leak nothing; a member who lacks the right gets
403.  Later apps (rosters, maps, battles) add their actions here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from django.db import models


class Role(StrEnum):
    GM = "gm"
    PLAYER = "player"
    OUTSIDER = "outsider"


class Action(StrEnum):
    VIEW = "campaign.view"
    EDIT = "campaign.edit"
    DELETE = "campaign.delete"
    MANAGE_INVITATION = "campaign.manage_invitation"
    MANAGE_MEMBERS = "campaign.manage_members"
    LEAVE = "campaign.leave"
    # Battles: members watch and declare for what they play (checked per participant
    # by the battles app); GMs set up, resolve, undo, pause and close.
    BATTLE_VIEW = "battle.view"
    BATTLE_DECLARE = "battle.declare"
    BATTLE_MANAGE = "battle.manage"
    # Rosters: the role decides first, then the roster rules below (owner, commander, visibility).
    ROSTER_VIEW = "roster.view"
    ROSTER_MANAGE = "roster.manage"
    ARMY_EDIT = "army.edit"
    HERO_EDIT = "hero.edit"
    # Battle maps: every member looks at them; the GM draws, imports and deletes.
    MAP_VIEW = "map.view"
    MAP_EDIT = "map.edit"


_MEMBERS = frozenset({Role.GM, Role.PLAYER})
_GM = frozenset({Role.GM})

POLICY: dict[Action, frozenset[Role]] = {
    Action.VIEW: _MEMBERS,
    Action.EDIT: _GM,
    Action.DELETE: _GM,
    Action.MANAGE_INVITATION: _GM,
    Action.MANAGE_MEMBERS: _GM,
    Action.LEAVE: _MEMBERS,
    Action.BATTLE_VIEW: _MEMBERS,
    Action.BATTLE_DECLARE: _MEMBERS,
    Action.BATTLE_MANAGE: _GM,
    Action.ROSTER_VIEW: _MEMBERS,
    # Creating, importing, deleting armies and heroes, and who commands or owns them.
    Action.ROSTER_MANAGE: _GM,
    Action.ARMY_EDIT: _MEMBERS,
    Action.HERO_EDIT: _MEMBERS,
    Action.MAP_VIEW: _MEMBERS,
    Action.MAP_EDIT: _GM,
}


def allows(role: Role, action: Action) -> bool:
    return role in POLICY[action]


@dataclass(frozen=True)
class Access:
    """A campaign as seen by one user: what templates and serializers ask."""

    campaign: models.Model  # a campaigns.Campaign, with the caller's role annotated
    role: Role

    def can(self, action: Action) -> bool:
        return allows(self.role, action)

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM


# Roster rules, past the role check: the GM sees and edits everything; a player
# edits the heroes they own and, when the GM allows it, the army they command,
# and reads what the GM made visible (their own things always).


def can_view_army(access: Access, user, army) -> bool:
    return access.is_gm or army.visible_to_players or army.commander_id == user.pk


def can_edit_army(access: Access, user, army) -> bool:
    if not access.can(Action.ARMY_EDIT):
        return False
    return access.is_gm or (army.player_may_edit and army.commander_id == user.pk)


def can_view_hero(access: Access, user, hero) -> bool:
    return access.is_gm or hero.visible_to_players or hero.owner_id == user.pk


def can_edit_hero(access: Access, user, hero) -> bool:
    if not access.can(Action.HERO_EDIT):
        return False
    return access.is_gm or hero.owner_id == user.pk
