"""The language each user last chose, which the messages sent to them later speak.

Written when it is chosen, never on an ordinary page (which must not cost a
query more): at log-in (the language the browser asked for), through the
language switch, and when the user saves their notification settings or
subscribes a device.
"""

import logging

from django.conf import settings
from django.db import DatabaseError

from masscombat.notifications.models import Preferences

logger = logging.getLogger(__name__)
KNOWN = {code for code, _name in settings.LANGUAGES}


def remember(user, language: str | None) -> None:
    if not (user and user.is_authenticated) or language not in KNOWN:
        return
    try:
        Preferences.objects.update_or_create(user=user, defaults={"language": language})
    except DatabaseError:  # the request still succeeds; the next choice is written
        logger.warning("could not record the language of user %s", user.pk)


def on_login(sender, request, user, **kwargs) -> None:
    """Hooked to ``user_logged_in``: the language the log-in page was shown in."""
    remember(user, getattr(request, "LANGUAGE_CODE", None))
