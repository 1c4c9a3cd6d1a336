"""``manage.py export_campaign <id> [--output file.json]``: a whole campaign as JSON (stdout by default)."""

import json

from django.core.management.base import BaseCommand, CommandError

from masscombat.backup.archive import ENCODER, export_campaign
from masscombat.campaigns.models import Campaign


class Command(BaseCommand):
    help = "Export a campaign with its members, rosters, maps and battles (event logs included) to JSON."

    def add_arguments(self, parser):
        parser.add_argument("campaign_id", type=int)
        parser.add_argument("--output", "-o", help="file to write (default: standard output)")

    def handle(self, *args, campaign_id, output=None, **options):
        campaign = Campaign.objects.filter(pk=campaign_id).first()
        if campaign is None:
            raise CommandError(f"No campaign {campaign_id}.")
        text = json.dumps(export_campaign(campaign), cls=ENCODER, ensure_ascii=False, indent=1)
        if output:
            with open(output, "w", encoding="utf-8") as file:
                file.write(text)
            self.stderr.write(f"Campaign {campaign_id} ({campaign.name}) written to {output}.")
        else:
            self.stdout.write(text)
