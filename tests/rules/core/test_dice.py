"""Dice: given rolls checked and echoed, drawn rolls reproducible from the seed."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import AVERAGE, D4, D6, D20, EXPLODING_MAX, OPEN_D10, Dice
from rules.errors import InvalidInput


def test_given_roll_is_used_and_echoed():
    dice = Dice({"hit": 17}, seed=0)
    assert dice.roll("hit", D20) == 17
    assert dice.used == {"hit": 17}


def test_unused_given_rolls_are_not_echoed():
    dice = Dice({"hit": 17, "spare": 3}, seed=0)
    dice.roll("hit", D20)
    assert "spare" not in dice.used


def test_same_name_returns_the_same_roll():
    dice = Dice(seed=5)
    first = dice.roll("a", D20)
    assert all(dice.roll("a", D20) == first for _ in range(5))
    assert len(dice.used) == 1


@pytest.mark.parametrize(
    "die,value",
    [(D6, 0), (D6, 7), (D20, 21), (D4, -1), (D6, True), (D6, 3.0), (D6, "3"), (AVERAGE, 1), (AVERAGE, 6)],
)
def test_impossible_face_is_invalid_input(die, value):
    with pytest.raises(InvalidInput) as err:
        Dice({"x": value}, seed=0).roll("x", die)
    assert list(err.value.fields) == ["dice.x"]


@pytest.mark.parametrize("value", [1, 9, 11, 17, 23, 99, 101])
def test_open_d10_accepts_totals_it_can_show(value):
    assert Dice({"x": value}).roll("x", OPEN_D10) == value


@pytest.mark.parametrize("value", [0, -3, 10, 20, 100, EXPLODING_MAX + 2])
def test_open_d10_refuses_totals_it_cannot_show(value):
    with pytest.raises(InvalidInput):
        Dice({"x": value}).roll("x", OPEN_D10)


@pytest.mark.parametrize("value", [2, 3, 4, 5])
def test_average_die_faces(value):
    assert Dice({"x": value}).roll("x", AVERAGE) == value


def test_average_die_draws_its_weighted_faces():
    rng = random.Random(1)
    counts = {face: 0 for face in (2, 3, 4, 5)}
    for _ in range(6000):
        counts[AVERAGE.draw(rng)] += 1
    assert 800 < counts[2] < 1200 and 800 < counts[5] < 1200
    assert 1800 < counts[3] < 2200 and 1800 < counts[4] < 2200


@given(st.integers(min_value=0, max_value=2**32))
def test_open_d10_draws_are_valid_totals(seed):
    rng = random.Random(seed)
    for _ in range(20):
        assert OPEN_D10.problem(OPEN_D10.draw(rng)) is None


def test_open_d10_explodes_on_ten():
    class Scripted(random.Random):
        def __init__(self, faces):
            super().__init__(0)
            self.faces = list(faces)

        def randint(self, a, b):
            return self.faces.pop(0)

    assert OPEN_D10.draw(Scripted([10, 10, 4])) == 24
    assert OPEN_D10.draw(Scripted([7])) == 7


def test_roll_many_checks_count_and_faces():
    assert Dice({"d": [1, 4]}).roll_many("d", D4, 2) == [1, 4]
    with pytest.raises(InvalidInput, match="exactly 2"):
        Dice({"d": [1]}).roll_many("d", D4, 2)
    with pytest.raises(InvalidInput, match="die 2"):
        Dice({"d": [1, 5]}).roll_many("d", D4, 2)
    with pytest.raises(InvalidInput, match="list"):
        Dice({"d": 3}).roll_many("d", D4, 1)


def test_roll_many_accepts_a_bare_integer_for_one_die_when_allowed():
    dice = Dice({"d": 3})
    assert dice.roll_many("d", D6, 1, scalar_ok=True) == [3]
    assert dice.used == {"d": [3]}


def test_roll_and_keep_keeps_the_best_sorted_and_echoes_in_given_order():
    dice = Dice({"g": [3, 17, 8, 1]})
    rolled, kept = dice.roll_and_keep("g", 4, 2)
    assert rolled == [3, 17, 8, 1]
    assert kept == [17, 8]
    assert dice.used["g"] == [3, 17, 8, 1]


def test_pick_distinct_within_range():
    assert Dice({"p": [2, 0]}).pick("p", 2, 3) == [2, 0]
    for bad in ([1, 1], [0, 3], [0], "01"):
        with pytest.raises(InvalidInput):
            Dice({"p": bad}).pick("p", 2, 3)
    drawn = Dice(seed=4).pick("p", 3, 5)
    assert len(set(drawn)) == 3 and all(0 <= v < 5 for v in drawn)


@given(st.integers(min_value=-(2**63) + 1, max_value=2**63 - 1))
def test_same_seed_same_rolls(seed):
    def draw():
        dice = Dice(seed=seed)
        return [dice.roll(f"r{i}", D20) for i in range(5)] + [dice.roll("o", OPEN_D10)]

    assert draw() == draw()


def test_dice_must_be_an_object():
    with pytest.raises(InvalidInput) as err:
        Dice([1, 2])
    assert err.value.fields == {"dice": "must be an object of named rolls"}


def test_roll_until_stops_when_done_and_drops_extra_given_results():
    three = lambda rolls: len(rolls) == 3  # noqa: E731
    dice = Dice({"s": [4, 12, 18, 20, 1]})
    assert dice.roll_until("s", D20, 10, three) == [4, 12, 18]
    assert dice.used == {"s": [4, 12, 18]}
    assert Dice({"s": 7}).roll_until("s", D20, 10, lambda r: len(r) == 1) == [7]
    with pytest.raises(InvalidInput, match="not enough"):
        Dice({"s": [4]}).roll_until("s", D20, 10, three)
    with pytest.raises(InvalidInput, match="die 2"):
        Dice({"s": [4, 0, 3]}).roll_until("s", D20, 10, three)
    assert len(Dice(seed=1).roll_until("s", D20, 2, lambda r: False)) == 2


def test_given_dice_are_bounded():
    from rules.dice import MAX_GIVEN_ROLLS

    assert len(Dice({f"r{i}": 1 for i in range(MAX_GIVEN_ROLLS)})._given) == MAX_GIVEN_ROLLS
    with pytest.raises(InvalidInput) as err:
        Dice({f"r{i}": 1 for i in range(MAX_GIVEN_ROLLS + 1)})
    assert err.value.fields == {"dice": f"at most {MAX_GIVEN_ROLLS} named rolls"}
