"""Production settings, checked in a fresh process the way the Dockerfile and gunicorn start."""

import json
import os
import subprocess
import sys
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
