"""A whole campaign as one JSON document, and back.

What a GM needs to move a campaign to another server or keep it safe: the
campaign, its members, its invitation codes, its rosters with their history,
its maps, and its battles with participants, declarations, resolved rounds
(their dice included, so a battle replays exactly) and the numbered event log.
Presence rows are left out: they describe sockets, not the campaign.

Objects keep their ids, so an archive is imported into a database that does
not hold them yet (an empty one, or one the campaign was never in); members
are matched by user name and created, without a usable password, when missing.

A running round clock is kept on its battle row, but the job that fires it is
not in the archive (procrastinate's queue, or the server's own clock): the
import schedules it again, in its transaction, as setting the deadline did.
"""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.utils import timezone

from masscombat.battles import deadlines
from masscombat.battles.models import Battle, BattleEvent, BattleParticipant, Declaration, Round
from masscombat.campaigns.models import Campaign, Invitation, Membership
from masscombat.maps.models import BattleMap
from masscombat.rosters.models import Army, Hero, RosterChange

FORMAT = "masscombat-campaign"
VERSION = 1
# Parents before children: the order objects are written back in.
MODELS = [Campaign, Membership, Invitation, Army, Hero, RosterChange, BattleMap,
          Battle, BattleParticipant, Declaration, Round, BattleEvent]
USER_FIELDS = ("username", "display_name", "email")


class ENCODER(DjangoJSONEncoder):
    """Django's JSON encoder, but times to the microsecond (it cuts them to milliseconds)."""

    def default(self, o):
        if isinstance(o, (datetime.datetime, datetime.time)):
            return o.isoformat()
        return super().default(o)


def _querysets(campaign: Campaign) -> dict:
    battles = Battle.objects.filter(campaign=campaign)
    return {
        Campaign: Campaign.objects.filter(pk=campaign.pk),
        Membership: Membership.objects.filter(campaign=campaign),
        Invitation: Invitation.objects.filter(campaign=campaign),
        Army: Army.objects.filter(campaign=campaign),
        Hero: Hero.objects.filter(campaign=campaign),
        RosterChange: RosterChange.objects.filter(army__campaign=campaign) | RosterChange.objects.filter(
            hero__campaign=campaign),
        BattleMap: BattleMap.objects.filter(campaign=campaign),
        Battle: battles,
        BattleParticipant: BattleParticipant.objects.filter(battle__in=battles),
        Declaration: Declaration.objects.filter(battle__in=battles),
        Round: Round.objects.filter(battle__in=battles),
        BattleEvent: BattleEvent.objects.filter(battle__in=battles),
    }


def export_campaign(campaign: Campaign) -> dict:
    """The archive of ``campaign``: plain JSON-ready data (users referred to by user name)."""
    objects = []
    for model, queryset in _querysets(campaign).items():
        objects += serializers.serialize("python", queryset.distinct().order_by("pk"), use_natural_foreign_keys=True)
    usernames = {key[0] for item in objects for key in _user_keys(item["fields"])}
    users = get_user_model().objects.filter(username__in=usernames).order_by("username")
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "users": [{name: getattr(user, name) for name in USER_FIELDS} for user in users],
        "objects": objects,
    }


def _user_keys(fields: dict):
    """The natural keys (``[username]``) of the users an object's fields refer to."""
    user_fields = {f.name for model in MODELS for f in model._meta.fields
                   if f.is_relation and f.related_model is get_user_model()}
    for name, value in fields.items():
        if name in user_fields and value:
            yield value


@transaction.atomic
def import_campaign(archive: dict) -> Campaign:
    """Write an archive back; all of it or, with a ValidationError saying why, nothing."""
    if archive.get("format") != FORMAT or archive.get("version") != VERSION:
        raise ValidationError(f"Not a {FORMAT} archive of version {VERSION}.")
    User = get_user_model()
    for entry in archive["users"]:
        user, created = User.objects.get_or_create(
            username=entry["username"], defaults={k: v for k, v in entry.items() if k != "username"})
        if created:
            user.set_unusable_password()  # they choose a new one with "Forgot your password?"
            user.save(update_fields=["password"])
    by_model: dict = {}
    for item in archive["objects"]:
        by_model.setdefault(item["model"], []).append(item["pk"])
    for model in MODELS:
        taken = model.objects.filter(pk__in=by_model.get(model._meta.label_lower, [])).values_list("pk", flat=True)
        if taken:
            raise ValidationError(
                f"This database already holds {model._meta.verbose_name} {sorted(taken)[:5]}: "
                "import into a database the campaign is not in.")
    campaign = None
    for restored in serializers.deserialize("python", archive["objects"], handle_forward_references=True):
        restored.save()
        if isinstance(restored.object, Campaign):
            campaign = restored.object
    if campaign is None:
        raise ValidationError("The archive holds no campaign.")
    # Ids were written as they were: the next new row must not reuse one.
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), MODELS):
            cursor.execute(statement)
    for battle in Battle.objects.filter(campaign=campaign, status=Battle.Status.RUNNING, deadline_at__isnull=False):
        deadlines.schedule(battle)
    return campaign
