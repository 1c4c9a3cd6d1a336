"""Users: Django's user with the name shown to the table."""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    display_name = models.CharField(
        _("display name"),
        max_length=100,
        blank=True,
        help_text=_("The name other players see. Your username is used when empty."),
    )

    @property
    def shown_name(self) -> str:
        """What the interface calls this user."""
        return self.display_name or self.username

    def __str__(self) -> str:
        return self.shown_name
