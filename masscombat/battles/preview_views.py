"""The GM's odds: the balance part of the setup page and the round preview of the room.

Both read what only the GM may know (every army's figures, the full state),
so both are the GM's alone: :class:`Action.BATTLE_MANAGE` refuses players
(403) and outsiders (404).  Neither computes in the request: they start the
work (``balance``, ``preview``) and answer with how far it is.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from masscombat.battles import adapters, balance, preview, selectors, simulation_runs
from masscombat.battles.forms import BattleForm
from masscombat.campaigns.access import authorize
from masscombat.core.permissions import Action

# The balance does not depend on the battle's name, which the GM may not have typed yet.
BALANCE_NAME = "balance"


@login_required
@require_GET
def balance_part(request, campaign_id: int):
    """The balance of the armies and options chosen so far in the setup form (its fields, as a GET)."""
    access = authorize(request.user, Action.BATTLE_MANAGE, campaign_id)
    adapter = adapters.get(access.campaign.ruleset)
    if adapter is None:
        raise Http404
    data = request.GET.copy()
    data["name"] = BALANCE_NAME
    form = BattleForm(data, campaign=access.campaign, adapter=adapter)
    context = {"campaign": access.campaign, "sides": adapter.sides}
    if not form.is_valid():
        return render(request, "battles/_balance.html", {**context, "incomplete": True})
    arguments = form.battle_arguments()
    try:
        setup, _specs = adapter.new_battle_input(name=BALANCE_NAME, armies=arguments["armies"],
                                                 heroes=arguments["heroes"], options=arguments["options"])
    except ValidationError as error:
        return render(request, "battles/_balance.html", {**context, "refused": " ".join(error.messages)})
    simulation_runs.warm()
    found = balance.balance(access.campaign.ruleset, setup, page=f"{access.campaign.pk}:{request.user.pk}")
    names = {side: army.name for side, army in arguments["armies"].items()}
    return render(request, "battles/_balance.html", {
        **context, "balance": found, "figures": balance.figures(found, names), "query": request.GET.urlencode()})


@login_required
@require_http_methods(["GET", "POST"])
def preview_part(request, pk: int):
    """The GM's round preview: GET shows where it stands, POST starts one for the round as declared so far
    (asked again for the battle as it stands, the same preview answers)."""
    viewer = selectors.viewer(request.user, Action.BATTLE_MANAGE, pk)
    battle = viewer.battle
    runnable = battle.status == battle.Status.RUNNING and not battle.state.get("outcome", {}).get("over")
    if request.method == "POST" and runnable:
        preview.start(battle)
    if request.method == "POST" and not request.htmx:
        return redirect("battles:room", pk)
    return render(request, "battles/_preview.html", {"battle": battle, "viewer": viewer, "bare": True})
