"""What the battles' events mean for notifications: each committed event becomes a job, run off the request."""

from __future__ import annotations

from django.utils import translation

from masscombat.battles.models import Battle
from masscombat.notifications import deliver, discord, messages, origin
from masscombat.notifications.dispatch import later
from masscombat.notifications.models import BATTLE_STARTED, ROUND_RESOLVED, YOUR_TURN


def battle_event(sender, *, battle, kind: str, payload: dict, **kwargs) -> None:
    """Hooked to :data:`masscombat.battles.live.committed`; cheap: the work is done by :func:`later`.

    In a request, its origin becomes the campaign's address, for the links of jobs that have no request.
    """
    origin.remember(battle.campaign_id)
    if kind == "created":
        later(battle_started, battle.pk)
    elif kind == "round_resolved":
        later(round_resolved, battle.pk, payload.get("round"))


def _battle(battle_id: int) -> Battle | None:
    return Battle.objects.select_related("campaign").filter(pk=battle_id).first()


def battle_started(battle_id: int) -> None:
    """The campaign's members (not the GM who started it) hear of the new battle; its players, that it is their turn."""
    battle = _battle(battle_id)
    if battle is None:
        return
    members = battle.campaign.members.exclude(pk=battle.created_by_id)
    with origin.of_campaign(battle.campaign_id):
        deliver.notify(members, BATTLE_STARTED, lambda: messages.battle_started(battle))
        your_turn(battle)
        with translation.override(battle.campaign.language):
            discord.post(battle.campaign, messages.discord_started(battle))


def round_resolved(battle_id: int, number: int) -> None:
    """The battle's players hear the round is resolved, the campaign's channel gets its report link, and the next round starts."""
    battle = _battle(battle_id)
    if battle is None:
        return
    with origin.of_campaign(battle.campaign_id):
        deliver.notify(deliver.players(battle), ROUND_RESOLVED, lambda: messages.round_resolved(battle, number))
        with translation.override(battle.campaign.language):
            discord.post(battle.campaign, messages.discord_round(battle, number))
        your_turn(battle)


def your_turn(battle: Battle) -> None:
    """Those with orders to give in the round now open, while the battle runs."""
    if battle.status != Battle.Status.RUNNING:
        return
    deliver.notify(deliver.waiting_users(battle), YOUR_TURN, lambda: messages.your_turn(battle))
