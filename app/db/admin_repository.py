"""The admin pages' queries: games by filter, the admin action log, storing an imported
record. Functions take an open session; the caller owns the transaction."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from .models import AdminAction, Game, GameAction, Seat


@dataclass(frozen=True)
class GameQuery:
    """Which games to list: every field left as None matches everything."""

    status: str | None = None
    player: str | None = None
    """A case-insensitive part of either seat's name."""
    created_from: datetime | None = None
    """Created at or after this instant."""
    created_before: datetime | None = None
    """Created strictly before this instant."""


def _filtered(query: GameQuery) -> Select[Game]:
    statement = select(Game)
    if query.status is not None:
        statement = statement.where(Game.status == query.status)
    if query.player is not None:
        # lower() on both sides: PostgreSQL's LIKE is case-sensitive.
        named = select(Seat.game_id).where(
            func.lower(Seat.name).contains(query.player.lower(), autoescape=True))
        statement = statement.where(Game.id.in_(named))
    if query.created_from is not None:
        statement = statement.where(Game.created_at >= query.created_from)
    if query.created_before is not None:
        statement = statement.where(Game.created_at < query.created_before)
    return statement


async def find_games(session: AsyncSession, query: GameQuery, *, offset: int,
                     limit: int) -> tuple[Sequence[Game], int]:
    """One page of the matching games, newest first, and how many match in all."""
    statement = _filtered(query)
    total = await session.scalar(select(func.count()).select_from(statement.subquery()))
    page = await session.scalars(
        statement.order_by(Game.created_at.desc(), Game.id).offset(offset).limit(limit))
    return page.all(), int(total or 0)


async def find_admin_actions(session: AsyncSession, game_id: str | None, *, offset: int,
                             limit: int) -> tuple[Sequence[AdminAction], int]:
    """Admin actions, the latest first (those on one game, with ``game_id``), and their
    number."""
    statement = select(AdminAction)
    if game_id is not None:
        statement = statement.where(AdminAction.game_id == game_id)
    total = await session.scalar(select(func.count()).select_from(statement.subquery()))
    page = await session.scalars(
        statement.order_by(AdminAction.created_at.desc(), AdminAction.id.desc())
        .offset(offset).limit(limit))
    return page.all(), int(total or 0)


def add_admin_action(session: AsyncSession, *, kind: str, game_id: str | None,
                     detail: dict[str, Any], client: str | None) -> None:
    session.add(AdminAction(kind=kind, game_id=game_id, detail=detail, client=client))


async def add_imported_game(session: AsyncSession, game: Game, seats: Sequence[Seat],
                            actions: Sequence[GameAction]) -> None:
    """Write a whole imported game: the game row first (flushed), so that the seats and
    the log rows that point to it go in after it."""
    session.add(game)
    await session.flush()
    session.add_all(seats)
    session.add_all(actions)
