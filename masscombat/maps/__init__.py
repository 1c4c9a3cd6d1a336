"""Battle maps: square grids (D&D 5e), hex grids (HÉROS) and zone maps (JdRWiki).

How the battle room uses them:

* setup: ``engine.new_battle_fields(battle_map)`` gives the ``map`` (and D&D 5e
  ``objective_squares``) of the engine's ``new-battle`` input;
* each viewer: ``selectors.map_view(state, ruleset, viewer_side, selected_piece,
  battle_map=...)`` (or ``pieces_of`` on a visible state already at hand)
  gives the source, the pieces that side may see and the selected piece's
  legal moves; ``selectors.area_preview`` the squares of a spell's area;
* drawing: ``{% load maps %}{% battle_map view.source pieces=view.pieces
  highlights=view.highlights template=squares %}`` and ``static/js/map-view.js``,
  which turns taps into ``map:select-piece`` / ``map:select-cell`` events.
"""
