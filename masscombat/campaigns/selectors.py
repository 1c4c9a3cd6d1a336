"""Read paths for campaigns: what pages and the API show, in few queries."""

from __future__ import annotations

from django.db.models import Count, OuterRef, QuerySet, Subquery

from masscombat.campaigns.models import Campaign, Invitation, Membership, normalise_code


def campaigns_of(user) -> QuerySet[Campaign]:
    """The user's campaigns, each with ``caller_role`` and ``member_count``: one query."""
    mine = Membership.objects.filter(user=user)
    role = mine.filter(campaign=OuterRef("pk")).values("role")[:1]
    # Filtering through a subquery, not a join, so that the count sees every member.
    return (
        Campaign.objects.filter(pk__in=mine.values("campaign_id"))
        .annotate(caller_role=Subquery(role), member_count=Count("memberships"))
        .order_by("name", "pk")
    )


def members_of(campaign: Campaign) -> QuerySet[Membership]:
    """Game masters first, then players, each group by name."""
    return (
        Membership.objects.filter(campaign=campaign)
        .select_related("user")
        .order_by("role", "user__display_name", "user__username")
    )


def membership(campaign: Campaign, user_id: int) -> Membership | None:
    return Membership.objects.select_related("user").filter(campaign=campaign, user_id=user_id).first()


def active_invitation(campaign: Campaign) -> Invitation | None:
    return campaign.invitations.filter(revoked_at__isnull=True).first()


def open_invitation(code: str) -> Invitation | None:
    """The unrevoked invitation with this code, however the person typed it."""
    return (
        Invitation.objects.select_related("campaign")
        .filter(code=normalise_code(code), revoked_at__isnull=True)
        .first()
    )
