from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "masscombat.api"
    label = "api"
