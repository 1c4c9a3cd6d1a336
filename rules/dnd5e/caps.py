"""Size caps of every input (docs/battle-contract.md, "Size caps"; docs/rules/dnd5e.md).

The spec's own bounds (S3.7 grid 1..200, S9.5 1..100 units of 1..50 stands,
S3.2 speed 0..100 m) let one ``declaration-options`` request search paths for
fifty stands walking 66 squares each across 40,000 squares: close to a minute
and hundreds of megabytes.  These caps are about ten times the largest example
of the spec and above any army the web app builds (its maps stop at 80
squares a side); ``benchmarks/engine_caps.py`` times a battle at every cap.
"""

MAP_SIDE = 80
"""Squares along each side of the grid (S3.7 allows 200)."""
CELLS = MAP_SIDE * MAP_SIDE
SPEED_M = 36
"""Walking and swimming speed in metres (S3.2 allows 100): 24 squares, twice the fastest SRD walker."""
PROFILES = 40
ATTACKS = 5
SPELLS = 5
UNITS = 40
STANDS_PER_UNIT = 16
STANDS = 400
SOLOS = 40
OBJECTIVE_SQUARES = 50
OBJECTIVES = 50
INITIATIVE = UNITS + SOLOS
PATH = 120
"""Anchors of one declared path: more than any allowance at SPEED_M, dashing, on roads."""
ADJUSTMENTS = 100
