"""Games against the computer over HTTP and the game socket, on SQLite and PostgreSQL: the
computer moves through the same path as a player, exactly once, off the event loop; its
games are never rated; its rematch is accepted at once; finished games are analysed."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.bots import LEVELS
from app.engine import Game, replay_json
from app.services.computer import ComputerPlayers, Thinkers, mistakes
from tests.factories import (
    ProtocolClient,
    assert_refused,
    browser,
    log_rows,
    new_game,
    ok,
    player,
    serve,
    server_game,
)


class ThreadThinkers(Thinkers):
    """The computer thinking in threads of the test's process: off the event loop all the
    same, and quicker to start than processes."""

    @staticmethod
    def _pool(workers: int, niceness: int) -> Executor:
        return ThreadPoolExecutor(workers)


def _app(make_app: Callable[..., FastAPI], *, threads: bool = True, **settings: Any
         ) -> FastAPI:
    app = make_app(server_heartbeat=3600, **settings)
    if threads:
        app.state.thinkers = ThreadThinkers(1)
    return app


def _settle(client: TestClient) -> None:
    """Wait until the computer has made every move it had to make."""
    computer: ComputerPlayers = client.app.state.computer  # type: ignore[attr-defined]
    assert client.portal is not None
    client.portal.call(computer.settle)


def _versus(client: TestClient, level: str = "random", **body: Any) -> str:
    created = ok(client.post("/api/games/computer", json={"level": level, **body}), 201)
    assert created["seat"] == 0 and created["url"] == f"/games/{created['game_id']}"
    return str(created["game_id"])


def _play_human_to_the_end(client: TestClient, game_id: str) -> Game:
    """The player's page: seat 0 by its session, the first legal action each time it is
    to act, the computer's moves heard as updates; the game at its end."""
    with ProtocolClient(client, game_id, timeout=30.0) as socket:
        welcome = socket.join()
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        assert welcome.get("claim_after") is None, "nobody claims a win from the computer"
        for _ in range(400):
            _settle(client)
            game, version = server_game(client, game_id)
            if game.is_over:
                return game
            assert game.to_act == 0, "the computer had nothing left to think about"
            while socket.version < version:
                socket.receive()
            reply = socket.act(game.legal_actions()[0].to_json())
            assert reply["type"] == "ack", reply
    raise AssertionError("the game did not end")


def test_a_game_against_the_computer_in_worker_processes(
        make_app: Callable[..., FastAPI]) -> None:
    app = _app(make_app, threads=False)
    with serve(app) as client:
        player(client, "Ann")
        game_id = _versus(client, "greedy", first_player="computer")
        summary = ok(client.get(f"/api/games/{game_id}"))
        assert (summary["status"], summary["origin"], summary["rated"]) == (
            "active", "computer", False)
        assert [s["computer"] for s in summary["seats"]] == [None, "greedy"]
        assert summary["seats"][0]["name"] == "Ann"
        game = _play_human_to_the_end(client, game_id)
        assert ok(client.get(f"/api/games/{game_id}"))["status"] == "finished"
        assert game.log[0].to_json()["type"] == "pick_wonder"


@pytest.mark.one_database  # the bots' decisions; storing moves is every other test's
@pytest.mark.parametrize("level", ["random", "easy"])
def test_the_computer_plays_every_decision(make_app: Callable[..., FastAPI],
                                           level: str) -> None:
    with serve(_app(make_app)) as client:
        player(client, "Ann")
        game_id = _versus(client, level)
        game = _play_human_to_the_end(client, game_id)
        assert game.outcome() is not None
        # Kept out of the site's statistics (and of profiles and ratings).
        assert ok(client.get("/api/stats"))["games"] == 0


def test_the_computer_moves_once_under_its_client_id(make_app: Callable[..., FastAPI],
                                                     database: Any) -> None:
    with serve(_app(make_app)) as client:
        player(client, "Ann")
        game_id = _versus(client, "random", first_player="computer")
        _settle(client)
        computer: ComputerPlayers = client.app.state.computer  # type: ignore[attr-defined]
        # Asked again and again (as two servers' sweeps might): nothing more is played.
        for _ in range(3):
            client.portal.call(computer.consider, game_id)
        _settle(client)
        rows = client.portal.call(log_rows, database, game_id)
        assert [(row.seq, row.seat, row.client_id) for row in rows] == [
            (1, 1, "computer:0")]


def test_other_games_move_while_the_computer_thinks(make_app: Callable[..., FastAPI]
                                                    ) -> None:
    gate = threading.Event()
    thinking = threading.Event()

    class HeldThinkers(ThreadThinkers):
        async def move(self, fn: Callable[..., Any], *args: Any) -> Any:
            def held(*inner: Any) -> Any:
                thinking.set()
                assert gate.wait(60), "never released"
                return fn(*inner)
            return await super().move(held, *args)

    app = make_app(server_heartbeat=3600)
    app.state.thinkers = HeldThinkers(1)
    with serve(app) as client:
        player(client, "Ann")
        game_id = _versus(client, "random", first_player="computer")
        assert thinking.wait(30)
        # The computer's decision is held in its worker; two people play meanwhile.
        created, _ = new_game(client, joiner=browser(client))
        other = created["game_id"]
        for _ in range(6):
            game, version = server_game(client, other)
            accepted = client.portal.call(app.state.service.submit, other, game.to_act,
                                          game.legal_actions()[0].to_json(), version, None)
            assert accepted.version == version + 1
        assert server_game(client, game_id)[1] == 0
        gate.set()
        _settle(client)
        assert server_game(client, game_id)[1] == 1


def test_refusals(make_app: Callable[..., FastAPI]) -> None:
    with serve(_app(make_app)) as client:
        assert_refused(client.post("/api/games/computer", json={"level": "random"}), 401,
                       "no_player")
        player(client, "Ann")
        refused = assert_refused(client.post("/api/games/computer",
                                             json={"level": "godlike"}), 422, "unknown_level")
        assert refused["params"]["levels"] == list(LEVELS)
        assert_refused(client.post("/api/games/computer", json={"rated": True}), 422,
                       "invalid_request")
        game_id = _versus(client, "random", first_player="me")
        _settle(client)
        assert server_game(client, game_id)[1] == 0, "the player starts"
        with ProtocolClient(client, game_id, timeout=30.0) as socket:
            socket.join()
            socket.send({"type": "claim_win"})
            refused = socket.receive_until("error")
            assert (refused["code"], refused["params"]["cause"]) == ("not_abandoned",
                                                                       "computer")
            socket.send({"type": "take_back"})
            assert socket.receive_until("error")["code"] == "computer_declines"


def test_a_request_sent_again_with_its_key_gets_the_same_game(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(_app(make_app)) as client:
        player(client, "Ann")
        key = {"Idempotency-Key": "a-key-of-the-lobby-0001"}
        body = {"level": "random", "first_player": "me"}
        first = ok(client.post("/api/games/computer", json=body, headers=key), 201)
        again = ok(client.post("/api/games/computer", json=body, headers=key), 201)
        assert again == first
        assert [e["game_id"] for e in ok(client.get("/api/lobby"))["mine"]] == [
            first["game_id"]]
        other = browser(client)
        player(other, "Bob")
        assert_refused(other.post("/api/games/computer", json=body, headers=key), 409,
                       "key_reused")


def test_a_rematch_is_accepted_at_once_and_the_computer_plays_it(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(_app(make_app)) as client:
        player(client, "Ann")
        game_id = _versus(client, "random", first_player="me")
        _play_human_to_the_end(client, game_id)
        with ProtocolClient(client, game_id, timeout=30.0) as socket:
            socket.join()
            socket.send({"type": "rematch"})
            rematch = socket.receive_until("rematch")
        again = rematch["game_id"]
        assert again is not None
        summary = ok(client.get(f"/api/games/{again}"))
        assert (summary["status"], summary["origin"]) == ("active", "computer")
        # Seats swapped: the player in seat 1 now; the same first seat starts, the computer.
        assert [s["computer"] for s in summary["seats"]] == ["random", None]
        _settle(client)
        game, version = server_game(client, again)
        assert version >= 1 and game.to_act == 1


def test_a_finished_game_is_analysed_once(make_app: Callable[..., FastAPI],
                                          database: Any) -> None:
    app = _app(make_app, analysis_enabled=True, analysis_iterations=4)
    with serve(app) as client:
        player(client, "Ann")
        game_id = _versus(client, "random")
        assert_refused(client.get(f"/api/games/{game_id}/analysis"), 409, "not_over")
        game = _play_human_to_the_end(client, game_id)
        _settle(client)
        analysis = ok(client.get(f"/api/games/{game_id}/analysis"))
        assert analysis["status"] == "done" and analysis["iterations"] == 4
        positions = analysis["positions"]
        assert [p["version"] for p in positions] == list(range(len(game.log)))
        replayed = replay_json(game.seed, game.options.to_json(), [])
        for position, action in zip(positions, game.log, strict=True):
            assert position["seat"] == replayed.to_act
            assert 0 <= position["chance"] <= 1
            assert position["seat0"] == (position["chance"] if position["seat"] == 0
                                         else pytest.approx(1 - position["chance"]))
            assert position["played"] == str(action)
            assert position["played_chance"] is None or 0 <= position["played_chance"] <= 1
            replayed.apply(action)
        outcome = game.outcome()
        assert outcome is not None
        assert analysis["mistakes"] == mistakes(positions, outcome.winner,
                                                ended_by_play=True)
        # Asked again (another server's sweep): computed once.
        client.portal.call(app.state.computer.analyse, game_id)
        assert ok(client.get(f"/api/games/{game_id}/analysis")) == analysis


def test_an_analysis_shows_the_positions_read_so_far_as_it_goes(
        make_app: Callable[..., FastAPI]) -> None:
    """Each position read is in the answer before the next is asked for: the page can show
    how far the analysis is and draw the chart as it fills. Each position is held in its
    worker while the test asks; the readings then are the start of the final ones."""
    reached: queue.Queue[int] = queue.Queue()
    go_on = threading.Semaphore(0)

    class HeldAnalysis(ThreadThinkers):
        async def analysis(self, fn: Callable[..., Any], *args: Any) -> Any:
            def held(record: Any, version: int, *rest: Any) -> Any:
                reached.put(version)
                assert go_on.acquire(timeout=60), "never released"
                return fn(record, version, *rest)
            return await super().analysis(held, *args)

    app = make_app(server_heartbeat=3600, analysis_iterations=3)  # none queued by itself
    app.state.thinkers = HeldAnalysis(1)
    with serve(app) as client:
        player(client, "Ann")
        game_id = _versus(client, "random", first_player="me")
        game = _play_human_to_the_end(client, game_id)
        url = f"/api/games/{game_id}/analysis"
        assert client.portal is not None
        analysing = client.portal.start_task_soon(app.state.computer.analyse, game_id)
        seen = []
        for count in range(len(game.log)):  # no resignation, no take-back: each is read
            assert reached.get(timeout=60) == count
            seen.append(ok(client.get(url)))
            go_on.release()
        analysing.result(timeout=60)
        done = ok(client.get(url))
    assert done["status"] == "done" and len(done["positions"]) == len(game.log)
    for count, answer in enumerate(seen):
        assert answer == {"status": "pending", "read": count, "total": len(game.log),
                          "positions": done["positions"][:count]}


def test_mistakes_are_the_largest_drops_of_the_movers_chance() -> None:
    positions = [
        {"version": 0, "seat": 0, "chance": 0.5, "best": "a"},
        {"version": 1, "seat": 1, "chance": 0.8, "best": "b"},  # seat 0 fell to 0.2
        {"version": 2, "seat": 0, "chance": 0.3, "best": "c"},  # seat 1 fell 0.8 -> 0.7
        {"version": 3, "seat": 1, "chance": 0.9, "best": "d"},  # seat 0: 0.3 -> 0.1
    ]  # and the fourth action ended the game
    found = mistakes(positions, winner=1, ended_by_play=True)
    assert found == [
        {"version": 1, "seat": 0, "drop": 0.3, "best": "a"},
        {"version": 3, "seat": 0, "drop": 0.2, "best": "c"},
    ]
    # Seat 1 to act at the end, and it lost: its last action is judged by the result...
    lost = mistakes(positions, winner=0, ended_by_play=True)
    assert [(m["version"], m["seat"], m["drop"]) for m in lost] == [
        (1, 0, 0.3), (3, 0, 0.2), (4, 1, 0.9)]
    # ...unless a resignation ended the game after it: nothing then judges that action.
    resigned = mistakes(positions, winner=0, ended_by_play=False)
    assert [m["version"] for m in resigned] == [1, 3]


def test_a_move_is_weighed_against_the_choice_of_the_same_search() -> None:
    """Each search rates the seat it searches for a little high: weighed against the next
    position's search (the other seat's), a move handing the turn over looks like a fall."""
    positions = [
        {"version": 0, "seat": 0, "chance": 0.6, "best": "a", "played": "a",
         "played_chance": 0.6},
        # Seat 1's search rates seat 1 at 0.7: seat 0 "fell" from 0.6 to 0.3, yet it
        # played the search's own choice.
        {"version": 1, "seat": 1, "chance": 0.7, "best": "b", "played": "x",
         "played_chance": 0.45},  # seat 1's own search: 0.7 after b, 0.45 after x
        {"version": 2, "seat": 0, "chance": 0.5, "best": "c", "played": "y",
         "played_chance": 0.42},  # a small fall, not a mistake
        {"version": 3, "seat": 1, "chance": 0.6, "best": "d", "played": "z",
         "played_chance": None},  # not tried: weighed by the result (it lost)
    ]
    found = mistakes(positions, winner=0, ended_by_play=True)
    assert [(m["version"], m["seat"], m["drop"], m["best"]) for m in found] == [
        (2, 1, 0.25, "b"), (4, 1, 0.6, "d")]


def test_a_game_without_analysis_says_none(make_app: Callable[..., FastAPI]) -> None:
    with serve(_app(make_app)) as client:  # analyses are off in the tests' settings
        player(client, "Ann")
        game_id = _versus(client, "random")
        _play_human_to_the_end(client, game_id)
        assert ok(client.get(f"/api/games/{game_id}/analysis")) == {"status": "none"}



def test_an_analysis_of_no_game_or_of_a_game_resigned_at_once(
        make_app: Callable[..., FastAPI]) -> None:
    """No such game: 404. A game resigned before ten actions: too short to analyse, even
    where analyses are made."""
    with serve(_app(make_app, analysis_enabled=True)) as client:
        assert_refused(client.get("/api/games/nosuchgame/analysis"), 404, "not_found")
        player(client, "Ann")
        game_id = _versus(client, "random", first_player="me")
        with ProtocolClient(client, game_id, timeout=30.0) as socket:
            socket.join()
            assert socket.view is not None
            socket.act(socket.view["legal_actions"][0]["action"])  # each seat's first
            while socket.version < 2:  # decision (the computer's comes by itself)
                socket.receive_until("update")
            socket.send({"type": "resign"})
            assert socket.receive_until("update")["view"]["outcome"]["victory"] == "resigned"
        assert ok(client.get(f"/api/games/{game_id}/analysis")) == {"status": "too_short"}
