"""The GM's round-deadline controls: the form (a duration in minutes, hours or days) and the one view they post to.

The battle setup embeds the same form (:class:`DeadlineForm`, prefix ``deadline``);
the room's controls post here with an ``action``: set the rule, take it away,
pause or resume the clock, add time.  Every answer is the room again, with a
message; without JavaScript too.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from masscombat.battles import deadlines, selectors
from masscombat.core.permissions import Action


class DeadlineForm(forms.Form):
    """A duration: how long a round lasts, or how much time to add.  Empty amount: no deadline."""

    amount = forms.IntegerField(label=gettext_lazy("Round deadline"), min_value=1, max_value=deadlines.MAX_MINUTES,
                                required=False,
                                help_text=gettext_lazy("Empty: each round waits for the game master. When the time "
                                                       "is up the round resolves; whoever has not declared gets "
                                                       "the rules' default orders."))
    unit = forms.ChoiceField(label=gettext_lazy("unit"), initial="hours", required=False, widget=forms.Select(
        attrs={"aria-label": gettext_lazy("unit")}), choices=[
        ("minutes", gettext_lazy("minutes")), ("hours", gettext_lazy("hours")), ("days", gettext_lazy("days"))])

    def __init__(self, *args, required: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["amount"].required = required

    def clean(self):
        data = super().clean()
        if data.get("amount") and self.minutes() > deadlines.MAX_MINUTES:
            self.add_error("amount", _("A round lasts from one minute to four weeks."))
        return data

    def minutes(self) -> int | None:
        amount = self.cleaned_data.get("amount")
        return amount * deadlines.UNITS[self.cleaned_data.get("unit") or "hours"] if amount else None


@login_required
@require_POST
def deadline(request, pk: int):
    """Run the GM's ``action`` on the round's clock; refusals and bad amounts become a message on the room."""
    selectors.viewer(request.user, Action.BATTLE_MANAGE, pk)  # 404 / 403 before anything is read
    action = request.POST.get("action", "")
    form = DeadlineForm(request.POST, required=action == "extend")
    user = request.user
    actions = {
        "set": lambda: deadlines.set_rule(user, pk, form.minutes(), auto_resolve=request.POST.get("auto_resolve") == "1"),
        "clear": lambda: deadlines.set_rule(user, pk, None),
        "pause": lambda: deadlines.pause_clock(user, pk),
        "resume": lambda: deadlines.resume_clock(user, pk),
        "extend": lambda: deadlines.extend(user, pk, form.minutes()),
    }
    if action not in actions:
        messages.error(request, _("Reload the page and try again."))
    elif action in ("set", "extend") and not form.is_valid():
        messages.error(request, " ".join(error for errors in form.errors.values() for error in errors))
    else:
        try:
            actions[action]()
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("The round's clock is changed."))
    return redirect("battles:room", pk)
