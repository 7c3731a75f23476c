"""The leaderboard, players' profiles and the site's statistics, all read from what
finished games left behind (``seat_result``, ``rating_change``): no log is replayed."""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import repository

from .errors import ServiceError
from .ratings import Rating

PAGE_SIZE = 50
RECENT_GAMES = 20
BEST_WONDER_GAMES = 3
"""Games with a wonder before its win rate counts among a player's best wonders."""
STATS_SECONDS = 60.0
"""The site's statistics are worked out at most this often (per process)."""
VICTORIES = ("civilian", "military", "science", "resigned", "time", "abandoned")


def _rating_json(rating: float, deviation: float) -> dict[str, Any]:
    return {"rating": round(rating), "deviation": round(deviation),
            "provisional": Rating(rating, deviation).provisional}


def _percent(part: int, whole: int) -> float | None:
    return None if whole == 0 else round(100.0 * part / whole, 1)


@dataclass
class _Tally:
    games: int = 0
    wins: int = 0

    def add(self, won: bool) -> None:
        self.games += 1
        self.wins += won


def _wonder_table(seats: Iterable[repository.PlayedSeat]) -> dict[str, dict[str, Any]]:
    """Per wonder: how often it was drafted and built, and how often its holder won."""
    picked: dict[str, _Tally] = {}
    built: dict[str, _Tally] = {}
    for played in seats:
        won = played.result == "win"
        for wonder in played.wonders:
            picked.setdefault(wonder, _Tally()).add(won)
        for wonder in played.built:
            built.setdefault(wonder, _Tally()).add(won)
    return {wonder: {
        "picked": tally.games, "picked_win_rate": _percent(tally.wins, tally.games),
        "built": built.get(wonder, _Tally()).games,
        "built_win_rate": _percent(built.get(wonder, _Tally()).wins,
                                   built.get(wonder, _Tally()).games)}
        for wonder, tally in sorted(picked.items())}


class StandingsService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], *, min_games: int,
                 clock: Any = time.monotonic) -> None:
        self._sessions = sessions
        self._min_games = min_games
        self._clock = clock
        self._stats: tuple[float, dict[str, Any]] | None = None

    async def leaderboard(self, page: int = 1, per_page: int = PAGE_SIZE) -> dict[str, Any]:
        """One page of the rated accounts with enough games, the best first."""
        async with self._sessions() as session:
            total, rows = await repository.leaderboard(session, self._min_games,
                                                       (page - 1) * per_page, per_page)
        first_rank = (page - 1) * per_page + 1
        return {
            "page": page, "per_page": per_page, "total": total,
            "pages": max(1, math.ceil(total / per_page)), "min_games": self._min_games,
            "players": [{"rank": first_rank + i, "username": username, "games": games,
                         **_rating_json(rating, deviation)}
                        for i, (username, rating, deviation, games) in enumerate(rows)],
        }

    async def profile(self, username: str) -> dict[str, Any]:
        """An account's public page: rating and its history, results by kind, wonders,
        recent games."""
        async with self._sessions() as session:
            player = await repository.account_by_username(session, username)
            if player is None or player.username is None:
                raise ServiceError("not_found", f"no player {username[:40]!r}", 404)
            history = await repository.rating_history(session, player.id)
            seats = await repository.played_seats(session, player.id)
            recent = seats[:RECENT_GAMES]
            against = await repository.opponents(session, player.id, recent)
        results: dict[str, dict[str, int]] = {kind: {"won": 0, "lost": 0}
                                              for kind in VICTORIES}
        shared = 0
        for played in seats:
            if played.result == "shared":
                shared += 1
            elif played.victory in results:
                results[played.victory]["won" if played.result == "win" else "lost"] += 1
        picked = Counter(wonder for played in seats for wonder in played.wonders)
        wonders = _wonder_table(seats)
        best = sorted(((wonder, row) for wonder, row in wonders.items()
                       if row["picked"] >= BEST_WONDER_GAMES),
                      key=lambda item: (-(item[1]["picked_win_rate"] or 0), -item[1]["picked"],
                                        item[0]))
        return {
            "username": player.username, "name": player.name,
            "registered_at": player.registered_at.isoformat() if player.registered_at else None,
            **_rating_json(player.rating, player.rating_deviation),
            "rated_games": player.rated_games,
            "games": len(seats),
            "wins": sum(played.result == "win" for played in seats),
            "losses": sum(played.result == "loss" for played in seats),
            "shared": shared,
            "results": results,
            "history": [{"at": at.isoformat(), "rating": round(rating), "game_id": game_id}
                        for at, rating, game_id in history],
            "favourite_wonders": [{"wonder": wonder, "picked": count}
                                  for wonder, count in sorted(
                                      picked.items(), key=lambda kv: (-kv[1], kv[0]))[:5]],
            "best_wonders_min_picks": BEST_WONDER_GAMES,
            "best_wonders": [{"wonder": wonder, "picked": row["picked"],
                              "win_rate": row["picked_win_rate"]} for wonder, row in best[:5]],
            "recent": [_recent(played, against[played.game_id]) for played in recent],
        }

    async def statistics(self) -> dict[str, Any]:
        """The site's statistics over every finished game (worked out at most every
        :data:`STATS_SECONDS`)."""
        now = self._clock()
        if self._stats is not None and now - self._stats[0] < STATS_SECONDS:
            return self._stats[1]
        async with self._sessions() as session:
            seats = await repository.played_seats(session)
        stats = _statistics(seats)
        self._stats = (now, stats)
        return stats


def _recent(played: repository.PlayedSeat, against: repository.Opponent) -> dict[str, Any]:
    change = against.rating_change
    return {"game_id": played.game_id, "finished_at": played.finished_at.isoformat(),
            "seat": played.seat, "result": played.result, "victory": played.victory,
            "rated": played.rated, "points": played.points, "opponent": against.name,
            "opponent_username": against.username,
            "rating_change": None if change is None else round(change, 1)}


def _statistics(seats: list[repository.PlayedSeat]) -> dict[str, Any]:
    games = [played for played in seats if played.seat == 0]
    decided = [played for played in seats if played.result == "win"]
    victories = Counter(played.victory for played in decided)
    shared = sum(played.result == "shared" for played in games)
    total = len(games)
    first_wins = sum(played.first for played in decided)
    by_victory: dict[str, list[repository.PlayedSeat]] = {}
    for played in games:
        kind = "shared" if played.result == "shared" else played.victory
        by_victory.setdefault(kind, []).append(played)
    return {
        "games": total,
        "victories": {kind: {"games": victories.get(kind, 0),
                             "percent": _percent(victories.get(kind, 0), total)}
                      for kind in VICTORIES} | {
            "shared": {"games": shared, "percent": _percent(shared, total)}},
        "first_player": {"wins": first_wins, "decided": len(decided),
                         "win_rate": _percent(first_wins, len(decided))},
        "length": {
            "actions": _mean(played.actions for played in games),
            "minutes": _mean(played.seconds / 60 for played in games),
            "by_victory": {kind: {"games": len(rows),
                                  "actions": _mean(p.actions for p in rows),
                                  "minutes": _mean(p.seconds / 60 for p in rows)}
                           for kind, rows in sorted(by_victory.items())},
        },
        "wonders": _wonder_table(seats),
    }


def _mean(values: Iterable[float]) -> float | None:
    items = list(values)
    return None if not items else round(sum(items) / len(items), 1)
