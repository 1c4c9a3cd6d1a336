"""The web's side of each game: one package per ruleset (``masscombat.games.<slug>``).

What is truly the web's and differs by ruleset lives here, never a rule of a spec
(the engines answer those, through :mod:`masscombat.core.engines`):

- ``battle.py``: the battle adapter (:class:`masscombat.battles.adapters.Adapter`):
  how a battle is set up from the campaign's armies, heroes and map, who declares
  through which form, how pieces are placed and drawn, how the aftermath goes
  back to the rosters;
- ``demo.py``: the ruleset's demo battle for ``manage.py demo`` (``load``).

The battles app defines the adapter's interface and finds a ruleset's package by
its slug (:func:`masscombat.battles.adapters.get`), as Django finds its apps: the
games sit above the battles app and import it, never the other way round.
"""

import importlib


def demo_battle(campaign, gm, players):
    """The demo battle of the campaign's ruleset at round 1 (created once), or None if it has none."""
    try:
        module = importlib.import_module(f"{__name__}.{campaign.ruleset}.demo")
    except ModuleNotFoundError:
        return None
    return module.load(campaign, gm, players)
