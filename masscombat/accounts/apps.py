from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "masscombat.accounts"
    label = "accounts"
    verbose_name = _("Accounts")

    def ready(self):
        from masscombat.accounts import guests  # noqa: F401 - connects the log-out receiver
