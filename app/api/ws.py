"""The game WebSocket: ``/ws/games/{game_id}``. Protocol: ``docs/protocol.md``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.clock import Clock
from app.config import Settings
from app.engine import Event, Game
from app.realtime import messages
from app.realtime.hub import Connection, Hub, forget_cancellation, keep_alive, next_message
from app.realtime.limits import Pace
from app.realtime.protocol import (
    Abort,
    AcceptTakeBack,
    Act,
    Chat,
    ChatHistory,
    ClaimWin,
    ClientMessage,
    DeclineRematch,
    DeclineTakeBack,
    Join,
    OfferTakeBack,
    Ping,
    Pong,
    ProtocolError,
    Rematch,
    Resign,
    SeatRequest,
    Sync,
    error_message,
    parse_client_message,
    refusal_message,
    state_parts,
)
from app.services.chat import ChatService, Sender
from app.services.errors import STORAGE_ERRORS, UNAVAILABLE
from app.services.games import GameService, ServiceError

from .clients import serve_admitted
from .identity import FOREIGN_ORIGIN, player_id_of, same_site_origin, session_holds

router = APIRouter()
_S = TypeVar("_S", messages.Welcome, messages.State)
log = logging.getLogger(__name__)


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    settings: Settings = websocket.app.state.settings
    if not same_site_origin(websocket, settings):
        await websocket.close(code=FOREIGN_ORIGIN)  # before the handshake: HTTP 403
        return
    await serve_admitted(websocket, GameSocket(websocket, game_id).run)


async def _claim_win(socket: GameSocket, seat: int) -> Any:
    # Whether the opponent is here is asked of every server now, not of what was last told.
    counts = await socket.hub.counts_now(socket.game_id)
    return await socket.service.claim_win(
        socket.game_id, seat, opponent_present=(counts.seat0, counts.seat1)[1 - seat] > 0)


def _service_call(call: Callable[[GameService, str, int], Awaitable[Any]]
                  ) -> Callable[[GameSocket, int], Awaitable[Any]]:
    return lambda socket, seat: call(socket.service, socket.game_id, seat)


_SEAT_REQUESTS: dict[type[SeatRequest], Callable[[GameSocket, int], Awaitable[Any]]] = {
    Rematch: _service_call(GameService.offer_rematch),
    DeclineRematch: _service_call(GameService.decline_rematch),
    Resign: _service_call(GameService.resign),
    OfferTakeBack: _service_call(GameService.offer_take_back),
    AcceptTakeBack: _service_call(GameService.accept_take_back),
    DeclineTakeBack: _service_call(GameService.decline_take_back),
    ClaimWin: _claim_win,
    Abort: _service_call(GameService.abort_by_player),
}
"""What each request a seat may make (besides its actions) asks of the game service."""


class GameSocket:
    """One client's socket on one game, from accept to close."""

    def __init__(self, websocket: WebSocket, game_id: str) -> None:
        self.websocket = websocket
        self.game_id = game_id
        self.service: GameService = websocket.app.state.service
        self.hub: Hub = websocket.app.state.hub
        self.settings: Settings = websocket.app.state.settings
        self.chat: ChatService = websocket.app.state.chat
        clock: Clock = websocket.app.state.clock
        self.connection = Connection(websocket, clock)
        self.connection.pace = Pace(clock, burst=self.settings.socket_burst,
                                    rate=self.settings.socket_rate)
        self._departed = False

    async def run(self) -> None:
        connection = self.connection
        writer = asyncio.create_task(connection.write_loop())
        watchdog = asyncio.create_task(self._heartbeat())
        watchdog.add_done_callback(forget_cancellation)
        try:
            try:
                await self.service.prepare_socket(self.game_id)
            except STORAGE_ERRORS as error:
                # Not known yet (the database is slow or down a moment): the join looks
                # the game up again, and is refused as unavailable if it still cannot.
                # Closing here would only bring the client back with a new socket.
                log.warning("could not look game %s up at open (%s)", self.game_id, error)
            await self._serve()
        except ServiceError as error:  # no such game, or no room for another spectator
            connection.send(refusal_message(error))
        except WebSocketDisconnect:
            pass
        finally:
            watchdog.cancel()
            connection.close()
            # Closed, it needs no state again; and its connection, held by the hub until
            # the departure is written, holds it no longer (a cycle the collector frees).
            connection.refresh = None
            self._depart()
            with contextlib.suppress(Exception):
                await writer

    def _depart(self) -> None:
        """The socket is gone (closed, or dropped as silent): once, in a task of its own
        (this one may be cancelled as the socket goes)."""
        if not self._departed:
            self._departed = True
            self.hub.depart(self._leave())

    async def _leave(self) -> None:
        """If the socket was its seat's last one here, the seat may be away from now: told
        to the database (where every server's claims read it) before anyone hears it
        left."""
        seat = self.connection.seat
        try:
            if seat is not None and self.connection.welcomed and \
                    not self.hub.seat_held_here(self.game_id, seat, besides=self.connection):
                await self.service.seat_left(self.game_id, seat)
        except Exception:
            log.exception("could not note that seat %s left game %s", seat, self.game_id)
        finally:
            self.hub.detach(self.game_id, self.connection)

    async def _serve(self) -> None:
        limit = self.settings.max_message_bytes
        while True:
            try:
                message = await next_message(self.websocket, self.connection, limit=limit,
                                             parse=parse_client_message)
            except ProtocolError as error:
                self.connection.send(refusal_message(error))
                continue
            if message is None:
                return
            if not isinstance(message, Ping | Pong) and not await session_holds(self.websocket):
                self.connection.send(error_message(
                    "session_ended", "this browser's login has ended: log in again"))
                self.connection.close()
                return
            try:
                await self._handle(message)
            except STORAGE_ERRORS as error:  # nothing was changed; the client may retry
                log.error("storage failure on a game socket", exc_info=error)
                self.connection.send(error_message(
                    "unavailable", UNAVAILABLE,
                    client_id=message.client_id if isinstance(message, Act) else None))

    async def _handle(self, message: ClientMessage) -> None:
        connection = self.connection
        if isinstance(message, Ping):
            connection.send(messages.Pong())
        elif isinstance(message, Pong):
            pass  # hearing from the client is all a pong is for
        elif isinstance(message, Join):
            await self._join(message)
        elif not connection.joined:
            connection.send(error_message(
                "not_joined", "send a join message first",
                client_id=message.client_id if isinstance(message, Act) else None))
        elif isinstance(message, Sync):
            await self._send_state(message.last_version)
        elif isinstance(message, Chat):
            await self._chat(message)
        elif isinstance(message, ChatHistory):
            self.connection.send(messages.ChatSoFar.model_validate({
                "messages": await self.chat.history(self.game_id, connection.seat)}))
        elif connection.seat is None:
            connection.send(error_message(
                "spectator", "spectators cannot act",
                client_id=message.client_id if isinstance(message, Act) else None))
        elif isinstance(message, Act):
            await self._act(message, connection.seat)
        else:
            await self._seat_request(message, connection.seat)

    async def _chat(self, message: Chat) -> None:
        """Everyone who may read the channel hears it (the sender too): only a refusal is
        answered here."""
        seat = self.connection.seat
        sender = Sender(seat, player_id_of(self.websocket), socket=id(self.connection))
        try:
            await self.chat.post(self.game_id, sender, message.channel, text=message.text,
                                 phrase=message.phrase)
        except ServiceError as error:
            self.connection.send(refusal_message(error))

    async def _seat_request(self, message: SeatRequest, seat: int) -> None:
        """Everyone on the game hears the outcome: the published notice, or the update of
        the action (a resignation, a take-back) it made. Only a refusal is answered here."""
        try:
            await _SEAT_REQUESTS[type(message)](self, seat)
        except ServiceError as error:
            self.connection.send(refusal_message(error))

    async def _act(self, message: Act, seat: int) -> None:
        try:
            accepted = await self.service.submit(self.game_id, seat, message.action,
                                                 message.version, message.client_id)
        except ServiceError as error:
            self.connection.send(refusal_message(error, client_id=message.client_id))
            return
        self.connection.send(messages.Ack(client_id=message.client_id,
                                          version=accepted.version,
                                          duplicate=accepted.duplicate))

    async def _join(self, message: Join) -> None:
        connection = self.connection
        if connection.joined:
            connection.send(error_message("already_joined", "this socket has already joined"))
            return
        seat: int | None = None
        if message.seat is not None or message.token is not None:
            if message.seat is None or message.token is None:
                connection.send(error_message("bad_credentials",
                                              "a seat needs both its number and its token"))
                return
            try:
                seat = await self.service.authenticate(self.game_id, message.seat,
                                                       message.token)
            except ServiceError as error:
                connection.send(refusal_message(error))
                return
        else:  # a player's session opens the seat they hold, as its token would
            seat = await self.service.seat_for_player(self.game_id,
                                                      player_id_of(self.websocket))
        limit = self.settings.spectators_per_game
        if seat is None and self.hub.spectators_joined(self.game_id) >= limit:
            # Refused, and the socket closed (as for a game that is not found).
            raise ServiceError("too_many_spectators", f"at most {limit} spectators on a game",
                               429, params={"limit": limit})
        connection.seat = seat
        connection.joined = True
        # Attached before the state is read, so no update can fall between the two.
        connection.hold_updates()
        self.hub.attach(self.game_id, connection)
        try:
            state = await self._state(messages.Welcome, message.last_version)
        except BaseException:  # not joined after all: the client may send join again
            self.hub.detach(self.game_id, connection)
            connection.drop_held_updates()
            connection.seat, connection.joined = None, False
            raise
        connection.welcome(state)  # first: whatever came meanwhile was held back
        connection.release_updates(state.version)
        self.hub.welcomed_at(self.game_id, state.version)
        connection.refresh = self._refresh
        await self.hub.others_known(self.game_id)
        self.hub.presence_changed(self.game_id)

    async def _heartbeat(self) -> None:
        await keep_alive(self.connection, interval=self.settings.heartbeat_interval,
                         timeout=self.settings.heartbeat_timeout,
                         join_timeout=self.settings.join_timeout,
                         on_drop=self._depart)

    async def _send_state(self, last_version: int | None) -> None:
        """Send the full state (a ``sync``'s answer); updates arriving meanwhile wait, and
        only those newer than the state follow it."""
        self.connection.hold_updates()
        try:
            state = await self._state(messages.State, last_version)
        except BaseException:
            self.connection.release_updates(-1)  # whatever came meanwhile, as it came
            raise
        self.connection.send(state)
        self.connection.release_updates(state.version)
        self.hub.welcomed_at(self.game_id, state.version)

    async def _refresh(self) -> None:
        """The state again, unasked (this process may have missed a notice)."""
        try:
            await self._send_state(None)
        except Exception:
            log.exception("could not send a state again on game %s", self.game_id)

    async def _state(self, kind: type[_S], last_version: int | None) -> _S:
        seat = self.connection.seat

        def render(game: Game, version: int, missed: list[list[Event]] | None
                   ) -> dict[str, Any]:
            if missed is None:  # no version said, or one we never had: the full view
                return state_parts(game, version, seat)
            return state_parts(game, version, seat, missed=missed, from_version=last_version)

        now = await self.service.snapshot(self.game_id, last_version, render)
        return kind.model_validate({
            **now.rendered, "status": now.status, "rematch": now.rematch,
            "abort_reason": now.abort_reason, "abort_cause": now.abort_cause,
            "abort_seat": now.abort_seat, "abortable": now.abortable or None,
            "first_move": now.first_move, "take_back_offer": now.take_back_offer,
            "clock": now.clock, "claim_after": now.claim_after})
