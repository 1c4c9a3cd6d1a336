"""Who may do what in a campaign: the one place where it is decided.

A user's relation to a campaign is a :class:`Role` (game master, player, or
outsider), and :data:`POLICY` says which roles may take each :class:`Action`.
Views and API endpoints never test roles themselves: they call
:func:`authorize`, which loads the campaign and the caller's role in one
query and raises the right error.  An outsider is told the campaign does not
exist (404), so campaign ids leak nothing; a member who lacks the right gets
403.  Later apps (rosters, maps, battles) add their actions here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef
from django.http import Http404

if TYPE_CHECKING:
    from masscombat.campaigns.models import Campaign


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


_MEMBERS = frozenset({Role.GM, Role.PLAYER})
_GM = frozenset({Role.GM})

POLICY: dict[Action, frozenset[Role]] = {
    Action.VIEW: _MEMBERS,
    Action.EDIT: _GM,
    Action.DELETE: _GM,
    Action.MANAGE_INVITATION: _GM,
    Action.MANAGE_MEMBERS: _GM,
    Action.LEAVE: _MEMBERS,
}


def allows(role: Role, action: Action) -> bool:
    return role in POLICY[action]


@dataclass(frozen=True)
class Access:
    """A campaign as seen by one user: what templates and serializers ask."""

    campaign: Campaign
    role: Role

    def can(self, action: Action) -> bool:
        return allows(self.role, action)

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM


def role_in(user, campaign: Campaign) -> Role:
    """The user's role in a campaign (a query unless the campaign was loaded by :func:`authorize`)."""
    if not user.is_authenticated:
        return Role.OUTSIDER
    role = campaign.memberships.filter(user=user).values_list("role", flat=True).first()
    return Role(role) if role else Role.OUTSIDER


def authorize(user, action: Action, campaign_id: int) -> Access:
    """Load a campaign for ``user`` to take ``action``, or raise 404 / 403.

    One query: the campaign with the caller's role annotated.
    """
    # Imported here: the campaigns models import Role from this module.
    from masscombat.campaigns.models import Campaign, Membership

    if not user.is_authenticated:
        raise Http404
    role_query = Membership.objects.filter(campaign=OuterRef("pk"), user=user).values("role")[:1]
    campaign = Campaign.objects.annotate(caller_role=role_query).filter(pk=campaign_id).first()
    if campaign is None or campaign.caller_role is None:
        raise Http404
    access = Access(campaign, Role(campaign.caller_role))
    if not access.can(action):
        raise PermissionDenied
    return access
