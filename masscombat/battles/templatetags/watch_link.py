"""``{% watch_link battle as link %}``: the battle's live watch link for the GM's panel (None when there is none)."""

from __future__ import annotations

from django import template

from masscombat.battles import spectators

register = template.Library()


@register.simple_tag
def watch_link(battle):
    return spectators.live_link(battle.pk)
