from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "masscombat.notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from masscombat.battles import live
        from masscombat.notifications import language, receivers

        live.committed.connect(receivers.battle_event, dispatch_uid="notifications.battle_event")
        user_logged_in.connect(language.on_login, dispatch_uid="notifications.language")
