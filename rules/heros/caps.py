"""Size caps of a HÉROS battle (``docs/battle-contract.md``, "Size caps").

Generous for real play (the spec's examples field three units; an army of the
source has a few dozen) and small enough that every operation at the caps
answers well under 2 seconds (``tests/rules/heros/test_heros_caps.py`` and
``docs/rules/heros.md`` give the timings).  The map (60 x 60 hexes) and the
unit ``move`` (0..20, S3.4) keep the bounds of the spec.
"""

UNITS = 200
CHARACTERS = 100
CORPS = 40
ENGAGEMENTS = 200
PARTICIPANTS = 1 + 2 + UNITS + CHARACTERS  # the GM, two sides, every unit and character (participants.py)
