"""Production settings, checked in a fresh process the way the Dockerfile and gunicorn start."""

import json
import os
import re
import socket
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from django.conf import settings

MANAGE = str(Path(settings.BASE_DIR) / "manage.py")


def production_env(**overrides: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    env.update(
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="test-only-secret-key-for-the-deploy-tests-0123456789-abcdefghij",
        DJANGO_ALLOWED_HOSTS="scores.example.org",
    )
    env.update(overrides)
    return env


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, MANAGE, *args], env=env, capture_output=True, text=True, timeout=120
    )


def test_collectstatic_with_debug_off_builds_the_manifest(tmp_path: Path) -> None:
    result = manage(
        "collectstatic", "--noinput", env=production_env(DJANGO_STATIC_ROOT=str(tmp_path))
    )

    assert result.returncode == 0, result.stderr
    assert (tmp_path / "staticfiles.json").exists()
    assert list(tmp_path.glob("js/htmx.min.*.js.gz"))


def test_deploy_checks_pass_with_debug_off() -> None:
    result = manage("check", "--deploy", "--fail-level", "ERROR", env=production_env())

    assert result.returncode == 0, result.stderr


def test_settings_refuse_to_start_without_secret_key_when_debug_is_off() -> None:
    env = production_env()
    del env["DJANGO_SECRET_KEY"]

    result = manage("check", env=env)

    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


def test_debug_is_off_when_the_variable_is_forgotten() -> None:
    # A deployment that forgets DJANGO_DEBUG runs without debug, so it needs its own key.
    env = production_env()
    del env["DJANGO_DEBUG"]
    result = manage(
        "shell", "-c", "from django.conf import settings; print(settings.DEBUG)", env=env
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "False"

    del env["DJANGO_SECRET_KEY"]
    refused = manage("check", env=env)
    assert refused.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in refused.stderr


@pytest.mark.parametrize("redirect", ["1", "0"])
def test_cookies_are_secure_whenever_debug_is_off(redirect: str) -> None:
    # Even when a proxy, not the site, sends plain http to https.
    result = manage(
        "shell",
        "-c",
        "from django.conf import settings; "
        "print(settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE)",
        env=production_env(DJANGO_SECURE_SSL_REDIRECT=redirect),
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "True True"


def database_settings(**env: str) -> dict[str, object]:
    code = (
        "import json; from django.conf import settings; d = settings.DATABASES['default'];"
        " print(json.dumps({k: d[k] for k in ('CONN_MAX_AGE', 'DISABLE_SERVER_SIDE_CURSORS')}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        env={
            **production_env(DATABASE_URL="postgres://tarot@db:5432/tarot_scores"),
            "DJANGO_SETTINGS_MODULE": "tarot_scores.settings",
            **env,
        },
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


def test_postgresql_connections_last_a_minute_with_server_side_cursors_by_default() -> None:
    assert database_settings() == {"CONN_MAX_AGE": 60, "DISABLE_SERVER_SIDE_CURSORS": False}


def test_behind_pgbouncer_in_transaction_mode_no_server_side_cursor() -> None:
    got = database_settings(DATABASE_TRANSACTION_POOLING="1", DATABASE_CONN_MAX_AGE="0")

    assert got == {"CONN_MAX_AGE": 0, "DISABLE_SERVER_SIDE_CURSORS": True}


ROOT = Path(settings.BASE_DIR)
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def dockerfile_instructions(name: str) -> list[str]:
    """The Dockerfile's instructions of one kind (continuation lines joined)."""
    joined = DOCKERFILE.replace("\\\n", " ")
    return [line.split(None, 1)[1] for line in joined.splitlines() if line.startswith(name + " ")]


def test_every_install_comes_from_the_lock_with_hashes() -> None:
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    from_registry = [p for p in lock["package"] if "registry" in p.get("source", {})]
    assert len(from_registry) > 50
    for package in from_registry:
        files = [*package.get("wheels", []), *([package["sdist"]] if "sdist" in package else [])]
        assert files and all(f["hash"].startswith("sha256:") for f in files), package["name"]
    # The image, make run and make test install from it, with one uv.
    makefile = (ROOT / "Makefile").read_text()
    uv_version = re.search(r"^UV_VERSION := (\S+)$", makefile, re.M)
    assert uv_version is not None
    assert f"pip install uv=={uv_version[1]}" in DOCKERFILE
    assert any("uv sync --locked" in run for run in dockerfile_instructions("RUN"))
    assert makefile.count("$(UV) sync --locked") == 2
    assert "pip install -e" not in makefile and "pip install -r" not in DOCKERFILE


def test_the_image_keeps_its_code_read_only_and_migrates_apart() -> None:
    runs = " ".join(dockerfile_instructions("RUN"))
    assert "chown" not in runs and "chmod" not in runs  # /app stays root's
    assert dockerfile_instructions("USER") == ["app"]
    (command,) = dockerfile_instructions("CMD")
    assert json.loads(command)[0] == "gunicorn" and "migrate" not in command
    assert dockerfile_instructions("HEALTHCHECK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_images_command_serves_and_its_healthcheck_passes(tmp_path: Path) -> None:
    """gunicorn started by the image's CMD, then the image's HEALTHCHECK command, outside
    Docker (a port of our own instead of 8000)."""
    port = free_port()
    (command,) = dockerfile_instructions("CMD")
    argv = [a.replace("0.0.0.0:8000", f"127.0.0.1:{port}") for a in json.loads(command)]
    argv[0] = str(Path(sys.executable).with_name("gunicorn"))
    argv[argv.index("--workers") + 1] = "1"
    env = production_env(
        DJANGO_ALLOWED_HOSTS="127.0.0.1", DATABASE_URL=f"sqlite:///{tmp_path}/db.sqlite3"
    )
    healthcheck = dockerfile_instructions("HEALTHCHECK")[0]
    check = json.loads(healthcheck[healthcheck.index("CMD ") + 4 :])
    check = [a.replace("127.0.0.1:8000", f"127.0.0.1:{port}") for a in check]
    check[0] = sys.executable
    server = subprocess.Popen(argv, cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            if subprocess.run(check, env=env, capture_output=True, timeout=30).returncode == 0:
                break
            assert server.poll() is None, "gunicorn stopped"
            time.sleep(0.2)
        else:
            raise AssertionError("the healthcheck never passed")
        server.terminate()
        server.wait(timeout=30)
        assert subprocess.run(check, env=env, capture_output=True, timeout=30).returncode != 0
    finally:
        server.kill()
