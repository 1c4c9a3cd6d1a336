from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MapsConfig(AppConfig):
    name = "masscombat.maps"
    label = "maps"
    verbose_name = _("Battle maps")
