"""Sign up, profile and keeping a guest seat; log in, log out and passwords are Django's own views."""

import math

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import PasswordResetView
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from masscombat.accounts.forms import KeepSeatForm, ProfileForm, SignupForm
from masscombat.core.security import client_ip, over_limit, refuse_for_rate, retry_after


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    valid = request.method == "POST" and form.is_valid()
    # Accounts about to be created count, and so does every "this user name is taken": the form
    # must say it, but a script asking about names one after another is stopped at the same rate.
    # A typo in a password costs nothing.
    if (valid or (request.method == "POST" and form.names_a_taken_username())) and over_limit(
            "signup", f"ip:{client_ip(request)}"):
        return _signup_refused(request, form)
    if valid:
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s!") % {"name": user.shown_name})
        return redirect(_next_url(request) or "home")
    return render(request, "accounts/signup.html", {"form": form, "next": _next_url(request) or ""})


@login_required
@require_http_methods(["GET", "POST"])
def keep_seat(request):
    """A guest turns its seat into a full account (user name, email, password): the same user row.

    A "user name taken" answer counts against the sign-up limit, as on the sign-up page.
    """
    if not request.user.is_guest:
        return redirect("accounts:profile")
    form = KeepSeatForm(request.POST or None, instance=request.user)
    valid = request.method == "POST" and form.is_valid()
    if not valid and request.method == "POST" and form.names_a_taken_username() and over_limit(
            "signup", f"ip:{client_ip(request)}"):
        return _signup_refused(request, form, "accounts/keep_seat.html")
    if valid:
        user = form.save()
        update_session_auth_hash(request, user)  # a new password would otherwise end this session
        messages.success(request, _("Your seat is now an account: log in with %(username)s from any device.")
                         % {"username": user.username})
        return redirect("accounts:profile")
    return render(request, "accounts/keep_seat.html", {"form": form})


def _signup_refused(request, form, template="accounts/signup.html"):
    """429 with the form as it was typed, saying when this address may create an account again."""
    wait = retry_after("signup")
    minutes = math.ceil(wait / 60)
    form.errors.pop("username", None)  # past the limit, nothing more is said about names
    form.add_error(None, ngettext(
        "Too many accounts were created from this address. Try again in %(minutes)d minute.",
        "Too many accounts were created from this address. Try again in %(minutes)d minutes.",
        minutes) % {"minutes": minutes})
    response = render(request, template, {"form": form, "next": _next_url(request) or ""}, status=429)
    response["Retry-After"] = str(wait)
    return response


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    form = ProfileForm(request.POST or None, instance=request.user, request=request)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your profile is saved."))
        return redirect("accounts:profile")
    return render(request, "accounts/profile.html", {"form": form})


def _next_url(request) -> str | None:
    """The ``next`` parameter when it points back into this site (an invitation link, say)."""
    target = request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return None


class RateLimitedPasswordResetView(PasswordResetView):
    """Django's password reset, at the login rate: it sends mail to whatever address is typed."""

    def form_valid(self, form):
        email = form.cleaned_data["email"].lower()
        if over_limit("login", f"ip:{client_ip(self.request)}", f"email:{email}"):
            refuse_for_rate(self.request, "login")
            form.add_error(None, _("Too many attempts. Wait a minute, then try again."))
            return self.form_invalid(form)
        return super().form_valid(form)

    @property
    def extra_email_context(self) -> dict | None:
        """With ``PUBLIC_URL`` set, the mail's link goes there, whatever ``Host`` the request named."""
        if not settings.PUBLIC_URL:
            return None
        protocol, domain = settings.PUBLIC_URL.split("://", 1)
        return {"protocol": protocol, "domain": domain, "site_name": domain}
