"""Resigning and taking back, on SQLite and PostgreSQL, on one server and on two: made out
of turn, recorded in the log (which still replays), told to everyone."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.db import repository
from app.engine import DiscardCard, Game, Options
from app.services.games import Accepted, GameService, ServiceError
from tests.factories import (
    Database,
    first_decisions,
    game_row,
    log_rows,
    servers,
    started_game,
)


async def replayed(database: Database, game_id: str) -> Game:
    row = await game_row(database, game_id)
    return Game.replay(row.seed, Options.from_json(row.options),
                       [r.notation for r in await log_rows(database, game_id)])


async def past_the_draft(service: GameService, game_id: str) -> Game:
    """Plays the draft; the game in memory, seat to act about to take a first card."""
    game, version = await service.current(game_id)
    while game.decision is not None and game.decision.kind.name == "PICK_WONDER":
        assert game.to_act is not None
        await service.submit(game_id, game.to_act, game.legal_actions()[0].to_json(),
                             version, None)
        game, version = await service.current(game_id)
    return game


async def refused(code: str, call: Any) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        await call
    assert caught.value.code == code, caught.value
    return caught.value


async def test_a_seat_resigns_out_of_turn_and_the_other_wins(database: Database) -> None:
    async with servers(database, 2) as (one, two):
        game_id, _ = await started_game(one.service)
        await first_decisions(one.service, game_id)
        game, version = await one.service.current(game_id)
        assert game.to_act == 1
        # Seat 0 resigns on the other server while seat 1 is to act.
        assert await two.service.resign(game_id, 0) == Accepted(version + 1)
        row = await game_row(database, game_id)
        assert (row.status, row.winner, row.victory, row.to_act) == (
            "finished", 1, "resigned", None)
        assert [r.notation for r in await log_rows(database, game_id)][-1] == \
            "forfeit:0:resigned"
        update = two.published[-1][1]
        assert update["version"] == version + 1
        assert {"type": "game_over", "winner": 1, "victory": "resigned"} in \
            update["updates"]["spectator"]["events"]
        game, _ = await one.service.current(game_id)  # the other server's replay agrees
        assert game.state_hash() == (await replayed(database, game_id)).state_hash()
        await refused("game_over", one.service.resign(game_id, 1))
        await refused("game_over", one.service.submit(
            game_id, 0, game.legal_actions()[0].to_json() if game.legal_actions() else
            "pick:the_sphinx", version + 1, None))


async def test_a_resignation_is_not_an_action_a_client_sends(database: Database) -> None:
    async with servers(database) as (server,):
        game_id, _ = await started_game(server.service)
        for action in ("forfeit:0:resigned", {"type": "forfeit", "seat": 0, "reason": "time"},
                       "takeback:0"):
            await refused("malformed", server.service.submit(game_id, 0, action, 0, "x"))
        assert await log_rows(database, game_id) == []
        waiting = (await server.service.create_game(wonder_selection="draft",
                                                    creator_starts=True, name=None))
        await refused("not_started",
                      server.service.resign(waiting.credentials.game_id, 0))


async def test_a_take_back_accepted_undoes_the_action_for_everyone(database: Database) -> None:
    async with servers(database, 2) as (one, two):
        game_id, _ = await started_game(one.service)
        game = await past_the_draft(one.service, game_id)
        seat, version = game.to_act, len(game.log)
        assert seat is not None
        before = game.state_hash()
        discard = next(a for a in game.legal_actions() if isinstance(a, DiscardCard))
        await one.service.submit(game_id, seat, discard.to_json(), version, None)

        offer = {"offered_by": seat, "version": version + 1}
        assert await two.service.offer_take_back(game_id, seat) == offer
        assert two.published[-1] == (game_id, {"take_back": offer})
        assert (await game_row(database, game_id)).take_back_offer == seat
        # Only the other seat accepts; the asking one can only withdraw.
        await refused("no_take_back", one.service.accept_take_back(game_id, seat))
        assert await one.service.accept_take_back(game_id, 1 - seat) == Accepted(version + 2)

        row = await game_row(database, game_id)
        assert (row.version, row.take_back_offer, row.to_act) == (version + 2, None, seat)
        assert [r.notation for r in await log_rows(database, game_id)][-2:] == [
            str(discard), f"takeback:{seat}"]
        update = one.published[-1][1]
        assert update["updates"]["spectator"]["events"] == [
            {"type": "taken_back", "seat": seat, "action": str(discard)}]
        assert (await replayed(database, game_id)).state_hash() == before
        for server in (one, two):
            game, now = await server.service.current(game_id)
            assert (game.state_hash(), now) == (before, version + 2)
        # The same seat may then play something else.
        await one.service.submit(game_id, seat, discard.to_json(), version + 2, None)


async def test_a_take_back_declined_withdrawn_or_overtaken_changes_nothing(
        database: Database) -> None:
    async with servers(database) as (server,):
        service = server.service
        game_id, _ = await started_game(service)
        game = await past_the_draft(service, game_id)
        seat, version = game.to_act, len(game.log)
        assert seat is not None
        discard = next(a for a in game.legal_actions() if isinstance(a, DiscardCard))
        await service.submit(game_id, seat, discard.to_json(), version, None)
        version += 1

        await refused("no_take_back", service.decline_take_back(game_id, 1 - seat))
        await service.offer_take_back(game_id, seat)
        declined = {"offered_by": None, "declined_by": 1 - seat, "version": version}
        assert await service.decline_take_back(game_id, 1 - seat) == declined
        assert server.published[-1] == (game_id, {"take_back": declined})
        await refused("no_take_back", service.accept_take_back(game_id, 1 - seat))
        await service.offer_take_back(game_id, seat)
        await service.decline_take_back(game_id, seat)  # withdrawn
        await refused("no_take_back", service.accept_take_back(game_id, 1 - seat))

        # An action ends an offer: the other seat played instead of answering.
        await service.offer_take_back(game_id, seat)
        game, _ = await service.current(game_id)
        assert game.to_act == 1 - seat
        await service.submit(game_id, 1 - seat, game.legal_actions()[0].to_json(),
                             version, None)
        assert (await game_row(database, game_id)).take_back_offer is None
        await refused("no_take_back", service.accept_take_back(game_id, 1 - seat))
        assert [r.seq for r in await log_rows(database, game_id)][-1] == version + 1


async def test_a_take_back_is_refused_after_a_reveal(database: Database) -> None:
    async with servers(database) as (server,):
        service = server.service
        game_id, _ = await started_game(service)
        await past_the_draft(service, game_id)  # the last pick dealt the first age
        for seat in (0, 1):
            error = await refused("illegal", service.offer_take_back(game_id, seat))
            assert error.params == {"detail": "cannot_take_back", "seat": seat}
        assert (await game_row(database, game_id)).take_back_offer is None


async def _offered(service: GameService, game_id: str) -> tuple[int, int]:
    """Past the draft, a discard, and its take-back offered: (asker, version)."""
    game = await past_the_draft(service, game_id)
    seat, version = game.to_act, len(game.log)
    assert seat is not None
    discard = next(a for a in game.legal_actions() if isinstance(a, DiscardCard))
    await service.submit(game_id, seat, discard.to_json(), version, None)
    await service.offer_take_back(game_id, seat)
    return seat, version + 1


async def test_an_acceptance_answers_the_offer_it_read(
        database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """The offer is withdrawn after the acceptance read it and before it writes: nothing is
    taken back. Two acceptances at once (two tabs, two servers): one take-back."""
    async with servers(database, 2) as (one, two):
        game_id, _ = await started_game(one.service)
        asker, version = await _offered(one.service, game_id)
        game_head = repository.game_head

        async def then_withdrawn(*args: Any) -> Any:
            head = await game_head(*args)
            monkeypatch.setattr(repository, "game_head", game_head)
            await one.service.decline_take_back(game_id, asker)
            return head

        monkeypatch.setattr(repository, "game_head", then_withdrawn)
        await refused("no_take_back", two.service.accept_take_back(game_id, 1 - asker))
        assert [r.seq for r in await log_rows(database, game_id)][-1] == version

        await one.service.offer_take_back(game_id, asker)
        results = await asyncio.gather(
            one.service.accept_take_back(game_id, 1 - asker),
            two.service.accept_take_back(game_id, 1 - asker), return_exceptions=True)
        assert sorted(type(r).__name__ for r in results) == ["Accepted", "ServiceError"]
        assert [r.code for r in results if isinstance(r, ServiceError)] == ["no_take_back"]
        notations = [r.notation for r in await log_rows(database, game_id)]
        assert notations[-1] == f"takeback:{asker}" and notations[-2] != f"takeback:{asker}"
