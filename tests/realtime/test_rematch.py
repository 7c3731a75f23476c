"""Rematch (docs/lobby.md, "Rematch"): after a finished game either seat offers, the other
accepts or declines; an accepted rematch is a new game with the same options and the
seats swapped, each seat's token and session following its holder.

Every test runs on SQLite and on PostgreSQL (the ``make_app`` and ``database`` fixtures)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.db import repository
from app.services.games import GameService, ServiceError
from tests.factories import (
    Database,
    ProtocolClient,
    browser,
    game_summary,
    lobby_picture,
    make_move,
    new_game,
    play_out,
    player,
    random_moves,
    serve,
    servers,
    started_game,
    submit_moves,
)
from tests.realtime.interleaving import Gate

TIMEOUT = 10.0
NO_REMATCH = {"offered_by": None, "game_id": None}


@dataclass
class Finished:
    """A game one move from its end (``last_move`` makes it), Ann in seat 0 (with her
    token) and Bob in seat 1 (with his session), and a spectator: all on the socket."""

    client: TestClient
    bob: TestClient
    game_id: str
    tokens: tuple[str, str]
    last_move: dict[str, Any]
    seats: tuple[ProtocolClient, ProtocolClient]
    spectator: ProtocolClient

    @property
    def everyone(self) -> list[ProtocolClient]:
        return [*self.seats, self.spectator]

    def finish(self) -> None:
        version = make_move(self.client, self.game_id, self.last_move)
        for socket in self.everyone:
            while socket.version < version:
                socket.receive_until("update")
        assert game_summary(self.client, self.game_id)["status"] == "finished"

    def close(self) -> None:
        for socket in self.everyone:
            socket.close()


def _almost_finished(ann: TestClient, **options: Any) -> Finished:
    bob = browser(ann)
    player(ann, "Ann")
    player(bob, "Bob")
    created, joined = new_game(ann, joiner=bob, **options)
    game_id = created["game_id"]
    [(_, last_move)] = play_out(ann, game_id, keep=1)
    seat0 = ProtocolClient(browser(ann), game_id, timeout=TIMEOUT)  # by token alone
    seat1 = ProtocolClient(bob, game_id, timeout=TIMEOUT)  # by session alone
    spectator = ProtocolClient(browser(ann), game_id, timeout=TIMEOUT)
    welcomes = [seat0.join(0, created["token"]), seat1.join(), spectator.join()]
    assert [w["seat"] for w in welcomes] == [0, 1, None]
    for welcome in welcomes:
        assert welcome["status"] == "active" and welcome["rematch"] == NO_REMATCH
    return Finished(ann, bob, game_id, (created["token"], joined["token"]), last_move,
                    (seat0, seat1), spectator)


def _send(socket: ProtocolClient, kind: str) -> None:
    socket.send({"type": kind})


def _everyone_hears(table: Finished, notice: dict[str, Any]) -> None:
    for socket in table.everyone:
        assert socket.receive_until("rematch") == {"type": "rematch", **notice}


def _refused(socket: ProtocolClient, kind: str, code: str) -> None:
    _send(socket, kind)
    error = socket.receive_until("error")
    assert error["code"] == code, error


def test_offer_decline_withdraw_and_accept(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(lobby_debounce=0.01)) as ann:
        table = _almost_finished(ann, wonder_selection="first_game", first_player="creator")
        seat0, seat1 = table.seats
        old_options = game_summary(ann, table.game_id)["options"]

        # Not before the end; and nothing was offered meanwhile.
        _refused(seat0, "rematch", "not_over")
        _refused(seat1, "decline_rematch", "no_offer")
        table.finish()

        _send(seat0, "rematch")
        _everyone_hears(table, {"offered_by": 0, "game_id": None})
        _send(seat0, "rematch")  # again: nothing changes, the notice is repeated
        _everyone_hears(table, {"offered_by": 0, "game_id": None})
        _send(seat1, "decline_rematch")
        _everyone_hears(table, {**NO_REMATCH, "declined_by": 1})
        _refused(seat1, "decline_rematch", "no_offer")

        _send(seat1, "rematch")
        _everyone_hears(table, {"offered_by": 1, "game_id": None})
        _send(seat1, "decline_rematch")  # withdrawn by the one who offered it
        _everyone_hears(table, {**NO_REMATCH, "declined_by": 1})

        # Spectators have no say.
        _refused(table.spectator, "rematch", "spectator")
        _refused(table.spectator, "decline_rematch", "spectator")

        _send(seat1, "rematch")
        _everyone_hears(table, {"offered_by": 1, "game_id": None})
        _send(seat0, "rematch")  # accepts
        notice = seat0.receive_until("rematch")
        new_id = notice["game_id"]
        assert notice == {"type": "rematch", "offered_by": None, "game_id": new_id}
        assert new_id not in (None, table.game_id)
        for socket in (seat1, table.spectator):
            assert socket.receive_until("rematch") == notice
        _refused(seat1, "decline_rematch", "rematch_started")

        # The new game: started, the same options, the seats swapped.
        summary = game_summary(ann, new_id)
        assert summary["status"] == "active" and summary["origin"] == "rematch"
        assert summary["options"] == old_options
        assert [s["name"] for s in summary["seats"]] == ["Bob", "Ann"]
        anns_token, bobs_token = table.tokens
        with ProtocolClient(browser(ann), new_id, timeout=TIMEOUT) as by_token:
            assert by_token.join(0, anns_token)["code"] == "bad_credentials"
            assert by_token.join(1, anns_token)["seat"] == 1
        with ProtocolClient(browser(ann), new_id, timeout=TIMEOUT) as by_token:
            assert by_token.join(0, bobs_token)["seat"] == 0
        for client, seat in ((ann, 1), (table.bob, 0)):
            with ProtocolClient(client, new_id, timeout=TIMEOUT) as by_session:
                welcome = by_session.join()
                assert welcome["seat"] == seat
                assert welcome["status"] == "active" and welcome["rematch"] == NO_REMATCH
        # It is in both players' own games, with their new seats.
        for client, seat in ((ann, 1), (table.bob, 0)):
            mine = {e["game_id"]: e for e in lobby_picture(client)["mine"]}
            assert mine[new_id]["my_seat"] == seat and mine[new_id]["origin"] == "rematch"

        # Accepting again changes nothing: the same notice, still one rematch.
        _send(seat1, "rematch")
        _everyone_hears(table, {"offered_by": None, "game_id": new_id})
        assert len(lobby_picture(ann)["mine"]) == 2
        table.close()


def test_a_reconnecting_client_is_told_the_rematch_state(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(lobby_debounce=0.01)) as ann:
        table = _almost_finished(ann)
        table.finish()

        def welcome() -> dict[str, Any]:
            with ProtocolClient(browser(ann), table.game_id, timeout=TIMEOUT) as late:
                message = late.join(last_version=table.seats[0].version)
                assert message["missed"] == []
                return message

        assert (welcome()["status"], welcome()["rematch"]) == ("finished", NO_REMATCH)
        _send(table.seats[1], "rematch")
        _everyone_hears(table, {"offered_by": 1, "game_id": None})
        assert welcome()["rematch"] == {"offered_by": 1, "game_id": None}
        # The seat that offered sees its offer again when it comes back (and may withdraw).
        with ProtocolClient(table.bob, table.game_id, timeout=TIMEOUT) as again:
            assert again.join()["rematch"] == {"offered_by": 1, "game_id": None}
        _send(table.seats[0], "rematch")
        new_id = table.seats[0].receive_until("rematch")["game_id"]
        assert welcome()["rematch"] == {"offered_by": None, "game_id": new_id}
        table.seats[0].send({"type": "sync"})
        state = table.seats[0].receive_until("state")
        assert (state["status"], state["rematch"]) == ("finished", {"offered_by": None,
                                                                    "game_id": new_id})
        table.close()


def test_both_seats_asking_at_once_make_one_rematch(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(lobby_debounce=0.01)) as ann:
        table = _almost_finished(ann)
        table.finish()
        for _round in range(2):
            for socket in table.seats:  # both sent before either is answered
                _send(socket, "rematch")
            for socket in table.everyone:
                notices = [socket.receive_until("rematch"), socket.receive_until("rematch")]
                assert notices[-1]["game_id"] is not None, notices
        for socket in table.everyone:
            notices = [m for m in socket.inbox if m["type"] == "rematch"]
            assert len(notices) == 4
            assert len({n["game_id"] for n in notices if n["game_id"]}) == 1, notices
        for client in (ann, table.bob):
            mine = lobby_picture(client)["mine"]
            assert len(mine) == 2, "more than one rematch game"
        table.close()


# ---------------------------------------------------------------------- two servers

async def _finished_game(service: GameService) -> str:
    """A game played to its end through ``service`` with random moves: its id."""
    game_id, _ = await started_game(service)
    game, _ = await service.current(game_id)
    await submit_moves(service, game_id, random_moves(game, seed=5))
    return game_id


async def test_accepting_on_two_servers_at_once_makes_one_rematch(
        database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 1's two tabs, on two servers, accept at the same moment: the database lets one
    rematch in, and both are told of that one."""
    async with servers(database, 2) as (one, two):
        game_id = await _finished_game(one.service)
        await one.service.offer_rematch(game_id, 0)

        both_there = asyncio.Barrier(2)
        claim = repository.claim_rematch

        async def in_step(*args: Any, **kwargs: Any) -> bool:
            await asyncio.wait_for(both_there.wait(), 10)
            return await claim(*args, **kwargs)

        monkeypatch.setattr(repository, "claim_rematch", in_step)
        states = await asyncio.gather(one.service.offer_rematch(game_id, 1),
                                      two.service.offer_rematch(game_id, 1))
        new_id = states[0]["game_id"]
        assert new_id is not None and states == [{"offered_by": None, "game_id": new_id}] * 2
        assert (await one.service.summary(new_id))["origin"] == "rematch"
        with pytest.raises(ServiceError):
            await two.service.decline_rematch(game_id, 0)
        assert await two.service.rematch_state(game_id) == {"offered_by": None,
                                                           "game_id": new_id}


async def test_an_offer_withdrawn_on_another_server_cannot_be_accepted(
        database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 1 accepts on one server while seat 0 withdraws on another: if the withdrawal
    is committed first, no rematch starts."""
    async with servers(database, 2) as (one, two):
        game_id = await _finished_game(one.service)
        await one.service.offer_rematch(game_id, 0)
        claiming, withdrawn = asyncio.Event(), asyncio.Event()
        claim = repository.claim_rematch

        async def after_the_withdrawal(*args: Any, **kwargs: Any) -> bool:
            claiming.set()
            await asyncio.wait_for(withdrawn.wait(), 10)
            return await claim(*args, **kwargs)

        monkeypatch.setattr(repository, "claim_rematch", after_the_withdrawal)
        accepting = asyncio.create_task(one.service.offer_rematch(game_id, 1))
        # The accept has read the offer and waits to claim it.
        await asyncio.wait_for(claiming.wait(), 10)
        assert (await two.service.decline_rematch(game_id, 0))["declined_by"] == 0
        withdrawn.set()
        assert await accepting == {"offered_by": None, "game_id": None}
        assert await two.service.rematch_state(game_id) == {"offered_by": None,
                                                           "game_id": None}


def test_an_offer_made_while_a_client_joins_is_not_overtaken_by_its_welcome(
        make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch) -> None:
    """The welcome's rematch state is read while seat 1 offers: whatever the order, the
    last thing the joining client is told must be the offer."""
    app = make_app(lobby_debounce=0.01)
    with serve(app) as ann:
        table = _almost_finished(ann)
        table.finish()
        read = app.state.service.snapshot
        gate = Gate(ann)

        async def slow_snapshot(*args: Any) -> Any:
            snapshot = await read(*args)
            await gate.hold()  # the first one, the welcome's: read before the offer
            return snapshot

        monkeypatch.setattr(app.state.service, "snapshot", slow_snapshot)
        joining = ProtocolClient(ann, table.game_id, timeout=TIMEOUT)
        joining.send({"type": "join"})
        gate.wait_reached()
        _send(table.seats[1], "rematch")
        assert table.seats[1].receive_until("rematch")["offered_by"] == 1
        gate.open()  # the welcome, with no offer in it, is sent after the offer
        told = [m for m in joining.barrier() if m["type"] in ("welcome", "rematch")]
        assert told[0]["type"] == "welcome", "a join is answered by its welcome first"
        last = told[-1]
        state = last["rematch"] if last["type"] == "welcome" else {
            "offered_by": last["offered_by"], "game_id": last["game_id"]}
        assert state == {"offered_by": 1, "game_id": None}, told
        joining.close()
        table.close()


def test_the_rematch_of_a_listed_game_is_listed_too(make_app: Callable[..., FastAPI]) -> None:
    """Quick-match games are listed for spectators, and so are their rematches; the
    rematch of an invite-only game is not."""
    with serve(make_app(lobby_debounce=0.01)) as ann:
        app = ann.app
        assert isinstance(app, FastAPI) and ann.portal is not None
        bob, anybody = browser(ann), browser(ann)
        ids = [player(ann, "Ann")["player_id"], player(bob, "Bob")["player_id"]]
        matched = ann.portal.call(app.state.service.create_matched_game, *ids)
        invited, _ = new_game(ann, joiner=bob)
        rematches = {}
        for game_id in (matched, invited["game_id"]):
            play_out(ann, game_id)
            seats = [ProtocolClient(client, game_id, timeout=TIMEOUT) for client in (ann, bob)]
            assert [s.join()["seat"] for s in seats] == [0, 1]
            for socket in seats:
                _send(socket, "rematch")
            assert seats[0].receive_until("rematch")["game_id"] is None  # the offer
            rematches[game_id] = seats[0].receive_until("rematch")["game_id"]  # accepted
            for socket in seats:
                socket.close()
        live = [e["game_id"] for e in lobby_picture(anybody)["live"]]
        assert rematches[matched] in live
        assert rematches[invited["game_id"]] not in live
        assert game_summary(ann, rematches[matched])["origin"] == "rematch"
