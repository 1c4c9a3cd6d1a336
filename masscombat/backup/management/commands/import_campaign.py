"""``manage.py import_campaign file.json``: write back a campaign exported by ``export_campaign``."""

import json

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from masscombat.backup.archive import import_campaign


class Command(BaseCommand):
    help = "Import a campaign archive (from export_campaign) into a database that does not hold it yet."

    def add_arguments(self, parser):
        parser.add_argument("path")

    def handle(self, *args, path, **options):
        try:
            with open(path, encoding="utf-8") as file:
                archive = json.load(file)
        except (OSError, ValueError) as error:
            raise CommandError(f"Cannot read {path}: {error}") from error
        try:
            campaign = import_campaign(archive)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        self.stdout.write(f"Campaign {campaign.pk} ({campaign.name}) imported.")
