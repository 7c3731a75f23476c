"""HTTP API under ``/api``. OpenAPI at ``/docs``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from app.config import Settings
from app.engine import view
from app.engine.record import to_text as record_text
from app.realtime.protocol import protocol_schema
from app.services.admin import AdminService
from app.services.clocks import (
    CORRESPONDENCE_DAYS,
    FISCHER_INCREMENT,
    FISCHER_MINUTES,
    TimeControl,
)
from app.services.computer import ComputerPlayers
from app.services.games import Credentials, GameService, ServiceError
from app.services.players import clean_name

from .clients import client_address
from .hosts import site_url
from .identity import player_id_of
from .players import NAME_READ, NAME_RULES, name_schema
from .refusals import refusals

router = APIRouter(prefix="/api", tags=["games"])


def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


Service = Annotated[GameService, Depends(_service)]
AppSettings = Annotated[Settings, Depends(_settings)]


class FischerControl(BaseModel):
    """Real time: a bank per player, and an increment each time their clock stops."""

    model_config = ConfigDict(strict=True, extra="forbid")
    kind: Literal["fischer"]
    minutes: int = Field(ge=FISCHER_MINUTES[0], le=FISCHER_MINUTES[1])
    """Each player's bank at the start."""
    increment: int = Field(ge=FISCHER_INCREMENT[0], le=FISCHER_INCREMENT[1])
    """Seconds added to a player's bank each time their clock stops after their action."""


class CorrespondenceControl(BaseModel):
    """Turn-based, over days: each decision has the same time."""

    model_config = ConfigDict(strict=True, extra="forbid")
    kind: Literal["correspondence"]
    days: Literal[CORRESPONDENCE_DAYS]  # type: ignore[valid-type]
    """Days for each move (1, 2, 3 or 7)."""


TimeControlBody = Annotated[FischerControl | CorrespondenceControl, Field(discriminator="kind")]


def time_control_of(body: TimeControlBody | None) -> TimeControl | None:
    """The engine-free time control a request asks for (None: untimed)."""
    if body is None:
        return None
    return TimeControl.from_json(body.model_dump())


class CreateGame(BaseModel):
    model_config = ConfigDict(strict=True)  # "yes" is not taken for true

    wonder_selection: Literal["draft", "first_game"] = "draft"
    """``draft``: the 4 + 4 wonder draft; ``first_game``: the rulebook's fixed wonders."""
    first_player: Literal["random", "creator"] = "random"
    name: str | None = Field(default=None, min_length=1, max_length=NAME_READ,
                             description=f"Shown to the opponent; a player's own name by "
                                         f"default. {NAME_RULES}",
                             json_schema_extra=name_schema)
    listed: bool = False
    """Show the game in the lobby, where anyone may join it; otherwise only the invite
    link lets someone in."""
    time_control: TimeControlBody | None = None
    """null: untimed. The clocks start when the second player joins (docs/protocol.md,
    Clocks)."""
    rated: bool = False
    """The result moves both players' ratings: created and joined by logged-in accounts
    only (``403 rated_needs_account``)."""


class PlayComputer(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    level: str = Field(default="medium", min_length=1, max_length=16)
    """How strong the computer plays: random, greedy, easy, medium or hard, weakest first
    (docs/bots.md); another is refused (``422 unknown_level``)."""
    wonder_selection: Literal["draft", "first_game"] = "draft"
    first_player: Literal["random", "me", "computer"] = "random"


class ComputerGame(BaseModel):
    game_id: str
    seat: int
    """Your seat (the page opens it with your session)."""
    url: str
    """The game's page."""


class JoinGame(BaseModel):
    model_config = ConfigDict(strict=True)

    invite_code: str | None = Field(default=None, min_length=1, max_length=100)
    """Required unless the game is listed in the lobby."""
    name: str | None = Field(default=None, min_length=1, max_length=NAME_READ,
                             description=NAME_RULES, json_schema_extra=name_schema)


class SeatCredentials(BaseModel):
    """Keep the token secret: it is the only proof of holding the seat."""

    game_id: str
    seat: int
    token: str
    socket_url: str


class CreatedGame(SeatCredentials):
    invite_code: str
    invite_url: str
    """Send this link to the opponent."""


class GameView(BaseModel):
    version: int
    seat: int | None
    view: dict[str, Any]


def _clean(name: str | None) -> str | None:
    return None if name is None else clean_name(name)


IdempotencyKey = Annotated[str | None, Header(
    alias="Idempotency-Key", min_length=16, max_length=100, pattern=r"^[A-Za-z0-9_-]+$",
    description="Chosen by the client, at random (16 to 100 URL-safe characters), once per "
                "game it means to create or join: the same request sent again with it (its "
                "answer was lost) gets the same seat and token, and changes nothing.")]


def _address(request: Request, settings: Settings) -> str:
    return client_address(request, settings.proxy_networks)


def _socket_url(site: str, game_id: str) -> str:
    scheme, _, rest = site.partition("://")
    return f"{'wss' if scheme == 'https' else 'ws'}://{rest}/ws/games/{game_id}"


def _credentials(site: str, credentials: Credentials) -> dict[str, Any]:
    return {"game_id": credentials.game_id, "seat": credentials.seat,
            "token": credentials.token,
            "socket_url": _socket_url(site, credentials.game_id)}


@router.post("/games", status_code=201, responses=refusals(400, 403, 409, 422, 429))
async def create_game(body: CreateGame, request: Request, service: Service,
                      settings: AppSettings,
                      idempotency_key: IdempotencyKey = None) -> CreatedGame:
    """Create a game: you hold seat 0; the invite link lets one other person join. With a
    player session, the seat is also that player's."""
    created = await service.create_game(wonder_selection=body.wonder_selection,
                                        creator_starts=body.first_player == "creator",
                                        name=_clean(body.name), player_id=player_id_of(request),
                                        listed=body.listed,
                                        time_control=time_control_of(body.time_control),
                                        request_key=idempotency_key,
                                        address=_address(request, settings),
                                        rated=body.rated)
    game_id = created.credentials.game_id
    # The code in the fragment: a browser keeps it, and sends it to no server (no access
    # log, no proxy's, holds it).
    site = site_url(request, settings)
    invite_url = f"{site}/join/{game_id}#code={created.invite_code}"
    return CreatedGame(**_credentials(site, created.credentials),
                       invite_code=created.invite_code, invite_url=invite_url)


@router.post("/games/computer", status_code=201, responses=refusals(400, 401, 409, 422, 429))
async def play_computer(body: PlayComputer, request: Request, service: Service,
                        settings: AppSettings,
                        idempotency_key: IdempotencyKey = None) -> ComputerGame:
    """Start a game against the computer, at once: you hold seat 0 (your player session
    opens it; pick a name first), the computer seat 1. Never rated."""
    first = {"random": None, "me": 0, "computer": 1}[body.first_player]
    game_id = await service.create_computer_game(
        player_id_of(request), body.level, wonder_selection=body.wonder_selection,
        first_player=first, address=_address(request, settings),
        request_key=idempotency_key)
    return ComputerGame(game_id=game_id, seat=0, url=f"/games/{game_id}")


@router.post("/games/{game_id}/join", responses=refusals(400, 403, 404, 409, 422, 429))
async def join_game(game_id: str, body: JoinGame, request: Request, service: Service, *,
                    settings: AppSettings,
                    idempotency_key: IdempotencyKey = None) -> SeatCredentials:
    """Take the free seat (with the invite code, unless the game is listed in the lobby);
    the game starts."""
    credentials = await service.join_game(game_id, body.invite_code, _clean(body.name),
                                          player_id_of(request), request_key=idempotency_key,
                                          address=_address(request, settings))
    return SeatCredentials(**_credentials(site_url(request, settings), credentials))


@router.get("/games/{game_id}", responses=refusals(404, 422))
async def game_summary(game_id: str, service: Service) -> dict[str, Any]:
    """Public facts: status, options, seats taken, version, result."""
    return await service.summary(game_id)


@router.get("/games/{game_id}/record", response_model=None, responses={
    **refusals(404, 409, 422),
    200: {"description": "The record: a JSON document (`format=json`) or its text, a line "
                         "per move (`format=text`); docs/records.md",
          "content": {"application/json": {}, "text/plain": {}}}})
async def game_record(game_id: str, request: Request, service: Service,
                      format: Literal["json", "text"] = "json") -> Response:
    """A finished game's record, to download: what `python -m app.engine.replay FILE`
    replays and checks. Given once the game is over (`409 not_over` before): by then
    nothing in it is hidden from anyone."""
    if (await service.summary(game_id))["status"] != "finished":
        raise ServiceError("not_over", "a game's record is given once the game is over", 409)
    admin: AdminService = request.app.state.admin
    record = await admin.export(game_id)
    headers = {"Content-Disposition":
               f'attachment; filename="duel-{game_id}.{"txt" if format == "text" else "json"}"'}
    if format == "text":
        return PlainTextResponse(record_text(record), headers=headers)
    return JSONResponse(record, headers=headers)


@router.get("/games/{game_id}/analysis", responses=refusals(404, 409, 422))
async def game_analysis(game_id: str, request: Request) -> dict[str, Any]:
    """A finished game read by the top computer level, position by position: ``status``
    (``pending`` while it is worked on or about to be, ``done``, ``failed``, ``too_short``,
    or ``none``: this game will have none, it ended before analyses) and, once
    done, each position's chance of winning for the seat to act (``chance``) and for seat 0
    (``seat0``), the move the computer prefers there (``best``), and the ``mistakes``: the
    moves after which their player's chance fell most."""
    computer: ComputerPlayers = request.app.state.computer
    return await computer.analysis(game_id)


@router.get("/games/{game_id}/positions/{seq}", responses=refusals(404, 422))
async def replay_position(game_id: str, seq: int, request: Request) -> dict[str, Any]:
    """The game after its first ``seq`` actions (0: as set up), as a spectator saw it at
    that moment (nothing hidden then is in it); the last position of a finished game with
    everything revealed (``revealed``). ``version``: the actions there are so far."""
    admin: AdminService = request.app.state.admin
    return await admin.public_position(game_id, seq)


@router.get("/games/{game_id}/view", responses=refusals(401, 404, 422))
async def seat_view(game_id: str, service: Service,
                    authorization: Annotated[str | None, Header()] = None) -> GameView:
    """The game as your seat sees it. ``Authorization: Bearer <seat token>``."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise ServiceError("bad_credentials", "send Authorization: Bearer <seat token>", 401)
    seat = await service.seat_for_token(game_id, token)
    return await _view(service, game_id, seat)


@router.get("/games/{game_id}/spectate", responses=refusals(404, 422))
async def spectator_view(game_id: str, service: Service) -> GameView:
    """The game as a spectator sees it."""
    return await _view(service, game_id, None)


async def _view(service: GameService, game_id: str, seat: int | None) -> GameView:
    game, version = await service.current(game_id)
    return GameView(version=version, seat=seat, view=view(game, seat))


_PROTOCOL_SCHEMA = protocol_schema()


@router.get("/protocol.schema.json")
async def protocol() -> dict[str, Any]:
    """The JSON Schema of every WebSocket message, both ways, on the game and lobby
    sockets (docs/protocol.md says what they mean)."""
    return _PROTOCOL_SCHEMA
