from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "masscombat.core"
    label = "core"
