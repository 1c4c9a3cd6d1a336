from django.apps import AppConfig


class DemoConfig(AppConfig):
    """The demo a newcomer plays at once (``manage.py demo``): it sits above every other app,
    since it fills all of them, and nothing imports it."""

    name = "masscombat.demo"
    label = "demo"
