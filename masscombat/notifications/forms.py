from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from masscombat.notifications.models import EMAIL, KINDS, PUSH, Preferences, switch


class PreferencesForm(forms.ModelForm):
    """A box per kind and channel, labelled by the kind (the page groups them by channel).

    Without ``by_email`` (a guest: no address to write to) the e-mail boxes are
    left out, and what they hold is kept as it was.
    """

    class Meta:
        model = Preferences
        fields = [switch(channel, kind) for channel in (PUSH, EMAIL) for kind, _label in KINDS]

    def __init__(self, *args, by_email: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.by_email = by_email
        for channel in (PUSH, EMAIL):
            for kind, label in KINDS:
                if channel == EMAIL and not by_email:
                    del self.fields[switch(channel, kind)]
                else:
                    self.fields[switch(channel, kind)].label = label

    def channel(self, channel: str) -> list:
        return [self[switch(channel, kind)] for kind, _label in KINDS]

    def push_fields(self) -> list:
        return self.channel(PUSH)

    def email_fields(self) -> list:
        return self.channel(EMAIL)


class SubscriptionForm(forms.Form):
    """A browser's PushSubscription as its toJSON() gives it: the endpoint and its two keys."""

    endpoint = forms.URLField(max_length=1000, assume_scheme="https")
    p256dh = forms.RegexField(r"^[A-Za-z0-9_-]+={0,2}$", max_length=200, label=_("public key"))
    auth = forms.RegexField(r"^[A-Za-z0-9_-]+={0,2}$", max_length=100, label=_("authentication secret"))

    def clean_endpoint(self) -> str:
        """Push services speak https only; plain http (a local test service) only where any webhook URL is allowed."""
        endpoint = self.cleaned_data["endpoint"]
        if not endpoint.startswith("https://") and not settings.ANY_WEBHOOK_URL:
            raise forms.ValidationError(_("A push service's address starts with https://."))
        return endpoint
