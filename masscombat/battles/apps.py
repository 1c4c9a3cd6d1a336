from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BattlesConfig(AppConfig):
    name = "masscombat.battles"
    label = "battles"
    verbose_name = _("Battles")

    def ready(self) -> None:
        # A preview stale after a declaration or a resolution is dropped when that change commits: its receiver
        # must listen from the start, in every process (a worker resolving at a deadline too).
        from masscombat.battles import preview  # noqa: F401
