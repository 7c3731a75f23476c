"""The player behind this browser: ``/api/me``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from app.services.accounts import AccountService
from app.services.errors import ServiceError
from app.services.players import NAME_MAX, PlayerService, name_pattern

from .identity import forget_player, hold_player, player_id_of, renew_session, session_id_of
from .refusals import refusals

router = APIRouter(prefix="/api", tags=["players"])


def _players(request: Request) -> PlayerService:
    players: PlayerService = request.app.state.players
    return players


Players = Annotated[PlayerService, Depends(_players)]


def _accounts(request: Request) -> AccountService:
    accounts: AccountService = request.app.state.accounts
    return accounts


Accounts = Annotated[AccountService, Depends(_accounts)]


NAME_RULES = ("At most 40 characters as sent, none of them a control, format, surrogate or "
              "private-use character, and at least one not a space (the pattern); shown "
              "trimmed, with runs of spaces made one. Another is refused with 422 bad_name "
              "(params.cause: blank, too_long or control).")
"""What a display name must be (``app.services.players.clean_name``), in words."""
NAME_READ = 100
"""Longer than this, a name is not even read (invalid_request); up to it, one over
NAME_MAX is refused by its rule (bad_name, too_long)."""


def name_schema(schema: dict[str, Any]) -> None:
    """A display name's schema: what ``clean_name`` takes, which the server checks itself
    (to refuse with ``bad_name`` and its cause rather than a bare invalid_request)."""
    schema.update(minLength=1, maxLength=NAME_MAX, pattern=name_pattern())


class PickName(BaseModel):
    model_config = ConfigDict(strict=True)

    name: str = Field(min_length=1, max_length=NAME_READ, description=NAME_RULES,
                      json_schema_extra=name_schema)


class Me(BaseModel):
    player_id: str
    name: str
    username: str | None = None
    """The account's username once registered (``POST /api/account``); null for a guest."""


@router.get("/me", responses=refusals(401))
async def me(request: Request, players: Players) -> Me:
    """The player this browser's session names; ``no_player`` before a name is picked."""
    player = await players.get(player_id_of(request))
    if player is None:
        raise ServiceError("no_player", "pick a name first (PUT /api/me)", 401)
    renew_session(request)
    return Me(**player.me_json())


@router.put("/me", responses=refusals(400, 422))
async def pick_name(body: PickName, request: Request, players: Players) -> Me:
    """Pick or change the display name. The first time, this browser becomes a player and
    keeps a signed session cookie; no password is needed."""
    held = player_id_of(request)
    player = await players.name(held, body.name)
    if player.player_id != held:  # a new player
        hold_player(request, player.player_id)
    return Me(**player.me_json())


@router.delete("/me", status_code=204, responses=refusals())
async def forget_me(request: Request, accounts: Accounts) -> Response:
    """Forget the player in this browser, which logs an account out (their games stay
    theirs in the records). The session ends on the server: a copy of this browser's
    cookie no longer holds the player either."""
    player_id, session_id = player_id_of(request), session_id_of(request)
    if player_id is not None and session_id is not None:
        await accounts.end_session(player_id, session_id)
    forget_player(request)
    return Response(status_code=204)
