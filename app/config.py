"""Settings, read once from the environment (prefix ``DUEL_``) by pydantic-settings."""

from __future__ import annotations

import contextlib
import os
import secrets
from functools import cached_property, lru_cache
from ipaddress import IPv4Network, IPv6Network, ip_network
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEVELOPMENT_ADMIN_PASSWORD = "admin"
"""The admin password when none is set, in development mode only."""
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")


Network = IPv4Network | IPv6Network


def parse_networks(text: str) -> tuple[Network, ...]:
    """``"10.0.0.0/8, 192.168.1.7"`` as networks (an address is a network of one)."""
    return tuple(ip_network(part.strip(), strict=False)
                 for part in text.split(",") if part.strip())


class ConfigurationError(RuntimeError):
    """The settings cannot run a server (e.g. production without a secret key)."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DUEL_", extra="ignore")

    environment: Literal["development", "production"] = "development"
    """``production`` refuses to start without a secret key and has no admin password
    unless one is set; ``development`` fills both in for a one-command local run."""
    database_url: str = "sqlite+aiosqlite:///./duel.db"
    """SQLAlchemy async URL. The default is an embedded SQLite file; production uses
    ``postgresql+asyncpg://user:password@host/dbname``."""
    database_schema: str | None = None
    """PostgreSQL only: the schema holding the tables (default: the server's search path)."""
    public_url: str | None = None
    """Where players reach this server (``https://duel.example``): invite links are built
    from it. Unset: from the address each page was opened on (its ``Host``), so that a
    server reached at ``http://192.168.1.7:9000`` hands out links to that address."""
    allowed_hosts: str = ""
    """Comma-separated host names (``duel.example, *.duel.example``) this server answers
    to, besides the public URL's. In production any other ``Host`` is refused (400), and
    an empty list with no public URL stops the server at start; in development the
    server answers any host, but opens sockets from pages of these hosts, of IP addresses
    and of ``localhost`` only (docs/protocol.md, "Where a socket may come from")."""
    secret_key: str | None = None
    """Signs the session cookies. Required in production; every server of one site needs
    the same. In development, read from (or created in) ``secret_key_file``."""
    secret_key_file: Path = Path(".duel-secret")
    admin_password: str | None = None
    """The password of ``/admin``. Unset in production: the admin pages are closed."""
    admin_session_hours: float = 8.0
    """An admin login lasts this long."""
    player_session_days: float = 365.0
    """A player's browser keeps its identity this long after its last visit."""
    max_message_bytes: int = 16_384
    """Larger WebSocket messages are refused with ``too_large``."""
    chat_max_length: int = 300
    """A chat message's longest text, in characters."""
    chat_burst: int = 5
    """Chat messages one sender may send within ``chat_burst_seconds``; more are refused
    (``chat_too_fast``)."""
    chat_burst_seconds: float = 10.0
    heartbeat_interval: float = 15.0
    """Seconds between the server's pings on each WebSocket."""
    heartbeat_timeout: float = 45.0
    """A socket silent this long (no message, no pong) is closed as dead."""
    join_timeout: float = 30.0
    """A new socket must say who it is (a ``join`` message) within this many seconds."""
    database_pool_size: int = 25
    """Database connections each process keeps open (PostgreSQL)."""
    database_pool_overflow: int = 5
    """Connections a process may open beyond those at a peak, closed after use (each
    costs a new connection's setup: a burst mostly waits for the pool instead)."""
    database_pool_timeout: float = 5.0
    """Seconds a request waits for a free connection before it is refused
    (``unavailable``, which clients send again)."""
    moves_working: int = 20
    """Moves a process works on at once (each holds a database connection meanwhile);
    below ``database_pool_size``, so that joins, the lobby and the heartbeat find one."""
    moves_waiting: int = 100
    """Moves that may wait for one of those; a move beyond is refused at once (``busy``,
    which clients send again a second later) rather than left hanging."""
    game_cache_size: int = 2000
    """Games kept replayed in memory; the database stays the truth."""
    lobby_debounce: float = 0.1
    """Lobby changes within this many seconds reach lobby sockets as one update."""
    server_heartbeat: float = 5.0
    """Seconds between a server process's "still alive" in the database."""
    flag_interval: float = 1.0
    """Seconds between a process's looks for timed games whose flag fell (one due sooner
    is waited for to the moment)."""
    first_move_seconds: float = 30.0
    """In a game played live (untimed or real-time) between two people, seconds each seat
    has for its first decision; missing it aborts the game (app/services/starts.py). A
    correspondence game gives a first decision its period."""
    abandon_after: float = 60.0
    """In a game played live (untimed or real-time), a player with no socket for this many
    seconds may have the win claimed by their opponent."""
    server_timeout: float = 20.0
    """A server process silent this long is taken for dead: its presence and its players'
    places in the quick-match queue are cleared."""
    open_game_hours: float = 24.0
    """A game nobody joined this many hours after it was created expires: it leaves the
    lobby, its invite link no longer seats anyone."""
    trusted_proxies: str = ""
    """Comma-separated addresses or networks (``10.0.0.0/8``) of the reverse proxies in
    front of the servers: from them alone ``X-Forwarded-For`` is believed, to learn a
    client's address (throttles and limits count per address). Empty: no proxy; the
    address is the connection's."""
    games_per_hour: int = 30
    """Games one address, or one player, may create per hour; more are refused
    (``too_many_games``)."""
    joins_per_hour: int = 60
    """Games one address, or one player, may join per hour (``too_many_joins``)."""
    sockets_per_address: int = 40
    """Open sockets (game and lobby) from one address, on each process (``too_many_sockets``)."""
    spectators_per_game: int = 100
    """Spectators one game may have, counted on each process as they join
    (``too_many_spectators``); its players always get in."""
    spectator_presence_seconds: float = 2.0
    """When only the number of spectators changes, spectators hear it at most this often
    (the players at once): a crowd arriving costs each a message now and then, not one
    per arrival."""
    socket_burst: int = 30
    """Messages a socket may send at once; beyond, ``socket_rate`` per second
    (``too_fast``: the message is not read)."""
    socket_rate: float = 10.0
    accounts_per_hour: int = 10
    """Accounts one address may register per hour (``too_many_accounts``)."""
    leaderboard_min_games: int = 5
    """Rated games an account must have played to be on the leaderboard."""
    computer_workers: int = Field(default=1, ge=1, le=64)
    """Processes that think for the computer players, apart from the server's own (which
    never waits for them). A decision has no time limit: its level is a budget of work
    (docs/bots.md gives each level's worst case)."""
    computer_games_per_hour: int = 60
    """Games against the computer one player or address may start per hour."""
    analysis_iterations: int = Field(default=0, ge=0)
    """The search's iterations for each position of a finished game's analysis; 0: the
    top level's."""
    analysis_enabled: bool = True
    """Analyse every finished game in the background."""
    analysis_workers: int = Field(default=0, ge=0, le=256)
    """Processes that read a finished game's positions side by side, at a lower priority
    than the computer's moves; 0: one per core (``os.cpu_count()``)."""
    login_attempts: int = 5
    """Password attempts allowed per 15 minutes from one browser that logged in before,
    or from one address (a right one forgets them); beyond, that browser or address waits
    (``too_many_attempts``)."""
    login_attempts_per_account: int = 100
    """Password attempts allowed per hour from every browser that never logged in, taken
    together: an attack from many addresses meets this, and still does not lock out a
    browser that logged in before."""
    minify_assets: bool = True
    """Send the pages' scripts and style sheets minified (esbuild, from npm); ``false``
    sends them as written, for reading them in the browser."""
    pseudo_locale: bool = False
    """Offer the pseudo-locale ``qps`` (cookie ``lang=qps``): English marked ``⟦…⟧``, for the
    tests that look for words not going through a catalog (app/i18n.py). Never offered in
    production, whatever this says."""
    log_format: Literal["json", "text"] = "json"
    """``json``: one JSON object per log line, for a log collector; ``text``: lines for a
    person at a terminal (``docs/operations.md``)."""
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    """The least severe log records written (the libraries' never below INFO: their
    debug lines are noise here); ``DEBUG`` adds a line per committed move."""

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies_are_networks(cls, value: str) -> str:
        parse_networks(value)  # a typo stops the server at start, not a throttle later
        return value

    @cached_property
    def proxy_networks(self) -> tuple[Network, ...]:
        return parse_networks(self.trusted_proxies)

    @property
    def production(self) -> bool:
        return self.environment == "production"

    @property
    def secure_cookies(self) -> bool:
        return self.public_url is not None and self.public_url.startswith("https://")

    @cached_property
    def host_names(self) -> tuple[str, ...]:
        """``allowed_hosts`` and the public URL's host, lower-cased (patterns as written)."""
        names = [part.strip().lower() for part in self.allowed_hosts.split(",") if part.strip()]
        if self.public_url:
            public = urlsplit(self.public_url).hostname
            if public and public not in names:
                names.append(public)
        return tuple(names)

    def trusted_hosts(self) -> tuple[str, ...]:
        """The hosts a production server answers to: ``host_names`` and the loopback ones
        (a health check or scraper on the machine itself; no other site's page can reach
        the server by them)."""
        if not self.host_names:
            raise ConfigurationError(
                "DUEL_ALLOWED_HOSTS or DUEL_PUBLIC_URL must be set in production "
                "(the host names the server answers to)")
        return (*self.host_names, *LOOPBACK_HOSTS)

    def analysis_processes(self) -> int:
        """How many processes analyse: :attr:`analysis_workers`, or one per core."""
        return self.analysis_workers or os.cpu_count() or 1

    def session_secret(self) -> str:
        """The key that signs sessions (see ``secret_key``)."""
        if self.secret_key:
            return self.secret_key
        if self.production:
            raise ConfigurationError(
                "DUEL_SECRET_KEY must be set in production (it signs the session cookies)")
        path = self.secret_key_file
        if not path.exists():
            # Written aside, then linked into place: of servers starting together, one key
            # wins and every one of them reads it.
            draft = path.with_name(f"{path.name}.{secrets.token_hex(4)}")
            draft.write_text(secrets.token_urlsafe(32))
            draft.chmod(0o600)
            with contextlib.suppress(FileExistsError):
                os.link(draft, path)
            draft.unlink()
        return path.read_text().strip()

    def admin_secret(self) -> str | None:
        """The admin password, or None when the admin pages are closed."""
        if self.admin_password:
            return self.admin_password
        return None if self.production else DEVELOPMENT_ADMIN_PASSWORD


@lru_cache
def get_settings() -> Settings:
    return Settings()
