from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from masscombat.accounts.models import User
from masscombat.core.security import client_ip, over_limit


class SignupForm(UserCreationForm):
    email = forms.EmailField(label=_("Email"), help_text=_("Used only to reset your password."))

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name", "email")


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "email")


class RateLimitedAuthenticationForm(AuthenticationForm):
    """Django's login form, refusing to check passwords past the login rate.

    Attempts are counted per address and per user name, so guessing one
    account's password from many addresses is slowed down as well.
    """

    error_messages = {
        **AuthenticationForm.error_messages,
        "rate_limited": _("Too many login attempts. Wait a minute, then try again."),
    }

    def clean(self):
        username = (self.cleaned_data.get("username") or "").lower()
        if over_limit("login", f"ip:{client_ip(self.request)}", f"user:{username}"):
            raise forms.ValidationError(self.error_messages["rate_limited"], code="rate_limited")
        return super().clean()
