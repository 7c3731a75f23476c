"""What a finished game leaves behind, written in the transaction that records its end:
a summary of each seat (for profiles and the site's statistics, which then replay no
log) and, for a rated game, both players' new ratings and their history. Games against
the computer are left out of all of it.

The end of a game is written once (the move that ends it is guarded by the game's
version), and so is all this; a rating change is also keyed by game and player, so no
race can rate one result twice.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import repository
from app.db.repository import SeatSummary
from app.engine import WONDERS, Game
from app.engine.game import replay_json

from .ratings import Rating, as_of, both_rated

log = logging.getLogger(__name__)


def summarise(game: Game) -> list[SeatSummary]:
    """Each seat of a finished game, as its player's record shows it."""
    outcome = game.outcome()
    if outcome is None:
        raise ValueError("the game is not over")
    state = game.state
    summaries = []
    for seat, city in enumerate(state.players):
        result = ("shared" if outcome.winner is None
                  else "win" if outcome.winner == seat else "loss")
        summaries.append(SeatSummary(
            seat=seat, result=result, victory=outcome.victory.value,
            first=state.first_player == seat,
            wonders=[WONDERS[w].id for w in city.wonders],
            built=[WONDERS[w].id for w in city.wonders if w in city.built_wonders],
            points=outcome.scores[seat].total))
    return summaries


SCORES = {"win": 1.0, "loss": 0.0, "shared": 0.5}


def _rows(game: Game, summaries: list[SeatSummary], ended: repository.EndedGame,
          now: datetime) -> list[repository.SeatResultRow]:
    seconds = max(0, round((now - ended.started_at).total_seconds()))
    return [repository.SeatResultRow(summary, ended.players[summary.seat], len(game.log),
                                     seconds, ended.rated, now) for summary in summaries]


async def record_end(session: AsyncSession, game_id: str, game: Game, now: datetime) -> bool:
    """Write what the end of ``game`` leaves (its summary; new ratings if it is rated) in
    ``session``'s transaction, the one that logs its last action: whether it was rated.
    A game against the computer leaves nothing: profiles, the leaderboard and the site's
    statistics are of games between people."""
    ended = await repository.ended_game(session, game_id)
    if ended.against_computer:
        return False
    summaries = summarise(game)
    ids = [player for player in ended.players if player is not None]
    rates = ended.rated and len(set(ids)) == 2
    if rates:  # the players' rows first, locked before anything else refers to them
        stored = await repository.ratings_for_update(session, ids)
    await repository.add_seat_results(session, game_id, _rows(game, summaries, ended, now))
    if not rates:
        return False
    before = tuple(as_of(*glicko, rated_at, now) for glicko, rated_at in
                   (stored[ids[0]], stored[ids[1]]))
    after = both_rated(before[0], before[1], SCORES[summaries[0].result])
    for seat in (0, 1):
        await repository.rate(session, repository.RatingRow(
            game_id=game_id, player_id=ids[seat], seat=seat,
            score=SCORES[summaries[seat].result], before=before[seat].stored,
            after=after[seat].stored, opponent_rating=before[1 - seat].rating, now=now))
    return True


@dataclass
class Backfill:
    """The summaries of games that ended before summaries were kept, written a batch at a
    time by the housekeeping sweep (:meth:`run`), by replaying their logs. Once a batch
    finds none left, there are none to come (every game since is summarised as it ends):
    ``finished`` is set, and this process stops looking."""

    sessions: async_sessionmaker[AsyncSession]
    finished: bool = False
    failed: set[str] = field(default_factory=set)
    """Games whose log could not be summarised (logged once): not tried again."""

    async def run(self, limit: int) -> int:
        """Summarise up to ``limit`` games: how many were. Of two processes doing it at
        once, each game's summary is written once."""
        if self.finished:
            return 0
        async with self.sessions() as session:
            game_ids = await repository.finished_unsummarised(session, limit, self.failed)
        if not game_ids:
            self.finished = True
        done = 0
        for game_id in game_ids:
            try:
                done += await self._summarise(game_id)
            except Exception:  # a log this engine cannot replay: skipped, the rest go on
                log.exception("could not summarise game %s", game_id)
                self.failed.add(game_id)
        return done

    async def _summarise(self, game_id: str) -> int:
        async with self.sessions() as session:
            stored = await repository.game_and_log(session, game_id)
            if stored is None:
                return 0
            row, actions, ended_at = stored
            game = replay_json(row.seed, row.options, actions)
            ended = await repository.ended_game(session, game_id)
            try:
                await repository.add_seat_results(
                    session, game_id, _rows(game, summarise(game), ended, ended_at))
                await session.commit()
            except IntegrityError:  # another process wrote it first
                await session.rollback()
                return 0
        return 1


__all__ = ["Backfill", "Rating", "SeatSummary", "record_end", "summarise"]
