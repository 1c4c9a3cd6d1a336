"""Fixtures of the HÉROS tests; the helpers module sits next to this file."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from heros_helpers import NEW_BATTLE, heros  # noqa: E402


@pytest.fixture()
def battle() -> dict:
    """The S9.12 example state."""
    return heros("new-battle", NEW_BATTLE)["state"]
