"""Settings that decide what a server may start with: the session key and the admin
password, in development and in production."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from app.config import DEVELOPMENT_ADMIN_PASSWORD, ConfigurationError, Settings
from app.main import create_app


def test_production_refuses_to_start_without_a_session_key(tmp_path: Path) -> None:
    settings = Settings(environment="production", secret_key_file=tmp_path / "key")
    with pytest.raises(ConfigurationError, match="DUEL_SECRET_KEY"):
        create_app(settings)
    assert not (tmp_path / "key").exists(), "production never makes up a key"


def test_production_uses_the_key_it_is_given() -> None:
    settings = Settings(environment="production", secret_key="k" * 40,
                        public_url="https://duel.example")
    assert settings.session_secret() == "k" * 40
    create_app(settings)


def test_production_refuses_to_start_without_its_host_names() -> None:
    """Without them a production server could not tell its own host from another's."""
    settings = Settings(environment="production", secret_key="k" * 40)
    with pytest.raises(ConfigurationError, match="DUEL_ALLOWED_HOSTS or DUEL_PUBLIC_URL"):
        create_app(settings)
    create_app(Settings(environment="production", secret_key="k" * 40,
                        allowed_hosts="duel.example"))


def test_development_keeps_one_key_across_restarts(tmp_path: Path) -> None:
    path = tmp_path / "secret"
    first = Settings(secret_key_file=path).session_secret()
    assert len(first) >= 32
    assert Settings(secret_key_file=path).session_secret() == first
    assert path.stat().st_mode & 0o077 == 0, "the key file is readable by its owner only"


def test_servers_starting_together_agree_on_one_key(tmp_path: Path) -> None:
    path = tmp_path / "secret"
    keys: list[str] = []
    threads = [threading.Thread(target=lambda: keys.append(
        Settings(secret_key_file=path).session_secret())) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(keys)) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["secret"], "no draft is left behind"


def test_the_admin_password_has_no_default_in_production() -> None:
    assert Settings(environment="production").admin_secret() is None
    assert Settings(environment="production", admin_password="").admin_secret() is None
    assert Settings(environment="production", admin_password="s3cret").admin_secret() == "s3cret"
    assert Settings().admin_secret() == DEVELOPMENT_ADMIN_PASSWORD
    assert Settings(admin_password="s3cret").admin_secret() == "s3cret"


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUEL_ENVIRONMENT", "production")
    monkeypatch.setenv("DUEL_SECRET_KEY", "from-env")
    monkeypatch.setenv("DUEL_ADMIN_PASSWORD", "pw")
    settings = Settings()
    assert settings.production
    assert settings.session_secret() == "from-env"
    assert settings.admin_secret() == "pw"
    monkeypatch.setenv("DUEL_ENVIRONMENT", "staging")
    with pytest.raises(ValueError, match="environment"):
        Settings()
