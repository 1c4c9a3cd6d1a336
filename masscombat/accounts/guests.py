"""Guest seats: a player who came by an invitation link with only a name.

A guest is an ordinary user (so every permission check, page and socket treats
it as any member) with an unusable password and ``guest_key_hash`` set.  What
makes the seat theirs is a random secret kept in one browser: a long-lived,
HttpOnly, SameSite=Lax signed cookie holding the user's id and the secret; the
database keeps only the secret's SHA-256.  When that browser comes back with
no session (expired, or the phone restarted with a fresh one),
:class:`GuestSeatMiddleware` logs the guest in again from the cookie.  Another
browser has no secret: the seat cannot be taken from there.  The secret is a
random 256-bit value, so one SHA-256 is enough to store it (no password
stretching to do).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import unicodedata

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver

from masscombat.accounts.models import User

COOKIE = "masscombat_guest"
_SALT = "masscombat.accounts.guests"
COOKIE_AGE = 365 * 24 * 3600  # a campaign lasts months: the seat must survive them
NAME_MAX = 40  # short enough for a phone's member list, with room for a suffix
_BACKEND = "django.contrib.auth.backends.ModelBackend"


def clean_name(raw: str) -> str:
    """A display name as typed, without control or invisible characters, spaces folded: maybe empty."""
    visible = "".join(
        " " if char.isspace() else char
        for char in unicodedata.normalize("NFC", raw or "")
        if char.isspace() or unicodedata.category(char)[0] != "C"
    )
    return re.sub(r" +", " ", visible).strip()[:NAME_MAX]


def unique_name(wanted: str, taken: set[str]) -> str:
    """``wanted``, or ``wanted (2)``, ``(3)``... the first not in ``taken`` (casefolded names)."""
    candidate, number = wanted, 1
    while candidate.casefold() in taken:
        number += 1
        suffix = f" ({number})"
        candidate = wanted[: NAME_MAX - len(suffix)].rstrip() + suffix
    return candidate


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_guest(display_name: str) -> tuple[User, str]:
    """A saved guest user with this name, and the secret its browser must keep (see :func:`bind`)."""
    secret = secrets.token_urlsafe(32)
    user = User(username=f"guest-{secrets.token_hex(8)}", display_name=display_name, guest_key_hash=_digest(secret))
    user.set_unusable_password()
    user.save()
    return user, secret


def bind(response, user: User, secret: str) -> None:
    """Give this browser the guest's seat: the cookie that logs it back in."""
    response.set_signed_cookie(
        COOKIE, f"{user.pk}:{secret}", salt=_SALT, max_age=COOKIE_AGE,
        httponly=True, samesite="Lax", secure=settings.SESSION_COOKIE_SECURE,
    )


def guest_from_cookie(request) -> User | None:
    """The guest whose seat this browser's cookie holds, or None (no cookie, forged, or seat gone)."""
    value = request.get_signed_cookie(COOKIE, default=None, salt=_SALT, max_age=COOKIE_AGE)
    if not value or ":" not in value:
        return None
    user_id, secret = value.split(":", 1)
    if not user_id.isdigit():
        return None
    user = User.objects.filter(pk=int(user_id), is_active=True).exclude(guest_key_hash="").first()
    if user is None or not hmac.compare_digest(user.guest_key_hash, _digest(secret)):
        return None
    return user


def end_seat(user: User) -> None:
    """The guest became a full account: its cookie no longer logs anyone in."""
    user.guest_key_hash = ""


class GuestSeatMiddleware:
    """Logs a guest back in from its cookie when its browser arrives without a session.

    Only on GET and HEAD: logging in rotates the CSRF token, which would refuse
    a form posted with the old one.  A cookie that names no seat (forged, or
    the account was converted) is removed.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        stale = False
        if request.method in ("GET", "HEAD") and COOKIE in request.COOKIES and not request.user.is_authenticated:
            guest = guest_from_cookie(request)
            if guest is None:
                stale = True
            else:
                login(request, guest, backend=_BACKEND)
        response = self.get_response(request)
        if stale or getattr(request, "guest_seat_left", False):
            response.delete_cookie(COOKIE, samesite="Lax")
        return response


@receiver(user_logged_out)
def _leave_seat_on_logout(sender, request, user, **kwargs):
    """Logging out is leaving the seat: without this the cookie would log the guest straight back in."""
    if request is not None and user is not None and user.is_guest:
        request.guest_seat_left = True
