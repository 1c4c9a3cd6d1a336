from django import forms
from django.utils.translation import gettext_lazy as _

from masscombat.maps.kinds import size_bounds
from masscombat.maps.services import DEFAULT_SIZE, NAME_MAX

IMPORT_MAX_BYTES = 2_000_000


class NewMapForm(forms.Form):
    """Name and size of a new map; the kind follows from the campaign's ruleset."""

    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)
    width = forms.IntegerField(label=_("Width"))
    height = forms.IntegerField(label=_("Height"))

    def __init__(self, *args, kind: str, **kwargs):
        super().__init__(*args, **kwargs)
        low, high = size_bounds(kind)
        default_width, default_height = DEFAULT_SIZE[kind]
        unit = _("zones per row") if kind == "zones" else (_("squares") if kind == "square" else _("hexes"))
        for name, default in (("width", default_width), ("height", default_height)):
            field = self.fields[name]
            field.min_value, field.max_value, field.initial = low, high, default
            field.widget.attrs.update({"min": low, "max": high, "inputmode": "numeric"})
            field.help_text = _("%(low)s to %(high)s %(unit)s.") % {"low": low, "high": high, "unit": unit}
        if kind == "zones":
            self.fields["width"].help_text = _("Zones are drawn on a grid of places: %(low)s to %(high)s across.") % {
                "low": low, "high": high}
            self.fields["height"].help_text = _("%(low)s to %(high)s down.") % {"low": low, "high": high}

    def clean(self):
        cleaned = super().clean()
        for name in ("width", "height"):
            value = cleaned.get(name)
            field = self.fields[name]
            if value is not None and not field.min_value <= value <= field.max_value:
                self.add_error(name, _("Must be between %(low)s and %(high)s.") % {"low": field.min_value,
                                                                                   "high": field.max_value})
        return cleaned


class ImportMapForm(forms.Form):
    file = forms.FileField(label=_("Map file (JSON)"), required=False)
    text = forms.CharField(label=_("…or paste its JSON"), required=False,
                           widget=forms.Textarea(attrs={"rows": 5, "spellcheck": "false"}))

    def clean(self):
        cleaned = super().clean()
        upload = cleaned.get("file")
        if upload is not None:
            if upload.size > IMPORT_MAX_BYTES:
                raise forms.ValidationError(_("The file is too large."))
            raw = upload.read()
        else:
            raw = (cleaned.get("text") or "").encode()
        if not raw.strip():
            raise forms.ValidationError(_("Choose a file or paste a map."))
        cleaned["raw"] = raw
        return cleaned
