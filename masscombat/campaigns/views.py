"""Campaign pages.  Thin: check with :func:`authorize`, call a service, render.

Member and invitation actions answer htmx requests with the fragment that
changed and plain form posts with a redirect, so every page works without
JavaScript.
"""

import io

import segno
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from masscombat.accounts import guests
from masscombat.accounts.forms import GuestNameForm
from masscombat.campaigns import links, live, selectors, services
from masscombat.campaigns.access import authorize
from masscombat.campaigns.forms import CampaignForm, JoinForm
from masscombat.core.permissions import Action, Role
from masscombat.core.security import client_ip, over_limit, retry_after


@require_GET
def home(request):
    """The home page: your campaigns when logged in, what the app is otherwise."""
    if not request.user.is_authenticated:
        return render(request, "core/landing.html")
    return render(request, "core/home.html", {"campaigns": selectors.campaigns_of(request.user), "join_form": JoinForm()})


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
    # The change number as the page is drawn, read before its lists: a change made before the page's
    # socket opens shows as a gap in the socket's first "ready", and the page reloads its lists.
    seq = live.last_seq(pk)
    return render(request, "campaigns/detail.html", {**_detail_context(access), "live_seq": seq})


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
    link, phone_ready = links.join_link(request, current) if current else ("", True)
    return render(request, "campaigns/invitation.html", {
        "campaign": access.campaign, "invitation": current, "link": link, "phone_ready": phone_ready,
    })


@login_required
@require_GET
def invitation_qr(request, pk: int):
    """The invitation link as an SVG QR code, for a phone at the table to scan."""
    access = authorize(request.user, Action.MANAGE_INVITATION, pk)
    current = selectors.active_invitation(access.campaign)
    if current is None:
        raise Http404
    qr = segno.make(links.join_link(request, current)[0], error="m")
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


@require_http_methods(["GET", "POST"])
def join(request, code: str = ""):
    """Join a campaign: by typing the code, or by opening the invitation link (code in the URL).

    A visitor who is not logged in and opens a link may take a guest seat with only a name
    (:func:`_join_as_guest`), or log in or sign up and come back here.
    """
    if not request.user.is_authenticated:
        if not code:
            return redirect_to_login(request.get_full_path())
        return _join_as_guest(request, code)
    # Every attempt counts, per user and per address, so codes cannot be guessed by trying them:
    # a code typed in the form, and a code in the link (the page says whether it is open, so a
    # refused one is not even looked up).
    if (request.method == "POST" or code) and over_limit(
            "join", f"user:{request.user.pk}", f"ip:{client_ip(request)}"):
        form = JoinForm(request.POST or None, initial={"code": code})
        return _join_refused(request, {"form": form, "code": "", "invitation": None}, form)
    found = selectors.open_invitation(code) if code else None
    form = JoinForm(request.POST or None, initial={"code": found.display_code if found else code})
    if request.method == "POST" and form.is_valid():
        try:
            membership, _created = services.join_campaign(request.user, form.cleaned_data["code"])
        except ValidationError as error:
            form.add_error("code", error.message_dict["code"])
        else:
            messages.success(request, _("Welcome to %(campaign)s!") % {"campaign": membership.campaign.name})
            return redirect(membership.campaign)
    return render(request, "campaigns/join.html", {"form": form, "code": code, "invitation": found})


def _join_as_guest(request, code: str):
    """An anonymous visitor on an invitation link: a guest seat from a name, bound to this browser.

    Opening the link counts against the join limit per address; creating the seat counts
    against the sign-up limit, since it creates a user.
    """
    if over_limit("join", f"ip:{client_ip(request)}"):
        return _join_refused(request, {"guest_form": GuestNameForm(), "code": "", "invitation": None}, None)
    found = selectors.open_invitation(code)
    form = GuestNameForm(request.POST or None)
    context = {"guest_form": form, "code": code, "invitation": found}
    if not (request.method == "POST" and found and form.is_valid()):
        return render(request, "campaigns/join.html", context)
    if over_limit("signup", f"ip:{client_ip(request)}"):
        form.add_error(None, _("Too many players joined from this address. Try again later."))
        response = render(request, "campaigns/join.html", context, status=429)
        response["Retry-After"] = str(retry_after("signup"))
        return response
    try:
        membership, secret = services.join_as_guest(code, form.cleaned_data["name"])
    except ValidationError as error:  # revoked between the page and the post
        form.add_error(None, error.message_dict["code"])
        return render(request, "campaigns/join.html", context)
    login(request, membership.user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, _("Welcome to %(campaign)s, %(name)s!") % {
        "campaign": membership.campaign.name, "name": membership.user.shown_name})
    response = redirect(membership.campaign)
    guests.bind(response, membership.user, secret)
    return response


def _join_refused(request, context: dict, form):
    """429 for the join limit, the message on the form when one was sent, else as a banner."""
    refusal = _("Too many attempts. Wait a minute, then try again.")
    if form is not None and form.is_bound:
        form.add_error(None, refusal)
    else:  # an invitation link: no form was sent to carry the message
        messages.error(request, refusal)
    return render(request, "campaigns/join.html", context, status=429)


def _member_or_404(access, user_id: int):
    found = selectors.membership(access.campaign, user_id)
    if found is None:
        raise Http404
    return found


def _back_to_members(request, access):
    if request.htmx:
        return render(request, "campaigns/_members.html", _detail_context(access))
    return redirect(access.campaign)
