"""Every query the services make, in one place. Functions take an open session; the caller
owns the transaction."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from .models import Game, GameAction, Seat


async def get_game(session: AsyncSession, game_id: str) -> Game | None:
    return await session.get(Game, game_id)


async def get_seats(session: AsyncSession, game_id: str) -> Sequence[Seat]:
    result = await session.scalars(select(Seat).where(Seat.game_id == game_id).order_by(Seat.seat))
    return result.all()


async def actions_after(session: AsyncSession, game_id: str, seq: int) -> Sequence[GameAction]:
    """The log entries after ``seq``, in order."""
    result = await session.scalars(
        select(GameAction).where(GameAction.game_id == game_id, GameAction.seq > seq)
        .order_by(GameAction.seq)
    )
    return result.all()


async def action_by_client_id(session: AsyncSession, game_id: str,
                              client_id: str) -> GameAction | None:
    return await session.scalar(
        select(GameAction).where(GameAction.game_id == game_id, GameAction.client_id == client_id)
    )


def add_action(session: AsyncSession, game_id: str, *, seq: int, seat: int,
               action: dict[str, Any], notation: str, client_id: str | None) -> None:
    session.add(GameAction(game_id=game_id, seq=seq, seat=seat, action=action,
                           notation=notation, client_id=client_id))


async def record_progress(session: AsyncSession, game_id: str, *, version: int, status: str,
                          winner: int | None, victory: str | None) -> None:
    await session.execute(
        update(Game).where(Game.id == game_id).values(
            version=version, status=status, winner=winner, victory=victory,
            updated_at=datetime.now(UTC),
        )
    )
