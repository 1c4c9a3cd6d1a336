from django import forms
from django.db import models
from django.utils.translation import gettext_lazy as _

from masscombat.campaigns.models import CODE_LENGTH, Campaign, normalise_code


def https_urls(db_field, **kwargs):
    """Form fields of the model's fields; an address typed without its scheme is taken as https."""
    if isinstance(db_field, models.URLField):
        kwargs["assume_scheme"] = "https"
    return db_field.formfield(**kwargs)


class CampaignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        formfield_callback = https_urls
        fields = ("name", "ruleset", "description", "language", "discord_webhook")
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is None:  # the language and the webhook are set on the edit page, by its GM
            del self.fields["language"], self.fields["discord_webhook"]


class JoinForm(forms.Form):
    code = forms.CharField(
        label=_("Join code"),
        max_length=20,
        help_text=_("The code your game master shows, like ABCD-EFGH."),
        widget=forms.TextInput(attrs={"autocapitalize": "characters", "autocomplete": "off", "spellcheck": "false"}),
    )

    def clean_code(self) -> str:
        code = normalise_code(self.cleaned_data["code"])
        if len(code) != CODE_LENGTH:
            raise forms.ValidationError(_("A join code has %(n)d letters and digits.") % {"n": CODE_LENGTH})
        return code
