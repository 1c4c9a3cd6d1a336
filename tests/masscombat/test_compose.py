"""docker-compose.yml stays coherent with the settings (no docker needed to check it)."""

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_compose_runs_the_app_on_postgres_and_redis():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) == {"db", "redis", "web"}
    web = services["web"]
    assert web["command"] == "bin/run"
    assert web["environment"]["DATABASE_URL"].startswith("postgres://")
    assert web["environment"]["REDIS_URL"].startswith("redis://redis:")
    assert set(web["depends_on"]) == {"db", "redis"}
    readme = (ROOT / "README.md").read_text()
    for variable in web["environment"]:
        assert f"`{variable}`" in readme, f"{variable} is not documented in README.md"


def test_compose_file_is_valid_for_the_compose_client_if_any():
    """``docker compose config`` (or the older ``docker-compose``) when a client is installed."""
    import shutil
    import subprocess

    if shutil.which("docker") and subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0:
        command = ["docker", "compose", "config", "-q"]
    elif shutil.which("docker-compose"):
        command = ["docker-compose", "config", "-q"]
    else:
        return  # the YAML checks above are all this machine can do
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
