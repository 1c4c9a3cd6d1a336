"""A run told to use PostgreSQL or Redis fails, never skips, when the service is not there."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Port 9 (discard) on loopback: nothing listens there.
CASES = {
    "DATABASE_URL": ("postgres://postgres@127.0.0.1:9/test", "PostgreSQL is unreachable"),
    "REDIS_URL": ("redis://127.0.0.1:9/0", "Redis is unreachable"),
}


@pytest.mark.parametrize("variable", sorted(CASES))
def test_unreachable_service_fails_the_run(variable):
    url, message = CASES[variable]
    env = {k: v for k, v in os.environ.items() if k not in CASES}
    env[variable] = url
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
         "tests/masscombat/core/test_permission_matrix.py::test_policy_covers_every_action"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 1, result.stdout[-2000:]
    assert message in result.stdout
    assert "1 error" in result.stdout and "skipped" not in result.stdout
