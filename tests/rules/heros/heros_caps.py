"""A HÉROS battle with its inputs at their caps, for the size-cap tests and the timing in the report."""

from heros_helpers import heros

from rules.heros.state import StateModel

WIDTH = HEIGHT = 60
UNITS_PER_SIDE = 300
CORPS_PER_SIDE = 20
FAST = 20  # the largest ``move`` a unit may have


def cap_of(field: str) -> int:
    """The ``maxItems`` of a list of the state (so the battle follows the caps when they change)."""
    return StateModel.model_json_schema()["properties"][field]["maxItems"]


def battle_at_caps(units_per_side: int | None = None) -> dict:
    """Both armies fill the map's north and south halves in two ranks; every corps has a general,
    every unit moves 20 and the red corps have rolled 5 PA; the C-in-C stands on the first unit."""
    per_side = units_per_side or cap_of("units") // 2
    corps_n = min(CORPS_PER_SIDE, cap_of("corps") // 2, per_side)
    sides = [("red", 0, 2), ("blue", HEIGHT - 1, 5)]
    corps, units, chars = [], [], []
    for side, row0, facing in sides:
        step = 1 if row0 == 0 else -1
        for k in range(corps_n):
            corps.append({"id": f"{side}-c{k}", "side": side, "kind": "cinc" if k == 0 else "sub",
                          "general_id": f"{side}-g{k}"})
        for n in range(per_side):
            col, row = n % WIDTH, row0 + step * (n // WIDTH)
            units.append({"id": f"{side}-u{n}", "corps_id": f"{side}-c{n % corps_n}", "troop_type": "Bd",
                          "factor_vs_foot": 5, "factor_vs_mounted": 3, "move": FAST,
                          "position": {"col": col, "row": row}, "facing": facing})
        for k in range(corps_n):
            chars.append({"id": f"{side}-g{k}", "corps_id": f"{side}-c{k}", "role": "cinc" if k == 0 else "sub_general",
                          "stacked_on": f"{side}-u{k}", "engaged": False})
    payload = {"map": {"width": WIDTH, "height": HEIGHT, "hexes": []},
               "sides": [{"id": "red", "cinc_id": "red-g0"}, {"id": "blue", "cinc_id": "blue-g0"}],
               "corps": corps, "units": units, "characters": chars, "first_side": "red",
               "dice": {f"pa.red-c{k}": 5 for k in range(corps_n)}}
    return heros("new-battle", payload)["state"]
