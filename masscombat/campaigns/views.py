"""Campaign pages.  Thin: check with :func:`authorize`, call a service, render.

Member and invitation actions answer htmx requests with the fragment that
changed and plain form posts with a redirect, so every page works without
JavaScript.
"""

import io

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from masscombat.campaigns import selectors, services
from masscombat.campaigns.forms import CampaignForm, JoinForm
from masscombat.core.permissions import Action, Role, authorize
from masscombat.core.security import client_ip, over_limit


@login_required
@require_http_methods(["GET", "POST"])
def create(request):
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        campaign = services.create_campaign(request.user, **form.cleaned_data)
        messages.success(request, _("Campaign created. Invite your players!"))
        return redirect("campaigns:invitation", campaign.pk)
    return render(request, "campaigns/form.html", {"form": form})


@login_required
@require_GET
def detail(request, pk: int):
    access = authorize(request.user, Action.VIEW, pk)
    return render(request, "campaigns/detail.html", _detail_context(access))


@login_required
@require_GET
def members(request, pk: int):
    """The members list alone: what a campaign page reloads when told it changed."""
    access = authorize(request.user, Action.VIEW, pk)
    return render(request, "campaigns/_members.html", _detail_context(access))


def _detail_context(access) -> dict:
    members = list(selectors.members_of(access.campaign))
    # The last game master cannot leave (the service refuses): the page does not offer it.
    can_leave = not access.is_gm or sum(member.is_gm for member in members) > 1
    return {"access": access, "campaign": access.campaign, "members": members, "can_leave": can_leave}


@login_required
@require_http_methods(["GET", "POST"])
def edit(request, pk: int):
    access = authorize(request.user, Action.EDIT, pk)
    form = CampaignForm(request.POST or None, instance=access.campaign)
    if request.method == "POST" and form.is_valid():
        services.update_campaign(access.campaign, **form.cleaned_data)
        messages.success(request, _("Campaign saved."))
        return redirect(access.campaign)
    return render(request, "campaigns/form.html", {"form": form, "campaign": access.campaign})


@login_required
@require_http_methods(["GET", "POST"])
def delete(request, pk: int):
    access = authorize(request.user, Action.DELETE, pk)
    if request.method == "POST":
        services.delete_campaign(access.campaign)
        messages.success(request, _("Campaign deleted."))
        return redirect("home")
    return render(request, "campaigns/delete.html", {"campaign": access.campaign})


@login_required
@require_GET
def invitation(request, pk: int):
    access = authorize(request.user, Action.MANAGE_INVITATION, pk)
    current = selectors.active_invitation(access.campaign)
    link = request.build_absolute_uri(current.get_absolute_url()) if current else ""
    return render(
        request, "campaigns/invitation.html", {"campaign": access.campaign, "invitation": current, "link": link}
    )


@login_required
@require_GET
def invitation_qr(request, pk: int):
    """The invitation link as an SVG QR code, for a phone at the table to scan."""
    access = authorize(request.user, Action.MANAGE_INVITATION, pk)
    current = selectors.active_invitation(access.campaign)
    if current is None:
        raise Http404
    qr = segno.make(request.build_absolute_uri(current.get_absolute_url()), error="m")
    svg = io.BytesIO()
    qr.save(svg, kind="svg", scale=6, border=2, dark="#1d2330", xmldecl=False)
    response = HttpResponse(svg.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_POST
def invitation_regenerate(request, pk: int):
    access = authorize(request.user, Action.MANAGE_INVITATION, pk)
    services.regenerate_invitation(access.campaign, by=request.user)
    messages.success(request, _("A new invitation is ready; the old code no longer works."))
    return redirect("campaigns:invitation", pk)


@login_required
@require_POST
def invitation_revoke(request, pk: int):
    access = authorize(request.user, Action.MANAGE_INVITATION, pk)
    services.revoke_invitation(access.campaign)
    messages.success(request, _("Invitation revoked: nobody else can join with it."))
    return redirect("campaigns:invitation", pk)


@login_required
@require_POST
def member_promote(request, pk: int, user_id: int):
    access = authorize(request.user, Action.MANAGE_MEMBERS, pk)
    target = _member_or_404(access, user_id)
    services.set_role(access.campaign, target, Role.GM)
    messages.success(request, _("%(name)s is now a game master.") % {"name": target.user.shown_name})
    return _back_to_members(request, access)


@login_required
@require_POST
def member_remove(request, pk: int, user_id: int):
    access = authorize(request.user, Action.MANAGE_MEMBERS, pk)
    target = _member_or_404(access, user_id)
    try:
        services.remove_member(access.campaign, target)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("%(name)s left the campaign.") % {"name": target.user.shown_name})
    return _back_to_members(request, access)


@login_required
@require_POST
def leave(request, pk: int):
    access = authorize(request.user, Action.LEAVE, pk)
    target = _member_or_404(access, request.user.pk)
    try:
        services.remove_member(access.campaign, target)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(access.campaign)
    messages.success(request, _("You left %(campaign)s.") % {"campaign": access.campaign.name})
    return redirect("home")


@login_required
@require_http_methods(["GET", "POST"])
def join(request, code: str = ""):
    """Join a campaign: by typing the code, or by opening the invitation link (code in the URL)."""
    found = selectors.open_invitation(code) if code else None
    form = JoinForm(request.POST or None, initial={"code": found.display_code if found else code})
    # Every attempt counts, per user and per address, so codes cannot be guessed by trying them.
    if request.method == "POST" and over_limit("join", f"user:{request.user.pk}", f"ip:{client_ip(request)}"):
        form.add_error(None, _("Too many attempts. Wait a minute, then try again."))
        return render(request, "campaigns/join.html", {"form": form, "code": code, "invitation": found}, status=429)
    if request.method == "POST" and form.is_valid():
        try:
            membership, _created = services.join_campaign(request.user, form.cleaned_data["code"])
        except ValidationError as error:
            form.add_error("code", error.message_dict["code"])
        else:
            messages.success(request, _("Welcome to %(campaign)s!") % {"campaign": membership.campaign.name})
            return redirect(membership.campaign)
    return render(request, "campaigns/join.html", {"form": form, "code": code, "invitation": found})


def _member_or_404(access, user_id: int):
    found = selectors.membership(access.campaign, user_id)
    if found is None:
        raise Http404
    return found


def _back_to_members(request, access):
    if request.htmx:
        return render(request, "campaigns/_members.html", _detail_context(access))
    return redirect(access.campaign)
