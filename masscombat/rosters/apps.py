from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RostersConfig(AppConfig):
    name = "masscombat.rosters"
    label = "rosters"
    verbose_name = _("Rosters")
