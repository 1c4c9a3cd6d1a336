from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from masscombat.accounts import guests
from masscombat.accounts.models import User
from masscombat.core.security import credentials_refused, refuse_for_rate


class SignupForm(UserCreationForm):
    email = forms.EmailField(label=_("Email"), help_text=_("Used only to reset your password."))

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name", "email")

    def names_a_taken_username(self) -> bool:
        """Whether this (bound, validated) form says the user name is taken: an answer worth counting."""
        return self.has_error("username", code="unique")


class GuestNameForm(forms.Form):
    """The only thing a guest types: the name the table will see."""

    name = forms.CharField(
        label=_("Your name at the table"), max_length=200,
        help_text=_("No e-mail, no password: this phone keeps your seat."),
        widget=forms.TextInput(attrs={"autocomplete": "nickname", "maxlength": guests.NAME_MAX}),
    )

    def clean_name(self) -> str:
        name = guests.clean_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Type a name the other players will recognise."))
        return name


class KeepSeatForm(SignupForm):
    """Turns a guest seat into a full account: the same user row, so heroes, armies and history stay."""

    class Meta(SignupForm.Meta):
        fields = ("username", "email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.initial["username"] = ""  # the guest's generated user name is not a suggestion

    def save(self, commit: bool = True) -> User:
        guests.end_seat(self.instance)
        return super().save(commit=commit)


class ProfileForm(forms.ModelForm):
    """Display name and email.  A new email needs the password: it is where reset links go,
    so whoever borrowed a logged-in phone must not be able to take the account with it."""

    current_password = forms.CharField(
        label=_("Current password"), required=False, strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=_("Needed only to change your email."))

    class Meta:
        model = User
        fields = ("display_name", "email")

    def __init__(self, *args, request, **kwargs):
        super().__init__(*args, **kwargs)
        self.request = request
        if self.instance.is_guest:  # no password to confirm an email with: the guest keeps the seat first
            del self.fields["email"], self.fields["current_password"]
            self.fields["display_name"].required = True  # its generated user name means nothing to the table

    def clean(self):
        cleaned = super().clean()
        if "email" in cleaned and cleaned["email"] != self.instance.email:
            problem = password_problem(self.request, self.instance, cleaned.get("current_password"))
            if problem:
                self.add_error("current_password", problem)
        return cleaned


def password_problem(request, user: User, password: str | None) -> str | None:
    """Why ``password`` does not confirm a change to ``user``'s account (None when it does).

    Checking it is a password guess like a log-in: it counts against the same limit.
    """
    if not password:
        return _("Give your current password to make this change.")
    if credentials_refused(request, user.get_username()):
        refuse_for_rate(request, "login")
        return RateLimitedAuthenticationForm.error_messages["rate_limited"]
    if not user.check_password(password):
        return _("This is not your current password.")
    return None


class RateLimitedAuthenticationForm(AuthenticationForm):
    """Django's login form, refusing to check passwords past the login rate.

    Attempts are counted per address and per user name, so guessing one
    account's password from many addresses is slowed down as well; a refusal
    answers 429 with the message on the page.
    """

    error_messages = {
        **AuthenticationForm.error_messages,
        "rate_limited": _("Too many login attempts. Wait a minute, then try again."),
    }

    def clean(self):
        if credentials_refused(self.request, self.cleaned_data.get("username") or ""):
            refuse_for_rate(self.request, "login")
            raise forms.ValidationError(self.error_messages["rate_limited"], code="rate_limited")
        return super().clean()


class RateLimitedAdminAuthenticationForm(RateLimitedAuthenticationForm, AdminAuthenticationForm):
    """The admin's login form (staff only), at the same rate and on the same counters as the site's."""
