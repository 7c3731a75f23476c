"""The leaderboard, players' profiles and the site's statistics, all counted by the
database from what finished games left behind (``seat_result``, ``seat_wonder``,
``rating_change``): no log is replayed, and no table is read into the process."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import repository
from app.engine import Victory

from .errors import ServiceError
from .ratings import NEW_VOLATILITY, as_of

PAGE_SIZE = 50
RECENT_GAMES = 20
BEST_WONDER_GAMES = 3
"""Drafts of a wonder before its win rate counts among a player's best wonders."""
STATS_SECONDS = 60.0
"""The site's statistics are worked out at most this often (per process)."""
VICTORIES = tuple(victory.value for victory in Victory)


def _rating_json(rating: float, deviation: float, rated_at: datetime | None,
                 now: datetime) -> dict[str, Any]:
    """A rating as shown: its deviation as of ``now`` (wider for a player who has been
    away, as their next game will take it), and whether it is provisional then."""
    shown = as_of(rating, deviation, NEW_VOLATILITY, rated_at, now)
    return {"rating": round(rating), "deviation": round(shown.deviation),
            "provisional": shown.provisional}


def _percent(part: int, whole: int) -> float | None:
    return None if whole == 0 else round(100.0 * part / whole, 1)


def _wonders_json(tallies: Iterable[repository.WonderTally]) -> dict[str, dict[str, Any]]:
    return {tally.wonder: {
        "picked": tally.drafted, "picked_win_rate": _percent(tally.drafted_won, tally.drafted),
        "built": tally.built, "built_win_rate": _percent(tally.built_won, tally.built)}
        for tally in tallies}


class StandingsService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], *, min_games: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._sessions = sessions
        self._min_games = min_games
        self._clock = clock
        self._stats: tuple[float, dict[str, Any]] | None = None
        self._counting = asyncio.Lock()
        """One count of the statistics at a time: the requests meanwhile wait for it."""

    async def leaderboard(self, page: int = 1, per_page: int = PAGE_SIZE) -> dict[str, Any]:
        """One page of the rated accounts with enough games, the best first."""
        async with self._sessions() as session:
            total, rows = await repository.leaderboard(session, self._min_games,
                                                       (page - 1) * per_page, per_page)
        first_rank = (page - 1) * per_page + 1
        now = datetime.now(UTC)
        return {
            "page": page, "per_page": per_page, "total": total,
            "pages": max(1, math.ceil(total / per_page)), "min_games": self._min_games,
            "players": [{"rank": first_rank + i, "username": row.username, "games": row.games,
                         **_rating_json(row.rating, row.deviation, row.rated_at, now)}
                        for i, row in enumerate(rows)],
        }

    async def profile(self, username: str) -> dict[str, Any]:
        """An account's public page: rating and its history, results by kind, wonders,
        recent games."""
        async with self._sessions() as session:
            player = await repository.account_by_username(session, username)
            if player is None or player.username is None:
                raise ServiceError("not_found", f"no player {username[:40]!r}", 404)
            history = await repository.rating_history(session, player.id)
            endings = await repository.results_by_ending(session, player.id)
            tallies = await repository.wonder_tallies(session, player.id)
            recent = await repository.played_seats(session, player.id, RECENT_GAMES)
            against = await repository.opponents(session, player.id, recent)
        results = {kind: {"won": 0, "lost": 0} for kind in VICTORIES}
        counts = {"win": 0, "loss": 0, "shared": 0}
        for ending, result, seats in endings:
            counts[result] += seats
            if ending in results:
                results[ending]["won" if result == "win" else "lost"] += seats
        favourite = sorted(tallies, key=lambda t: (-t.drafted, t.wonder))[:5]
        best = sorted((t for t in tallies if t.drafted >= BEST_WONDER_GAMES),
                      key=lambda t: (-t.drafted_won / t.drafted, -t.drafted, t.wonder))[:5]
        return {
            "username": player.username, "name": player.name,
            "registered_at": player.registered_at.isoformat() if player.registered_at else None,
            **_rating_json(player.rating, player.rating_deviation, player.rated_at,
                           datetime.now(UTC)),
            "rated_games": player.rated_games,
            "games": sum(counts.values()), "wins": counts["win"], "losses": counts["loss"],
            "shared": counts["shared"],
            "results": results,
            "history": [{"at": at.isoformat(), "rating": round(rating), "game_id": game_id}
                        for at, rating, game_id in history],
            "favourite_wonders": [{"wonder": t.wonder, "picked": t.drafted} for t in favourite],
            "best_wonders_min_picks": BEST_WONDER_GAMES,
            "best_wonders": [{"wonder": t.wonder, "picked": t.drafted,
                              "win_rate": _percent(t.drafted_won, t.drafted)} for t in best],
            "recent": [_recent(played, against[played.game_id]) for played in recent],
        }

    async def statistics(self) -> dict[str, Any]:
        """The site's statistics over every finished game, counted by the database at most
        every :data:`STATS_SECONDS` (one count at a time)."""
        async with self._counting:
            if self._stats is not None and self._clock() - self._stats[0] < STATS_SECONDS:
                return self._stats[1]
            async with self._sessions() as session:
                lengths = await repository.game_lengths(session)
                first_wins = await repository.first_player_wins(session)
                tallies = await repository.wonder_tallies(session)
            stats = _statistics(lengths, first_wins, tallies)
            self._stats = (self._clock(), stats)
            return stats


def _recent(played: repository.PlayedSeat, against: repository.Opponent) -> dict[str, Any]:
    change = against.rating_change
    return {"game_id": played.game_id, "finished_at": played.finished_at.isoformat(),
            "seat": played.seat, "result": played.result, "victory": played.victory,
            "rated": played.rated, "points": played.points, "opponent": against.name,
            "opponent_username": against.username,
            "rating_change": None if change is None else round(change, 1)}


def _statistics(lengths: list[repository.Lengths], first_wins: int,
                tallies: list[repository.WonderTally]) -> dict[str, Any]:
    total = sum(length.games for length in lengths)
    games = {length.ending: length.games for length in lengths}
    decided = total - games.get("shared", 0)
    return {
        "games": total,
        "victories": {kind: {"games": games.get(kind, 0),
                             "percent": _percent(games.get(kind, 0), total)}
                      for kind in (*VICTORIES, "shared")},
        "first_player": {"wins": first_wins, "decided": decided,
                         "win_rate": _percent(first_wins, decided)},
        "length": {
            "actions": _mean(((group.actions, group.games) for group in lengths), total),
            "minutes": _mean(((group.seconds / 60, group.games) for group in lengths), total),
            "by_victory": {group.ending: {"games": group.games,
                                          "actions": round(group.actions, 1),
                                          "minutes": round(group.seconds / 60, 1)}
                           for group in sorted(lengths, key=lambda group: group.ending)},
        },
        "wonders": _wonders_json(tallies),
    }


def _mean(weighted: Iterable[tuple[float, int]], total: int) -> float | None:
    """The mean of groups' means, each weighted by its size."""
    return None if total == 0 else round(sum(mean * n for mean, n in weighted) / total, 1)
