"""Battle maps: square grids (D&D 5e), hex grids (HÉROS) and zone maps (JdRWiki).

How the battle room uses them:

* setup: ``engine.new_battle_fields(battle_map)`` gives the ``map`` (and D&D 5e
  ``objective_squares``) of the engine's ``new-battle`` input;
* each viewer: ``selectors.battle_source(state)`` gives what is drawn and
  ``selectors.pieces_of(visible_state, ruleset, viewer_side, names)`` the
  pieces that viewer may see, from the engine's ``visible-state`` for it (the
  room asks it once per request); where a piece may go comes from the
  declaration forms (the engine's ``declaration-options`` for that viewer);
* drawing: ``render.render_map_svg(source, pieces=..., highlights=...)`` (or
  ``{% load maps %}{% battle_map source pieces=pieces %}``) and ``static/js/map-view.js``,
  which turns taps into ``map:select-piece`` / ``map:select-cell`` events.
"""
