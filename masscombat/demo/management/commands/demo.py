"""``manage.py demo``: a demo GM, two demo players and one campaign per ruleset.

``--if-empty`` does nothing when any user exists, which is how ``bin/run``
loads the demo into a fresh database and leaves a used one alone.  Running
it again without the flag resets the demo users' passwords and fills in
whatever is missing, never duplicating.
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from masscombat import games
from masscombat.campaigns import selectors, services
from masscombat.campaigns.models import Campaign
from masscombat.campaigns.rulesets import Ruleset
from masscombat.maps import demo as maps_demo
from masscombat.rosters import demo as rosters_demo
from masscombat.core.permissions import Role

PASSWORD = "masscombat-demo"
GM = ("demo-gm", "Maître du jeu (démo)")
PLAYERS = [("demo-player1", "Aline (démo)"), ("demo-player2", "Bastien (démo)")]
DESCRIPTION = "Campagne de démonstration : invitez vos joueurs et préparez vos armées."
SHORT_NAMES = {
    Ruleset.JDRWIKI: "JdRWiki",
    Ruleset.SEVENTH_SEA: "7th Sea",
    Ruleset.HEROS: "HÉROS",
    Ruleset.SYNAPSE: "SYNAPSE",
    Ruleset.DND5E: "D&D 5e",
}


class Command(BaseCommand):
    help = "Create the demo users and one demo campaign per ruleset."

    def add_arguments(self, parser):
        parser.add_argument("--if-empty", action="store_true", help="Only when the database has no user yet.")

    @transaction.atomic
    def handle(self, *args, if_empty: bool = False, **options):
        User = get_user_model()
        if if_empty and User.objects.exists():
            self.stdout.write("Users exist already: no demo data loaded.")
            return
        gm = self._user(User, *GM)
        players = [self._user(User, *player) for player in PLAYERS]
        for ruleset in Ruleset:
            # "Démo — D&D 5e": the system's short name; the page shows the full one below.
            name = f"Démo — {SHORT_NAMES[ruleset]}"
            campaign = Campaign.objects.filter(name=name, memberships__user=gm).first()
            if campaign is None:
                campaign = services.create_campaign(
                    gm, name=name, ruleset=ruleset.value, description=DESCRIPTION
                )
            for player in players:
                campaign.memberships.get_or_create(user=player, defaults={"role": Role.PLAYER})
            if selectors.active_invitation(campaign) is None:
                services.regenerate_invitation(campaign, by=gm)
            rosters_demo.load(campaign, gm, players)  # the spec's worked-example armies and heroes
            maps_demo.load(campaign)  # a battle map for the games played on one
            games.demo_battle(campaign, gm, players)  # a battle ready to play at round 1
        self.stdout.write(self.style.SUCCESS("Demo data ready. Log in with any of these (password for all):"))
        for username, _name in [GM, *PLAYERS]:
            self.stdout.write(f"  {username:<14} {PASSWORD}")

    @staticmethod
    def _user(User, username: str, display_name: str):
        user, _ = User.objects.get_or_create(
            username=username, defaults={"display_name": display_name, "email": f"{username}@example.org"}
        )
        user.set_password(PASSWORD)
        user.save()
        return user
