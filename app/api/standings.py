"""The leaderboard, players' profiles and the site's statistics (``docs/lobby.md``,
Ratings): public, read-only."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from app.services.standings import PAGE_SIZE, StandingsService

from .refusals import refusals

router = APIRouter(prefix="/api", tags=["players"])


def _standings(request: Request) -> StandingsService:
    standings: StandingsService = request.app.state.standings
    return standings


Standings = Annotated[StandingsService, Depends(_standings)]


@router.get("/leaderboard", responses=refusals(422))
async def leaderboard(standings: Standings,
                      page: Annotated[int, Query(ge=1, le=10_000)] = 1,
                      per_page: Annotated[int, Query(ge=1, le=100)] = PAGE_SIZE
                      ) -> dict[str, Any]:
    """Accounts with at least ``min_games`` rated games, the highest rating first. A
    ``provisional`` rating (few games yet) is shown with a "?"."""
    return await standings.leaderboard(page, per_page)


@router.get("/players/{username}", responses=refusals(404, 422))
async def profile(username: str, standings: Standings) -> dict[str, Any]:
    """An account's profile: rating and its history, games by result, favourite and best
    wonders, recent games."""
    return await standings.profile(username)


@router.get("/stats", responses=refusals())
async def statistics(standings: Standings) -> dict[str, Any]:
    """The site's statistics over every finished game: victory kinds, the first player's
    win rate, each wonder's win rate (drafted, built), the games' length."""
    return await standings.statistics()
