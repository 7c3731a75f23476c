"""Offers between the seats and what ends a game without a move: take-backs, rematches,
aborts (a player's, an admin's), a game nobody joined."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.db import repository
from app.db.models import AdminAction, Seat
from app.db.models import Game as GameRow
from app.engine import TakeBack

from .errors import ServiceError
from .moves import _OUT_OF_TURN_TRIES, Moves, _AbortNotice, _first_decision_missed, _Request
from .notices import GameExpired, TakeBackChanged
from .replays import (
    _CLOSED,
    Accepted,
    _refuse_unstarted_or_closed,
    _rematch_of,
    game_not_found,
    new_game_row,
)

log = logging.getLogger(__name__)


class Offers(Moves):
    """What the seats ask one another, and the ways a game ends unplayed."""

    async def offer_take_back(self, game_id: str, seat: int) -> dict[str, Any]:
        """``seat`` asks to take its last action back: allowed if that action is the game's
        last and revealed nothing. The offer stands until the other seat answers, or any
        action is made."""
        if await self._against_computer(game_id, seat):
            raise ServiceError("computer_declines", "the computer does not take moves back",
                               409)
        async with self._lock(game_id), self._statements() as session:
            head = await self._playing_head(session, game_id)
            entry = await self._synced(session, game_id, head, known_version=head.version)
            if not entry.game.can_take_back(seat):
                raise ServiceError("illegal", "this seat has no last action to take back",
                                   409, detail="cannot_take_back", params={"seat": seat})
            if not await repository.offer_take_back(session, game_id, seat, head.version):
                raise ServiceError("stale_version", "the game moved on", 409,
                                   params={"version": head.version + 1})
            await session.commit()
            offered = TakeBackChanged(seat, head.version)
            # Told with the lock held: an action (which takes it) is told after, not before.
            await self._announce(game_id, offered)
        return offered.state()

    async def accept_take_back(self, game_id: str, seat: int) -> Accepted:
        """The other seat's offer is accepted: its last action is undone, in the log. The
        take-back is written at the version the offer was made at, and only while the offer
        stands: a move, a withdrawal or another acceptance coming first leaves nothing to
        accept."""
        async with self._statements() as session:
            head = await self._playing_head(session, game_id)
        asker = 1 - seat
        if head.take_back_offer != asker:
            raise ServiceError("no_take_back", "no take-back is on offer from the other seat",
                               409)
        try:  # the asking seat's take-back, now agreed
            return await self._submit(_Request(game_id, asker, TakeBack(asker), head.version,
                                               None, offer=asker))
        except ServiceError as error:
            if error.code == "stale_version":  # the offer lapsed meanwhile
                raise ServiceError("no_take_back", "the offer lapsed", 409) from None
            raise

    async def decline_take_back(self, game_id: str, seat: int) -> dict[str, Any]:
        """Decline the other seat's offer, or withdraw one's own."""
        async with self._lock(game_id), self._statements() as session:
            head = await self._playing_head(session, game_id)
            if head.take_back_offer is None or not await repository.withdraw_take_back(
                    session, game_id, head.version):
                raise ServiceError("no_take_back", "no take-back is on offer", 409)
            await session.commit()
            declined = TakeBackChanged(None, head.version, declined_by=seat)
            await self._announce(game_id, declined)
        return declined.state()

    # ------------------------------------------------------------------ after a game
    async def rematch_state(self, game_id: str) -> dict[str, Any]:
        async with self._sessions() as session:
            row = await self._row(session, game_id)
            return _rematch_of(row).state()

    async def offer_rematch(self, game_id: str, seat: int) -> dict[str, Any]:
        """Offer a rematch, or accept the other seat's offer: then a new game starts with the
        same options and the seats swapped, each held by the same token and player."""
        async with self._lock(game_id), self._sessions() as session:
            row = await self._row(session, game_id)
            if row.status in _CLOSED:
                raise ServiceError(row.status, _CLOSED[row.status], 409)
            if row.status != "finished":
                raise ServiceError("not_over", "a rematch is offered once the game is over",
                                   409)
            if row.rematch_id is None and row.origin == "computer":
                await self._start_rematch(session, row)  # the computer accepts at once
            elif row.rematch_id is None and row.rematch_offer in (None, seat):
                row.rematch_offer = seat
                row.updated_at = datetime.now(UTC)
                await session.commit()
            elif row.rematch_id is None:
                await self._start_rematch(session, row)
            rematch = _rematch_of(row)
            if rematch.game_id is not None and row.origin == "computer":
                self._started(rematch.game_id)  # before anyone hears of it
            # Told with the lock held: of two seats asking at once, the one that wrote
            # first is told first.
            await self._announce(game_id, rematch)
        if rematch.game_id is not None:
            players = await self._players_of_now(game_id)
            await self._lobby_changed(public=row.listed, players=players)
        return rematch.state()

    async def decline_rematch(self, game_id: str, seat: int) -> dict[str, Any]:
        """Decline the other seat's offer, or withdraw one's own."""
        async with self._lock(game_id), self._sessions() as session:
            row = await self._row(session, game_id)
            if row.rematch_id is not None:
                raise ServiceError("rematch_started", "the rematch has already started", 409)
            if row.rematch_offer is None:
                raise ServiceError("no_offer", "no rematch is on offer", 409)
            row.rematch_offer = None
            await session.commit()
            declined = _rematch_of(row, declined_by=seat)
            await self._announce(game_id, declined)
        return declined.state()

    async def _start_rematch(self, session: AsyncSession, row: GameRow) -> None:
        # A game against the computer stays one (its rematches too are accepted at once).
        origin = "computer" if row.origin == "computer" else "rematch"
        rematch = new_game_row(row.options, status="active", origin=origin,
                               listed=row.listed, seed=self._seeds(),
                               time_control=row.time_control, now=self.wall.now(),
                               rated=row.rated,
                               first_decision=None if origin == "computer" else
                               self._first_decision_time(row.time_control))
        claimed = await repository.claim_rematch(session, row.id, rematch.id,
                                                 offered_by=row.rematch_offer)
        if not claimed:  # another server started it a moment ago
            await session.rollback()
            await session.refresh(row)
            return
        session.add(rematch)
        await session.flush()
        for old in await repository.get_seats(session, row.id):
            session.add(Seat(game_id=rematch.id, seat=1 - old.seat, token_hash=old.token_hash,
                             name=old.name, player_id=old.player_id, computer=old.computer,
                             joined_at=self.wall.now()))
        await session.commit()
        await session.refresh(row)

    # ------------------------------------------------------------------ admin
    async def abort(self, game_id: str, *, reason: str, client: str | None) -> None:
        """Stop a waiting or running game for good; both players are told, and the admin
        action is logged with it."""
        async with self._lock(game_id):
            async with self._sessions() as session:
                row = await self._row(session, game_id)
                # Write to the game's row first, then read it again: from that write to the
                # commit no other server can commit an action (PostgreSQL holds the row,
                # SQLite the database), so what is checked and recorded is the last word.
                row.updated_at = datetime.now(UTC)
                await session.flush()
                await session.refresh(row)
                if row.status not in ("waiting", "active"):
                    raise ServiceError("not_running", f"the game is {row.status}", 409,
                                       params={"status": row.status})
                session.add(AdminAction(game_id=game_id, kind="abort", client=client,
                                        detail={"reason": reason, "version": row.version,
                                                "was": row.status}))
                row.status, row.abort_cause = "aborted", "admin"
                row.to_act = row.deadline = row.clock_running = None
                await session.commit()
            self._cache.pop(game_id, None)
        await self._tell_aborted(_AbortNotice(game_id, "admin", None, row.listed,
                                              await self._players_of_now(game_id), reason))

    async def abort_by_player(self, game_id: str, seat: int) -> None:
        """``seat`` aborts the game: no result, no rating change. Allowed until both seats
        have made a decision of their own; and to the creator (seat 0) of a game still
        waiting for its second player, which is cancelled (it leaves the lobby, its invite
        says so). Both players are told, on every process."""
        for _ in range(_OUT_OF_TURN_TRIES):
            async with self._lock(game_id), self._statements() as session:
                notice = await self._player_abort(session, game_id, seat)
            if notice is not None:
                await self._tell_aborted(notice)
                return
        raise ServiceError("busy", "the game is moving too fast: nothing was changed; send "
                           "it again", 503, params={"retry_after": 1})

    async def _player_abort(self, session: AsyncSession, game_id: str, seat: int
                            ) -> _AbortNotice | None:
        """The abort written, or None if an action came first (look again)."""
        row = await repository.move_context(session, game_id, None)
        if row is None:
            raise game_not_found(game_id)
        if row.status == "waiting":
            players = [s.player_id for s in await repository.seat_rows(session, game_id)]
            if not await repository.cancel_waiting(session, game_id, self.wall.now()):
                await session.rollback()
                return None  # joined (or ended) meanwhile: look again
            await session.commit()
            self._cache.pop(game_id, None)
            return _AbortNotice(game_id, "cancelled", seat, row.listed, players)
        _refuse_unstarted_or_closed(row.status)
        if row.status != "active":
            raise ServiceError("game_over", "the game is over", 409)
        entry = await self._entry_to_write(session, row)
        if entry.decided.both_made:
            raise ServiceError("abort_too_late", "both players have made a decision: the "
                               "game can no longer be aborted (resign instead)", 409)
        cause, by = "player", seat
        if _first_decision_missed(row, entry, self.wall.now()):  # the deadline came first
            cause, by = "first_move", entry.first_decision() or 0
        return await self._abort_at(session, row, entry, cause, by)

    async def expired(self, game_id: str, *, listed: bool, creator: str | None,
                      hours: float) -> None:
        """Tell the game's sockets and the lobby that nobody joined the game in time."""
        self._cache.pop(game_id, None)
        await self._announce(game_id, GameExpired(hours))
        await self._lobby_changed(public=listed, players=[creator])
