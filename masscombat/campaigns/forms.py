from django import forms
from django.utils.translation import gettext_lazy as _

from masscombat.campaigns.models import CODE_LENGTH, Campaign, normalise_code


class CampaignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = ("name", "ruleset", "description")
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}


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
