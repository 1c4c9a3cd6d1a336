"""Users: Django's user with the name shown to the table."""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _
from rest_framework.authtoken.models import Token


class User(AbstractUser):
    display_name = models.CharField(
        _("display name"),
        max_length=100,
        blank=True,
        help_text=_("The name other players see. Your username is used when empty."),
    )
    # A guest seat (joined by link with a name only) keeps here the SHA-256 of the secret in its
    # browser's cookie (see masscombat.accounts.guests); empty for a full account.
    guest_key_hash = models.CharField(max_length=64, blank=True, editable=False)

    @property
    def is_guest(self) -> bool:
        """A seat with no e-mail or password, bound to one browser, until it becomes an account."""
        return bool(self.guest_key_hash)

    @property
    def shown_name(self) -> str:
        """What the interface calls this user."""
        return self.display_name or self.username

    def __str__(self) -> str:
        return self.shown_name

    def save(self, *args, **kwargs):
        """A new password ends the user's API tokens, whichever way it was set.

        Changed on the web, through the API, by a reset mail, in the admin or by
        ``changepassword``: each ends in ``set_password`` then ``save``.  A token
        taken with the old password must not outlive it (sessions end by
        Django's own session hash).
        """
        password_changed = self._password is not None and not self._state.adding
        super().save(*args, **kwargs)
        if password_changed:
            Token.objects.filter(user=self).delete()
