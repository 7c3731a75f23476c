"""Settings, read once from the environment (prefix ``DUEL_``) by pydantic-settings."""

from __future__ import annotations

from functools import lru_cache

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DUEL_", extra="ignore")

    database_url: str = "sqlite+aiosqlite:///./duel.db"
    """SQLAlchemy async URL. The default is an embedded SQLite file; production uses
    ``postgresql+asyncpg://user:password@host/dbname``."""
    database_schema: str | None = None
    """PostgreSQL only: the schema holding the tables (default: the server's search path)."""
    public_url: str = "http://127.0.0.1:8000"
    """Where players reach this server: invite links are built from it."""
    max_message_bytes: int = 16_384
    """Larger WebSocket messages are refused with ``too_large``."""
    heartbeat_interval: float = 15.0
    """Seconds between the server's pings on each WebSocket."""
    heartbeat_timeout: float = 45.0
    """A socket silent this long (no message, no pong) is closed as dead."""
    join_timeout: float = 30.0
    """A new socket must say who it is (a ``join`` message) within this many seconds."""
    game_cache_size: int = 2000
    """Games kept replayed in memory; the database stays the truth."""


@lru_cache
def get_settings() -> Settings:
    return Settings()
