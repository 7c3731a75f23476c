"""Tables. A game is its seed, options and engine version plus its ordered action log;
its state is never stored, only replayed."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    MetaData,
    String,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Timestamps stored and read back in UTC (SQLite keeps no time zone of its own)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: object) -> datetime | None:
        # SQLite would keep the wall time and drop the offset: store the UTC instant.
        if value is not None and value.tzinfo is not None:
            return value.astimezone(UTC)
        return value

    def process_result_value(self, value: datetime | None, dialect: object) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Player(Base):
    """Someone who picked a display name. The browser holds the id in a signed session
    cookie: no password, and the same person in another tab is the same player."""

    __tablename__ = "player"
    # The leaderboard's order, over accounts only (guests, far more, are left out).
    __table_args__ = (Index("ix_player_leaderboard", "rating",
                            postgresql_where=text("username IS NOT NULL"),
                            sqlite_where=text("username IS NOT NULL")),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    username: Mapped[str | None] = mapped_column(String(24), default=None)
    """Set once the player registers (an account); None for a guest."""
    login: Mapped[str | None] = mapped_column(String(24), default=None, unique=True,
                                              index=True)
    """The username in lower case: one account per name, whatever its case."""
    password_hash: Mapped[str | None] = mapped_column(String(255), default=None)
    """argon2 (pwdlib): never the password itself."""
    session_epoch: Mapped[int] = mapped_column(default=0, server_default="0")
    """A login's session carries the epoch it was made at; raising it (log out everywhere,
    a new password) ends every session made before."""
    registered_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    language: Mapped[str | None] = mapped_column(String(8), default=None)
    """An account's language (app/i18n.py): picked on any page, brought back at login."""
    rating: Mapped[float] = mapped_column(Float, default=1500.0, server_default="1500")
    """Glicko-2 rating from rated games (accounts only); a new player's is 1500."""
    rating_deviation: Mapped[float] = mapped_column(Float, default=350.0,
                                                    server_default="350")
    """How uncertain the rating is (Glicko's RD): high while few games were rated."""
    rating_volatility: Mapped[float] = mapped_column(Float, default=0.06,
                                                     server_default="0.06")
    rated_games: Mapped[int] = mapped_column(default=0, server_default="0")
    rated_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    """When the last rated game ended."""


GAME_STATUSES = ("waiting", "active", "finished", "aborted", "expired", "imported")
"""``expired``: nobody joined in time (``DUEL_OPEN_GAME_HOURS``); ``imported``: a record
brought in by an admin for inspection; it is never played."""
ABORT_CAUSES = ("admin", "player", "first_move", "cancelled")
"""``player``: a seat aborted it before both had decided; ``first_move``: a seat missed its
first decision's deadline; ``cancelled``: its creator took it back while it waited."""
GAME_ORIGINS = ("invite", "lobby", "quick_match", "rematch", "import", "computer")


class Game(Base):
    __tablename__ = "game"
    __table_args__ = (Index("ix_game_created_at", "created_at"),
                      Index("ix_game_deadline", "deadline"))

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    engine_version: Mapped[str] = mapped_column(String(16))
    invite_hash: Mapped[str] = mapped_column(String(64))
    """SHA-256 of the invite code: only the creator ever sees the code itself."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    """One of :data:`GAME_STATUSES`."""
    origin: Mapped[str] = mapped_column(String(16), server_default="invite")
    """How the game came to be: one of :data:`GAME_ORIGINS`."""
    listed: Mapped[bool] = mapped_column(server_default=false())
    """Shown in the lobby: open to anyone while waiting, to spectators once started."""
    rated: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Between two accounts, and its result moves their ratings (app/services/ratings.py)."""
    version: Mapped[int] = mapped_column(default=0)
    """Number of actions in the log (the last action's ``seq``)."""
    winner: Mapped[int | None] = mapped_column(default=None)
    victory: Mapped[str | None] = mapped_column(String(16), default=None)
    to_act: Mapped[int | None] = mapped_column(default=None)
    """The seat to act once started (None when over), so lists can say "your turn"."""
    rematch_offer: Mapped[int | None] = mapped_column(default=None)
    """The seat offering a rematch after the game, until the other accepts or declines."""
    rematch_id: Mapped[str | None] = mapped_column(String(32), default=None)
    """The rematch game, once accepted."""
    take_back_offer: Mapped[int | None] = mapped_column(default=None)
    """The seat asking to take its last action back, until the other seat answers; every
    action clears it (an offer is for the game as it stands)."""
    time_control: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    """None: untimed; otherwise ``TimeControl.to_json`` (app/services/clocks.py)."""
    clock0_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
    clock1_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
    """Each seat's time left (milliseconds) when the current decision began."""
    clock_since: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    """When the current decision began (by the database's clock)."""
    clock_running: Mapped[int | None] = mapped_column(default=None)
    """The seat whose clock runs: the seat to act, but None during a seat's first decision
    (app/services/starts.py), which its clock does not pay for."""
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    """When the seat to act runs out of time: its flag falls (a timed game), or its first
    decision is missed and the game is aborted (app/services/starts.py)."""
    abort_cause: Mapped[str | None] = mapped_column(String(16), default=None)
    """Why an aborted game was: one of :data:`ABORT_CAUSES`."""
    abort_seat: Mapped[int | None] = mapped_column(default=None)
    """The seat that aborted the game, or missed its first decision."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class Seat(Base):
    __tablename__ = "seat"

    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"),
                                         primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64))
    """SHA-256 of the seat's secret token."""
    name: Mapped[str | None] = mapped_column(String(40), default=None)
    player_id: Mapped[str | None] = mapped_column(
        ForeignKey("player.id", ondelete="SET NULL"), default=None, index=True)
    """The player holding the seat, when they came with a session (the lobby, the browser);
    their session then opens the seat as the token does."""
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    left_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    """When the seat's last socket closed (on any server): since then, or since it was
    taken if it never had one, it may have been away."""
    request_hash: Mapped[str | None] = mapped_column(String(64), default=None, unique=True,
                                                     index=True)
    """The hash of the idempotency key of the request that took the seat, if it had one:
    its retry finds the seat again (``GameService.create_game``, ``join_game``)."""
    computer: Mapped[str | None] = mapped_column(String(16), default=None)
    """The level of the computer playing this seat (``app.bots.LEVELS``); None: a person."""


class GameAction(Base):
    """One entry of a game's log. (game_id, seq) is the primary key, so of two servers
    appending the same seq, exactly one succeeds."""

    __tablename__ = "game_action"
    __table_args__ = (UniqueConstraint("game_id", "client_id"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"),
                                         primary_key=True)
    seq: Mapped[int] = mapped_column(primary_key=True)
    """1, 2, ...: the version of the game once this action is applied."""
    seat: Mapped[int]
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    notation: Mapped[str] = mapped_column(String(80))
    client_id: Mapped[str | None] = mapped_column(String(64), default=None)
    """The submitting client's own id for the action: the same id is applied once."""
    clock0_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
    clock1_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
    """A timed game's clocks as the action left them (at ``created_at``)."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


CHAT_CHANNELS = ("players", "spectators")
"""``players``: between the two seats, read by everyone watching too; ``spectators``: among
the spectators, never shown to the seats (no advice from the gallery)."""


class ChatMessage(Base):
    """One line of a game's chat: free ``text``, or a quick ``phrase`` (a code the page
    words in its reader's language)."""

    __tablename__ = "chat_message"
    __table_args__ = (Index("ix_chat_message_game_id_id", "game_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(String(16))
    """One of :data:`CHAT_CHANNELS`."""
    seat: Mapped[int | None] = mapped_column(default=None)
    """The sender's seat; None for a spectator."""
    name: Mapped[str | None] = mapped_column(String(40), default=None)
    """The sender's name as it was then (a spectator's player name, if any)."""
    text: Mapped[str | None] = mapped_column(String(500), default=None)
    phrase: Mapped[str | None] = mapped_column(String(32), default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class AdminAction(Base):
    """Something an admin did (abort a game, import a record), kept for the record."""

    __tablename__ = "admin_action"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    game_id: Mapped[str | None] = mapped_column(String(32), index=True, default=None)
    """Not a foreign key: the record outlives the game."""
    kind: Mapped[str] = mapped_column(String(32))
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    client: Mapped[str | None] = mapped_column(String(64), default=None)
    """Where the admin's request came from."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class Server(Base):
    """A running server process. It says it is alive every few seconds (``seen_at``); one
    silent for too long is taken for dead, and what it held (presence, queue places) goes
    with its row."""

    __tablename__ = "server"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, index=True)


class Presence(Base):
    """Who one server has on one game: sockets per seat, and spectators. A game's presence
    is the sum over the living servers."""

    __tablename__ = "presence"

    server_id: Mapped[str] = mapped_column(ForeignKey("server.id", ondelete="CASCADE"),
                                           primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"),
                                         primary_key=True, index=True)
    seat0: Mapped[int] = mapped_column(default=0)
    seat1: Mapped[int] = mapped_column(default=0)
    spectators: Mapped[int] = mapped_column(default=0)


class QueueEntry(Base):
    """A player waiting for a quick-match opponent, on the server holding their lobby
    socket. The one who waited longest is paired first."""

    __tablename__ = "queue_entry"

    player_id: Mapped[str] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"),
                                           primary_key=True)
    server_id: Mapped[str] = mapped_column(ForeignKey("server.id", ondelete="CASCADE"),
                                           index=True)
    entered_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    rated: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Wants a rated game: paired only with another such player, the nearest rating
    first."""
    rating: Mapped[float | None] = mapped_column(Float, default=None)


class RateCount(Base):
    """Events counted for a rate limit: one row per bucket (what is limited), key (whom it
    limits: an address, a player) and fixed window."""

    __tablename__ = "rate_count"
    __table_args__ = (Index("ix_rate_count_window_start", "window_start"),)

    bucket: Mapped[str] = mapped_column(String(32), primary_key=True)
    key: Mapped[str] = mapped_column(String(128), primary_key=True)
    window_start: Mapped[datetime] = mapped_column(UTCDateTime(), primary_key=True)
    count: Mapped[int]


class EndedSession(Base):
    """A browser's session its player logged out of (``app/services/accounts.py``): a copy
    of its cookie no longer holds the player. Kept as long as such a cookie could still
    be presented (its age at most ``player_session_days``)."""

    __tablename__ = "ended_session"
    __table_args__ = (Index("ix_ended_session_player_id", "player_id"),
                      Index("ix_ended_session_ended_at", "ended_at"))

    session_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32))
    ended_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class RatingChange(Base):
    """What one rated game did to one player's rating: the rating history. One row per game
    and player (the primary key), so a result is rated once whatever races to rate it."""

    __tablename__ = "rating_change"
    __table_args__ = (Index("ix_rating_change_player_id_created_at", "player_id",
                            "created_at"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"),
                                         primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"),
                                           primary_key=True)
    seat: Mapped[int]
    score: Mapped[float] = mapped_column(Float)
    """1 a win, 0 a loss, 0.5 a shared victory."""
    rating_before: Mapped[float] = mapped_column(Float)
    deviation_before: Mapped[float] = mapped_column(Float)
    rating_after: Mapped[float] = mapped_column(Float)
    deviation_after: Mapped[float] = mapped_column(Float)
    volatility_after: Mapped[float] = mapped_column(Float)
    opponent_rating: Mapped[float] = mapped_column(Float)
    """The opponent's rating before the game."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


SEAT_RESULTS = ("win", "loss", "shared")


class SeatResult(Base):
    """One seat of a finished game, summed up when the game ended, for profiles and the
    site's statistics (nothing there replays a log)."""

    __tablename__ = "seat_result"
    __table_args__ = (Index("ix_seat_result_player_id_finished_at", "player_id",
                            "finished_at"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"),
                                         primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[str | None] = mapped_column(
        ForeignKey("player.id", ondelete="SET NULL"), default=None)
    result: Mapped[str] = mapped_column(String(8))
    """One of :data:`SEAT_RESULTS`."""
    victory: Mapped[str] = mapped_column(String(16))
    """How the game ended (``Victory``), the same on both seats."""
    first: Mapped[bool]
    """This seat played first (it also drafted first)."""
    points: Mapped[int]
    actions: Mapped[int]
    """The game's length: actions in its log."""
    seconds: Mapped[int]
    """From the game's start (its second seat taken) to its end."""
    rated: Mapped[bool]
    finished_at: Mapped[datetime] = mapped_column(UTCDateTime())


class SeatWonder(Base):
    """A wonder one seat of a finished game drafted, and whether it built it: what the
    wonders' win rates are counted from."""

    __tablename__ = "seat_wonder"
    __table_args__ = (ForeignKeyConstraint(["game_id", "seat"],
                                           ["seat_result.game_id", "seat_result.seat"],
                                           ondelete="CASCADE"),)

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    wonder: Mapped[str] = mapped_column(String(32), primary_key=True)
    """The wonder's id (``app/engine`` data)."""
    built: Mapped[bool]


ANALYSIS_STATUSES = ("working", "done", "failed")


class GameAnalysis(Base):
    """The top bot's reading of every position of a finished game (app/services/computer.py):
    computed once, in the background, by whichever server claimed it first."""

    __tablename__ = "game_analysis"

    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"),
                                         primary_key=True)
    status: Mapped[str] = mapped_column(String(16))
    """One of :data:`ANALYSIS_STATUSES`; a claim left ``working`` too long is taken over."""
    claimed_at: Mapped[datetime] = mapped_column(UTCDateTime())
    iterations: Mapped[int]
    """The search's budget for each position."""
    positions: Mapped[list[Any] | None] = mapped_column(JSON, default=None)
    """Per position before each action: ``{"version", "seat", "chance"}``, the chance of
    winning of the seat to act; while ``working``, the positions read so far."""
    total: Mapped[int | None] = mapped_column(default=None)
    """The positions the analysis reads (None: an analysis claimed before this was kept)."""
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
