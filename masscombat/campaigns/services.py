"""Every change to campaigns, memberships and invitations (the write paths).

Views and API endpoints validate the input, check :func:`authorize`, then call
one function here.  Each runs in a transaction, so nothing half-written is
ever saved, keeps the rule that a campaign always has a game master, and
tells the campaign's open pages that something changed.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from masscombat.accounts import guests
from masscombat.campaigns import live, selectors
from masscombat.campaigns.models import Campaign, Invitation, Membership
from masscombat.core.permissions import Role

# A fresh code colliding with another is a one-in-a-trillion event; a few tries settle it.
_CODE_ATTEMPTS = 5


@transaction.atomic
def create_campaign(user, *, name: str, ruleset: str, description: str = "") -> Campaign:
    """A new campaign with its creator as game master, and an invitation ready to share."""
    campaign = Campaign(name=name, ruleset=ruleset, description=description)
    campaign.full_clean()
    campaign.save()
    Membership.objects.create(campaign=campaign, user=user, role=Role.GM)
    regenerate_invitation(campaign, by=user)
    return campaign


@transaction.atomic
def update_campaign(campaign: Campaign, **fields) -> Campaign:
    for name, value in fields.items():
        setattr(campaign, name, value)
    campaign.full_clean()
    campaign.save()
    live.campaign_changed(campaign.pk)
    return campaign


def delete_campaign(campaign: Campaign) -> None:
    campaign_id = campaign.pk
    members = list(campaign.memberships.values_list("user_id", flat=True))
    campaign.delete()
    live.access_changed(campaign_id, members)  # first: its pages close rather than reload into a 404
    live.campaign_changed(campaign_id)


def regenerate_invitation(campaign: Campaign, by) -> Invitation:
    """Revoke the current invitation, if any, and issue a new code."""
    for attempt in range(_CODE_ATTEMPTS):
        try:
            with transaction.atomic():
                revoke_invitation(campaign)
                return Invitation.objects.create(campaign=campaign, created_by=by)
        except IntegrityError:
            if attempt == _CODE_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def revoke_invitation(campaign: Campaign) -> None:
    campaign.invitations.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())


def join_campaign(user, code: str) -> tuple[Membership, bool]:
    """Join with an invitation code: the membership, and whether it is new.

    Joining a campaign one is already in (as GM, say) changes nothing.
    """
    invitation = selectors.open_invitation(code)
    if invitation is None:
        raise ValidationError({"code": _("This code matches no open invitation. Ask your game master for a new one.")})
    membership, created = Membership.objects.get_or_create(
        campaign=invitation.campaign, user=user, defaults={"role": Role.PLAYER}
    )
    if created:
        live.campaign_changed(invitation.campaign_id)
    return membership, created


def join_as_guest(code: str, name: str) -> tuple[Membership, str]:
    """A new guest seat in the campaign of this code: its membership, and the secret its browser keeps.

    The name (already cleaned, never empty) gets a suffix when a member of the
    campaign already shows it; the campaign row is locked meanwhile, so two
    guests typing the same name at once still end up with two names.
    """
    invitation = selectors.open_invitation(code)
    if invitation is None:
        raise ValidationError({"code": _("This code matches no open invitation. Ask your game master for a new one.")})
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=invitation.campaign_id)
        taken = {member.user.shown_name.casefold() for member in selectors.members_of(campaign)}
        user, secret = guests.new_guest(guests.unique_name(name, taken))
        membership = Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
        live.campaign_changed(campaign.pk)
    return membership, secret


@transaction.atomic
def set_role(campaign: Campaign, membership: Membership, role: Role) -> Membership:
    """Promote a player to co-GM, or step a GM back to player (never the last one)."""
    locked = Membership.objects.select_for_update().get(pk=membership.pk, campaign=campaign)
    if locked.role == Role.GM and role != Role.GM:
        _keep_a_gm(campaign, leaving=locked)
    locked.role = role
    locked.save(update_fields=["role"])
    live.campaign_changed(campaign.pk)
    live.access_changed(campaign.pk, [locked.user_id])  # a GM no more hears the GM's events
    return locked


@transaction.atomic
def remove_member(campaign: Campaign, membership: Membership) -> None:
    """Remove someone (a GM removing a player, or anyone leaving); the last GM stays."""
    locked = Membership.objects.select_for_update().get(pk=membership.pk, campaign=campaign)
    if locked.role == Role.GM:
        _keep_a_gm(campaign, leaving=locked)
    locked.delete()
    live.access_changed(campaign.pk, [locked.user_id])  # first: their page closes rather than reloads
    live.campaign_changed(campaign.pk)


def _keep_a_gm(campaign: Campaign, leaving: Membership) -> None:
    others = (
        Membership.objects.select_for_update()
        .filter(campaign=campaign, role=Role.GM)
        .exclude(pk=leaving.pk)
    )
    if not others.exists():
        raise ValidationError(
            {"role": _("A campaign needs a game master: promote someone else first.")}
        )
