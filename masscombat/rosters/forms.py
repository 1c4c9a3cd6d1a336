"""The plain Django forms of the rosters: who commands or owns what, visibility, import.

The engine data itself is edited through :mod:`masscombat.rosters.schema_forms`.
"""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from masscombat.rosters.models import Army, Hero

MAX_IMPORT_BYTES = 2_000_000


def _players(campaign):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.filter(memberships__campaign=campaign).order_by("display_name", "username")


class MemberChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, user) -> str:
        return user.shown_name


class ArmySettingsForm(forms.ModelForm):
    commander = MemberChoiceField(queryset=None, required=False, label=_("Commanding player"),
                                  empty_label=_("— the GM —"))

    class Meta:
        model = Army
        fields = ["name", "commander", "player_may_edit", "visible_to_players"]

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["commander"].queryset = _players(campaign)


class HeroSettingsForm(forms.ModelForm):
    owner = MemberChoiceField(queryset=None, required=False, label=_("Player"), empty_label=_("— the GM —"))
    army = forms.ModelChoiceField(queryset=None, required=False, label=_("Army"), empty_label=_("— none —"))

    class Meta:
        model = Hero
        fields = ["name", "owner", "army", "status", "visible_to_players"]

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["owner"].queryset = _players(campaign)
        self.fields["army"].queryset = Army.objects.filter(campaign=campaign)


class NewForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)


class ImportForm(forms.Form):
    """An army or hero as JSON (the engine's input format): a file, or pasted text."""

    name = forms.CharField(label=_("Name"), max_length=100, required=False,
                           help_text=_("Empty: the name in the file."))
    file = forms.FileField(label=_("JSON file"), required=False)
    text = forms.CharField(label=_("or paste the JSON"), widget=forms.Textarea(attrs={"rows": 6}), required=False)

    def clean(self):
        cleaned = super().clean()
        upload = cleaned.get("file")
        if upload is not None and upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError({"file": _("This file is too large (2 MB at most).")})
        raw = upload.read().decode("utf-8", errors="replace") if upload is not None else cleaned.get("text", "")
        if not raw.strip():
            raise forms.ValidationError(_("Choose a JSON file or paste its content."))
        try:
            data = json.loads(raw)
        except ValueError:
            raise forms.ValidationError(_("This is not valid JSON.")) from None
        if not isinstance(data, dict):
            raise forms.ValidationError(_("The JSON must be an object."))
        cleaned["data"] = data
        name = cleaned.get("name") or str(data.get("name") or "").strip()[:100]
        if not name:
            raise forms.ValidationError({"name": _("Give it a name: the file has none.")})
        cleaned["name"] = name
        return cleaned

