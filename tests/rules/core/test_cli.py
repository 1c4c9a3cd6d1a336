"""The CLI: listing, schemas, running, and the exit codes of the contract."""

import io
import json
import subprocess
import sys

import pytest

from rules import registry
from rules.cli import main


@pytest.fixture
def with_toy(monkeypatch, toy):
    monkeypatch.setattr(registry, "_discover", lambda: {"toy": toy})


def run(argv, stdin=""):
    out = io.StringIO()
    code = main(argv, io.StringIO(stdin), out)
    return code, json.loads(out.getvalue())


def test_list(with_toy):
    assert run(["list"]) == (0, {"toy": {"en": "Toy", "fr": "Jouet"}})


def test_ops_prints_input_schemas(with_toy):
    code, out = run(["toy", "ops"])
    assert code == 0
    assert out["operations"]["roll"]["input_schema"]["required"] == ["units"]


def test_run_with_seed_is_reproducible(with_toy):
    body = json.dumps({"units": [{"name": "a", "rate": 1}]})
    first = run(["toy", "roll", "--seed", "4"], body)
    assert first[0] == 0 and first == run(["toy", "roll", "--seed", "4"], body)
    assert set(first[1]) == {"hits", "dice", "log"}


@pytest.mark.parametrize(
    "argv,stdin,field",
    [
        (["toy", "roll"], '{"units": [{"name": "a", "rate": 99}]}', "units[0].rate"),
        (["toy", "roll"], "{not json", ""),
        (["toy", "roll"], "[1, 2]", ""),
        (["toy", "roll", "--seed", "x"], "{}", "argv"),
        (["nope", "ops"], "", "argv"),
        (["toy", "nope"], "{}", "argv"),
        (["toy"], "", "argv"),
    ],
)
def test_invalid_input_exits_2_with_the_error_object(with_toy, argv, stdin, field):
    code, out = run(argv, stdin)
    assert code == 2
    assert set(out) == {"error", "fields"} and field in out["fields"]


def test_real_entry_point():
    done = subprocess.run(
        [sys.executable, "-m", "rules", "list"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert isinstance(json.loads(done.stdout), dict)
    done = subprocess.run(
        [sys.executable, "-m", "rules", "no-such-ruleset", "ops"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2 and done.stderr == ""
    assert "error" in json.loads(done.stdout)
