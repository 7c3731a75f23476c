"""The lobby's lists: open games to join, games to watch, and a player's own games."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import repository
from app.db.models import Game, Seat

from .clocks import WallClock, clocks_of
from .ratings import NEW_VOLATILITY, as_of

LIST_LIMIT = 50
"""Entries per public list: the most recently active first."""
OWN_LIMIT = 30


def seat_entry(number: int, seat: Seat | None,
               accounts: Mapping[str, repository.Account], now: datetime) -> dict[str, Any]:
    """A seat as lists show it: its name, and its account's username and rating (a
    profile to link to) if an account holds it, or the computer's level."""
    entry: dict[str, Any] = {"seat": number, "taken": seat is not None,
                             "name": seat.name if seat is not None else None,
                             "computer": seat.computer if seat is not None else None}
    account = accounts.get(seat.player_id) if seat and seat.player_id else None
    if account is not None:
        # Provisional as of now: a rating left alone long enough is uncertain again.
        shown = as_of(account.rating, account.deviation, NEW_VOLATILITY, account.rated_at,
                      now)
        entry.update(username=account.username, rating=round(account.rating),
                     provisional=shown.provisional)
    return entry


def game_entry(game: Game, seats: Sequence[Seat], player_id: str | None = None, *,
               now: datetime | None = None,
               accounts: Mapping[str, repository.Account] | None = None) -> dict[str, Any]:
    """One game as the lobby shows it, with a timed game's clocks as of ``now``. Player ids
    stay private: ``my_seat`` says which seat is the viewer's own."""
    now = now or datetime.now(UTC)
    by_seat = {s.seat: s for s in seats}
    entry: dict[str, Any] = {
        "game_id": game.id, "status": game.status, "origin": game.origin,
        "options": game.options, "version": game.version, "to_act": game.to_act,
        "winner": game.winner, "victory": game.victory, "time_control": game.time_control,
        "rated": game.rated,
        "created_at": game.created_at.isoformat(), "updated_at": game.updated_at.isoformat(),
        "seats": [seat_entry(n, by_seat.get(n), accounts or {}, now) for n in (0, 1)],
    }
    clocks = clocks_of(game)
    if clocks is not None and game.status == "active":
        entry["clock"] = clocks.to_json(now)
    if player_id is not None:
        entry["my_seat"] = next((s.seat for s in seats if s.player_id == player_id), None)
    return entry


class LobbyService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession],
                 wall: WallClock | None = None) -> None:
        self._sessions = sessions
        self._wall = wall or WallClock()

    async def public(self) -> dict[str, list[dict[str, Any]]]:
        """``open``: listed games waiting for a second player; ``live``: listed games in
        progress, to watch."""
        async with self._sessions() as session:
            lists = {"open": await repository.listed_games(session, "waiting", LIST_LIMIT),
                     "live": await repository.listed_games(session, "active", LIST_LIMIT)}
            seats = await repository.seats_of(
                session, [g.id for games in lists.values() for g in games])
            accounts = await repository.accounts_of(
                session, [s.player_id for held in seats.values() for s in held])
        now = self._wall.now()
        return {name: [game_entry(g, seats[g.id], now=now, accounts=accounts) for g in games]
                for name, games in lists.items()}

    async def own(self, player_id: str) -> list[dict[str, Any]]:
        """The player's games: to resume, and finished ones with their result."""
        async with self._sessions() as session:
            games = await repository.player_games(session, player_id, OWN_LIMIT)
            seats = await repository.seats_of(session, [g.id for g in games])
            accounts = await repository.accounts_of(
                session, [s.player_id for held in seats.values() for s in held])
        now = self._wall.now()
        return [game_entry(g, seats[g.id], player_id, now=now, accounts=accounts)
                for g in games]
