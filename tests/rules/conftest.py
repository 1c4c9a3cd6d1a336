"""Fixtures shared by the engines' tests."""

import importlib.util
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def engine_caps():
    """``benchmarks/engine_caps.py``, whose battles at every size cap the tests play (the script times them)."""
    spec = importlib.util.spec_from_file_location(
        "engine_caps", Path(__file__).resolve().parents[2] / "benchmarks" / "engine_caps.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
