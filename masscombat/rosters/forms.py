"""The plain Django forms of the rosters: who commands or owns what, visibility, import.

The engine data itself is edited through :mod:`masscombat.rosters.schema_forms`.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _

from masscombat.core import jsonsafe
from masscombat.rosters.models import Army, Hero

# A form's fields and the multipart framing around the file also travel in the request, whose body the server
# refuses past MAX_REQUEST_BYTES with a bare 413: the file stays this much under it, and the page says so.
_FRAMING = 16 * 1024


def max_import_bytes() -> int:
    """The largest roster file (or pasted text) a request can carry."""
    return max(1024, settings.MAX_REQUEST_BYTES - _FRAMING)


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
    name = forms.CharField(label=_("Name"), max_length=100, required=False,
                           help_text=_("Empty: the template's name, or a numbered one."))


class ImportForm(forms.Form):
    """An army or hero as JSON (the engine's input format): a file, or pasted text."""

    name = forms.CharField(label=_("Name"), max_length=100, required=False,
                           help_text=_("Empty: the name in the file."))
    file = forms.FileField(label=_("JSON file"), required=False)
    text = forms.CharField(label=_("or paste the JSON"), widget=forms.Textarea(attrs={"rows": 6}), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        limit = max_import_bytes()
        self.too_large = _("This file is too large (%(size)s at most).") % {"size": filesizeformat(limit)}
        self.fields["file"].help_text = _("%(size)s at most.") % {"size": filesizeformat(limit)}
        # The page checks a chosen file's size before sending it (static/js/rosters.js), and a pasted text's
        # length, so that a file too large gets this form's message rather than the server's bare refusal.
        self.fields["file"].widget.attrs.update({"accept": ".json,application/json", "data-max-bytes": limit,
                                                 "data-too-large": self.too_large})
        self.fields["text"].widget.attrs["maxlength"] = limit

    def clean(self):
        cleaned = super().clean()
        upload = cleaned.get("file")
        if upload is not None and upload.size > max_import_bytes():
            raise forms.ValidationError({"file": self.too_large})
        raw = upload.read().decode("utf-8", errors="replace") if upload is not None else cleaned.get("text", "")
        if not raw.strip():
            raise forms.ValidationError(_("Choose a JSON file or paste its content."))
        if len(raw.encode("utf-8")) > max_import_bytes():
            raise forms.ValidationError({"text": self.too_large})
        try:
            data = jsonsafe.loads(raw)
        except jsonsafe.TooDeep:
            raise forms.ValidationError({"file" if upload is not None else "text": _(
                "This is not valid JSON, or it is nested too deeply (%(levels)s levels at most).")
                % {"levels": jsonsafe.MAX_DEPTH}}) from None
        if not isinstance(data, dict):
            raise forms.ValidationError(_("The JSON must be an object."))
        cleaned["data"] = data
        name = cleaned.get("name") or str(data.get("name") or "").strip()[:100]
        if not name:
            raise forms.ValidationError({"name": _("Give it a name: the file has none.")})
        cleaned["name"] = name
        return cleaned

