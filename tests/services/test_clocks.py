"""Clocks: the arithmetic of each time control, and flags falling on the server (on SQLite
and PostgreSQL, on one server and on two): with nobody connected, after a restart, exactly
once when two servers race, and never both a move and a timeout."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update

from app.db.models import Game as GameRow
from app.db.session import make_engine, make_sessionmaker
from app.services.clocks import Clocks, TimeControl, TimeControlError, WallClock
from app.services.games import GameService, ServiceError
from app.services.servers import ServerRegistry
from tests.factories import (
    Database,
    ManualWall,
    first_decisions,
    game_row,
    log_rows,
    servers,
    started_game,
)

START = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
BLITZ = TimeControl.fischer(5, 3)


def at(seconds: float) -> datetime:
    return START + timedelta(seconds=seconds)


# ---------------------------------------------------------------------- the arithmetic

def test_a_fischer_clock_runs_for_the_seat_to_act_and_adds_the_increment_as_it_stops() -> None:
    clocks = Clocks((300_000, 300_000), START, 0)
    assert clocks.left(at(10)) == (290_000, 300_000)
    clocks = BLITZ.after(clocks, at(10), seat=0, in_turn=True, to_act=1)
    assert clocks.remaining == (293_000, 300_000) and clocks.running == 1
    assert clocks.flag_at == at(10 + 300)


def test_a_decision_in_a_turn_runs_on_the_deciding_seat_s_clock() -> None:
    clocks = Clocks((300_000, 300_000), START, 0)
    # Seat 0 pairs two science symbols and must choose a token: still its clock, no
    # increment while the decision stays with it.
    clocks = BLITZ.after(clocks, at(4), seat=0, in_turn=True, to_act=0)
    assert clocks.remaining == (296_000, 300_000)
    clocks = BLITZ.after(clocks, at(9), seat=0, in_turn=True, to_act=1)
    assert clocks.remaining == (294_000, 300_000)
    # A new age: seat 1 (weaker) chooses who starts; it chooses seat 0 after 7 s.
    clocks = BLITZ.after(clocks, at(16), seat=1, in_turn=True, to_act=0)
    assert clocks.remaining == (294_000, 296_000) and clocks.running == 0


def test_actions_out_of_turn_charge_the_running_clock_and_give_no_increment() -> None:
    clocks = Clocks((300_000, 300_000), START, 0)
    clocks = BLITZ.after(clocks, at(10), seat=0, in_turn=True, to_act=1)
    # Seat 1 thinks 20 s, then agrees to seat 0's take-back: seat 0 is to act again.
    clocks = BLITZ.after(clocks, at(30), seat=0, in_turn=False, to_act=0)
    assert clocks.remaining == (293_000, 280_000) and clocks.running == 0
    over = BLITZ.after(clocks, at(31), seat=1, in_turn=False, to_act=None)  # resigned
    assert over.remaining == (292_000, 280_000) and over.running is None
    assert over.flag_at is None and not over.fallen(at(10_000))


def test_a_correspondence_game_gives_each_decision_its_days() -> None:
    two_days = TimeControl.correspondence(2)
    clocks = Clocks((172_800_000, 172_800_000), START, 0)
    clocks = two_days.after(clocks, at(86_400), seat=0, in_turn=True, to_act=1)
    assert clocks.remaining == (86_400_000, 172_800_000)
    assert clocks.flag_at == at(86_400 + 172_800)
    assert not clocks.fallen(at(86_400 + 172_799)) and clocks.fallen(at(86_400 + 172_800))


def test_the_time_left_never_goes_below_zero_and_offers_stay_in_bounds() -> None:
    assert Clocks((1_000, 5_000), START, 1).left(at(60)) == (1_000, 0)
    for offer in (lambda: TimeControl.fischer(0, 0), lambda: TimeControl.fischer(181, 0),
                  lambda: TimeControl.fischer(5, 61), lambda: TimeControl.correspondence(4)):
        with pytest.raises(TimeControlError):
            offer()
    with pytest.raises(TimeControlError):
        TimeControl.from_json({"kind": "sudden"})
    # What a game keeps is read back as it was offered then, whatever is offered today.
    assert TimeControl.from_json({"kind": "fischer", "minutes": 240, "increment": 0}) == \
        TimeControl("fischer", 240 * 60_000)
    for control in (BLITZ, TimeControl.correspondence(7)):
        assert TimeControl.from_json(control.to_json()) == control


# ---------------------------------------------------------------------- on the server

async def refused(code: str, call: object) -> None:
    with pytest.raises(ServiceError) as caught:
        await call  # type: ignore[misc]
    assert caught.value.code == code, caught.value


async def first_move(service: GameService, game_id: str) -> tuple[object, int]:
    game, version = await service.current(game_id)
    return game.legal_actions()[0].to_json(), version


async def test_a_flag_falls_with_no_socket_connected_and_is_recorded_at_the_deadline(
        database: Database) -> None:
    wall = ManualWall(START)
    async with servers(database, wall=wall) as (server,):
        game_id, _ = await started_game(server.service, time_control=BLITZ)
        row = await game_row(database, game_id)
        # No clock runs during a first decision: the deadline is the first decision's.
        assert (row.clock0_ms, row.clock1_ms, row.clock_running, row.deadline) == (
            300_000, 300_000, None, at(30))
        await first_decisions(server.service, game_id)
        row = await game_row(database, game_id)
        assert (row.clock_running, row.deadline) == (1, at(300))
        wall.advance(299.999)
        assert await server.flags.sweep() == []
        wall.advance(4.5)  # noticed 4.5 s late (a busy process): recorded at the deadline
        assert await server.flags.sweep() == [game_id]
        row = await game_row(database, game_id)
        assert (row.status, row.winner, row.victory, row.deadline) == (
            "finished", 0, "time", None)
        last = (await log_rows(database, game_id))[-1]
        assert (last.notation, last.created_at, last.clock1_ms) == ("forfeit:1:time",
                                                                    at(300), 0)
        assert row.updated_at == at(300)
        assert await server.flags.sweep() == []


async def test_a_flag_falls_after_a_restart_recorded_at_the_deadline(
        database: Database) -> None:
    wall = ManualWall(START)
    async with servers(database, wall=wall) as (first,):
        game_id, _ = await started_game(first.service, time_control=BLITZ)
        await first_decisions(first.service, game_id)
        move, version = await first_move(first.service, game_id)
        wall.advance(20)
        await first.service.submit(game_id, 1, move, version, "a")
        game, _ = await first.service.current(game_id)
    # Seat 1 drafts again: its clock runs on from the move, 280 s left, and no process is
    # there when it falls; one comes back 8.7 s later.
    assert game.to_act == 1
    wall.advance(288.7)
    async with servers(database, wall=wall) as (restarted,):
        assert await restarted.flags.sweep() == [game_id]
    row = await game_row(database, game_id)
    assert (row.winner, row.victory) == (0, "time")
    entries = await log_rows(database, game_id)
    assert [(e.clock0_ms, e.clock1_ms) for e in entries] == [
        (300_000, 300_000), (300_000, 300_000), (300_000, 280_000), (300_000, 0)]
    assert entries[-1].created_at == at(20 + 280) == row.updated_at


async def test_two_servers_racing_to_end_a_game_on_time_end_it_once(
        database: Database) -> None:
    wall = ManualWall(START)
    async with servers(database, 2, wall=wall) as (one, two):
        game_ids = [(await started_game(one.service, time_control=BLITZ))[0]
                    for _ in range(4)]
        for game_id in game_ids:
            await first_decisions(one.service, game_id)
        await two.service.current(game_ids[0])  # one of them replayed on both
        wall.advance(301)
        ended = await asyncio.gather(one.flags.sweep(), two.flags.sweep())
        assert sorted(ended[0] + ended[1]) == sorted(game_ids)
        for game_id in game_ids:
            assert [r.notation for r in await log_rows(database, game_id)][2:] == \
                ["forfeit:1:time"]


async def test_a_late_move_ends_the_game_on_time_recorded_at_the_deadline(
        database: Database) -> None:
    """A 1+0 game: a move 15 s after seat 1's minute ran out records the loss at 60 s."""
    wall = ManualWall(START)
    async with servers(database, 2, wall=wall) as (one, two):
        game_id, _ = await started_game(one.service, time_control=TimeControl.fischer(1, 0))
        await first_decisions(one.service, game_id)
        move, version = await first_move(one.service, game_id)
        wall.advance(75)
        await refused("time_out", one.service.submit(game_id, 1, move, version, "late"))
        await refused("game_over", two.service.submit(game_id, 1, move, version, "late2"))
        assert await two.flags.sweep() == []
        last = (await log_rows(database, game_id))[-1]
        assert (last.notation, last.created_at) == ("forfeit:1:time", at(60))
        await refused("game_over", one.service.resign(game_id, 0))


async def test_a_move_and_a_timeout_racing_never_both_count(database: Database) -> None:
    wall = ManualWall(START)
    async with servers(database, 2, wall=wall) as (one, two):
        for late in (False, True):
            game_id, _ = await started_game(one.service, time_control=BLITZ)
            await first_decisions(one.service, game_id)
            move, version = await first_move(one.service, game_id)
            await two.service.current(game_id)
            wall.advance(300 if late else 299.5)
            made, swept = await asyncio.gather(
                one.service.submit(game_id, 1, move, version, f"m{late}"),
                two.flags.sweep(), return_exceptions=True)
            notations = [r.notation for r in await log_rows(database, game_id)][2:]
            if late:  # the flag had fallen: whoever wrote first, the game ended on time
                assert notations == ["forfeit:1:time"]
                assert isinstance(made, ServiceError)
                assert made.code in ("time_out", "game_over")
            else:  # in time: the move counts, nobody's flag fell
                assert len(notations) == 1 and notations[0] != "forfeit:1:time"
                assert swept == []
            wall.advance(-299.5 if not late else -300)


async def test_every_action_charges_the_clock_that_ran_and_the_log_keeps_it(
        database: Database) -> None:
    """A whole game with random thinking times: the clocks stored with each action are the
    ones worked out here from the rules (the running seat is charged; a seat whose clock
    stops after its own action gains the increment; a seat's first decision is neither
    charged nor given an increment), decisions included."""
    wall = ManualWall(START)
    control = TimeControl.fischer(180, 7)
    think = random.Random(5)
    async with servers(database, wall=wall) as (server,):
        game_id, _ = await started_game(server.service, time_control=control)
        left, version = [180 * 60_000] * 2, 0
        game, _ = await server.service.current(game_id)
        expected: list[tuple[int, int]] = []
        decided: set[int] = set()
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            spent = think.randrange(0, 20_000)
            wall.advance(spent / 1000)
            action = think.choice(game.legal_actions())
            accepted = await server.service.submit(game_id, seat, action.to_json(),
                                                   version, None)
            version = accepted.version
            game, _ = await server.service.current(game_id)
            if seat in decided:
                left[seat] -= spent
                if game.to_act != seat:
                    left[seat] += 7_000
            decided.add(seat)
            expected.append((left[0], left[1]))
        stored = [(r.clock0_ms, r.clock1_ms) for r in await log_rows(database, game_id)]
        assert stored == expected
        assert (await game_row(database, game_id)).deadline is None


async def test_an_update_and_a_welcome_carry_the_clocks(database: Database) -> None:
    wall = ManualWall(START)
    async with servers(database, 2, wall=wall) as (one, two):
        game_id, _ = await started_game(one.service, time_control=TimeControl.fischer(10, 5))
        await first_decisions(one.service, game_id)
        move, version = await first_move(one.service, game_id)
        wall.advance(12.5)
        await one.service.submit(game_id, 1, move, version, "a")
        update = one.published[-1][1]["updates"]["0"]
        # Seat 1 drafts again: no increment while the decision stays with it.
        assert update["clock"] == {"remaining": (600_000, 587_500), "running": 1}
        wall.advance(4)
        snapshot = await two.service.snapshot(game_id, None, lambda *_: {})
        assert snapshot.clock == {"remaining": [600_000, 583_500], "running": 1,
                                  "control": {"kind": "fischer", "minutes": 10,
                                              "increment": 5}}
        untimed, _ = await started_game(one.service)
        assert (await one.service.snapshot(untimed, None, lambda *_: {})).clock is None


async def test_a_rematch_keeps_the_time_control_and_its_fair_start(
        database: Database) -> None:
    wall = ManualWall(START)
    async with servers(database, wall=wall) as (server,):
        game_id, _ = await started_game(server.service, time_control=BLITZ)
        await first_decisions(server.service, game_id)
        await server.service.resign(game_id, 1)
        wall.advance(30)
        await server.service.offer_rematch(game_id, 0)
        rematch = (await server.service.offer_rematch(game_id, 1))["game_id"]
        row = await game_row(database, rematch)
        assert row.time_control == BLITZ.to_json()
        assert (row.clock0_ms, row.clock1_ms, row.clock_since) == (300_000, 300_000, at(30))
        assert (row.clock_running, row.deadline) == (None, at(60))


async def test_each_process_reads_the_time_from_the_database_s_clock(
        database: Database) -> None:
    """A process whose own clock is an hour ahead still judges flags by the database's."""
    if database.kind != "postgres":
        pytest.skip("SQLite serves one process: its own clock is the only one")
    wall = WallClock(lambda: datetime.now(UTC) + timedelta(hours=1))
    engine = make_engine(database.url, database.schema)
    try:
        await ServerRegistry(make_sessionmaker(engine), timeout=20).calibrate(wall)
    finally:
        await engine.dispose()
    assert abs(wall.now() - datetime.now(UTC)) < timedelta(seconds=5)


async def test_an_absence_counts_from_the_game_s_start_at_the_earliest(
        database: Database) -> None:
    """The creator left the waiting game an hour before anyone joined: the one who joins
    cannot claim the win at once."""
    wall = ManualWall(START)
    async with servers(database, wall=wall) as (server,):
        created = await server.service.create_game(wonder_selection="draft",
                                                   creator_starts=True, name=None)
        game_id = created.credentials.game_id
        await server.service.seat_left(game_id, 0)
        wall.advance(3600)
        await server.service.join_game(game_id, created.invite_code, None)
        await first_decisions(server.service, game_id)
        wall.advance(10)
        with pytest.raises(ServiceError) as caught:
            await server.service.claim_win(game_id, 1, opponent_present=False)
        assert (caught.value.code, caught.value.params) == (
            "not_abandoned", {"cause": "recent", "wait": 50})
        wall.advance(50)
        await server.service.claim_win(game_id, 1, opponent_present=False)
        row = await game_row(database, game_id)
        assert (row.winner, row.victory) == (1, "abandoned")


async def test_a_game_that_cannot_be_ended_holds_up_no_other_flag(
        database: Database) -> None:
    wall = ManualWall(START)
    async with servers(database, 2, wall=wall) as (server, other):
        broken, _ = await started_game(server.service, time_control=BLITZ)
        fine, _ = await started_game(server.service, time_control=BLITZ)
        for game_id in (broken, fine):  # elsewhere: not replayed by the server that sweeps
            await first_decisions(other.service, game_id)
        engine = make_engine(database.url, database.schema)
        try:
            async with engine.begin() as connection:  # a record no release can read
                await connection.execute(update(GameRow).where(GameRow.id == broken)
                                         .values(time_control={"kind": "hourglass"}))
        finally:
            await engine.dispose()
        wall.advance(301)
        assert await server.flags.sweep() == [fine]
        assert await server.flags.sweep() == []  # the broken one is not tried again
        assert (await game_row(database, fine)).victory == "time"
