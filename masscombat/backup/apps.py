from django.apps import AppConfig


class BackupConfig(AppConfig):
    name = "masscombat.backup"
    label = "backup"
