"""What each notification says, written in the language active when it is composed."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from django.urls import reverse
from django.utils.translation import gettext as _

from masscombat.notifications import origin


@dataclass(frozen=True)
class Message:
    title: str
    body: str
    url: str
    tag: str  # a newer notification with the same tag replaces the older one on the device

    def as_push(self) -> dict:
        return asdict(self)


def room_url(battle) -> str:
    return origin.absolute(reverse("battles:room", args=[battle.pk]))


def your_turn(battle) -> Message:
    return Message(
        title=_("%(battle)s: your turn") % {"battle": battle.name},
        body=_("Round %(round)s has begun: give your orders.") % {"round": battle.current_round},
        url=room_url(battle), tag=f"battle-{battle.pk}-turn",
    )


def reminder(battle, minutes: int | None) -> Message:
    if minutes is None:
        body = _("Round %(round)s still waits for your orders.") % {"round": battle.current_round}
    else:
        body = _("Round %(round)s still waits for your orders: %(minutes)s minutes left.") % {
            "round": battle.current_round, "minutes": minutes}
    return Message(title=_("%(battle)s: orders missing") % {"battle": battle.name}, body=body,
                   url=room_url(battle), tag=f"battle-{battle.pk}-turn")


def round_resolved(battle, number: int) -> Message:
    return Message(
        title=_("%(battle)s: round %(round)s resolved") % {"battle": battle.name, "round": number},
        body=_("The report of round %(round)s is ready.") % {"round": number},
        url=room_url(battle) + "#battle-rounds", tag=f"battle-{battle.pk}-report",
    )


def battle_started(battle) -> Message:
    return Message(
        title=_("%(campaign)s: a battle starts") % {"campaign": battle.campaign.name},
        body=_("%(battle)s has begun: join it.") % {"battle": battle.name},
        url=room_url(battle), tag=f"battle-{battle.pk}-start",
    )


def email_text(message: Message) -> str:
    """The body of the e-mail form of a message: the sentence, its link, and where to switch it off."""
    where = origin.absolute(reverse("notifications:settings"))
    return "\n\n".join([message.body, message.url,
                        _("You receive this because it is switched on in %(url)s") % {"url": where}])


def discord_round(battle, number: int) -> str:
    return _("**%(battle)s**: round %(round)s is resolved. Report: %(url)s") % {
        "battle": battle.name, "round": number, "url": room_url(battle) + "#battle-rounds"}


def discord_started(battle) -> str:
    return _("**%(battle)s** has begun. Join it: %(url)s") % {"battle": battle.name, "url": room_url(battle)}

