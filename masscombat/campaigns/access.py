"""The campaign as one user may reach it: the single check every view, endpoint and socket makes.

The policy (roles, actions, who may take which) is :mod:`masscombat.core.permissions`;
this is where it meets the database, one query per check.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef
from django.http import Http404

from masscombat.campaigns.models import Campaign, Membership
from masscombat.core.permissions import Access, Action, Role


def authorize(user, action: Action, campaign_id: int) -> Access:
    """Load a campaign for ``user`` to take ``action``, or raise 404 / 403.

    One query: the campaign with the caller's role annotated.
    """
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
