"""Seeded random games: replay, submission order, and what each audience may see."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.classic import PICK, Game, Options, events_for, view
from app.classic.cards import CARDS
from app.engine.rng import Rng


def _random_game(seed: int, players: int, sides: str,
                 each_step: Any = None) -> Game:
    """A game where every seat picks at random; ``each_step(game, events)`` after each
    apply."""
    game = Game.new(seed, Options(players=players, sides=sides))
    rng = Rng(seed ^ 0x5EED)
    while not game.over:
        seat = min(game.pending()) if game.phase == PICK else game.interrupt
        actions = game.legal_actions(seat)
        events = game.apply(seat, actions[rng.below(len(actions))])
        if each_step is not None:
            each_step(game, events)
    return game


def _games(count: int) -> list[tuple[int, int, str]]:
    return [(seed, 3 + seed % 5, ("A", "B", "random")[seed // 5 % 3]) for seed in range(count)]


def _replays(seed: int, players: int, sides: str) -> None:
    game = _random_game(seed, players, sides)
    again = Game.replay(seed, game.options, game.log)
    assert again.state_hash() == game.state_hash()
    texts = [(seat, str(action)) for seat, action in game.log]
    assert Game.replay(seed, game.options, texts).state_hash() == game.state_hash()
    result = game.outcome()
    assert result is not None and min(result.places) == 1


@pytest.mark.parametrize(("seed", "players", "sides"), _games(15))
def test_random_games_replay_to_the_same_state_hash(seed: int, players: int,
                                                    sides: str) -> None:
    _replays(seed, players, sides)


@pytest.mark.long
def test_five_thousand_random_games_replay() -> None:
    for players in range(3, 8):
        for seed in range(1000):
            _replays(seed, players, ("A", "B")[seed % 2])


def _order_invariance(seed: int, steps: int, orders: int) -> None:
    """Every pick step of a random game, closed with the same choices submitted in
    ``orders`` shuffled orders (with a change of mind on the way), gives one state hash."""
    game = Game.new(seed, Options(players=3 + seed % 5, sides="random"))
    rng = Rng(seed)
    checked = 0
    while not game.over and checked < steps:
        if game.phase != PICK:
            actions = game.legal_actions(game.interrupt)
            game.apply(game.interrupt, actions[rng.below(len(actions))])
            continue
        choices = {}
        for seat in range(game.players):
            actions = game.legal_actions(seat)
            choices[seat] = actions[rng.below(len(actions))]
        hashes = set()
        for _ in range(orders):
            world = game.clone()
            seats = list(range(game.players))
            rng.shuffle(seats)
            first = seats[0]
            other = world.legal_actions(first)
            world.apply(first, other[rng.below(len(other))])  # a mind changed later
            for seat in seats[1:-1]:
                world.apply(seat, choices[seat])
            world.apply(first, choices[first])  # the change: before the step closes
            world.apply(seats[-1], choices[seats[-1]])
            hashes.add(world.state_hash())
        assert len(hashes) == 1
        for seat in range(game.players):
            game.apply(seat, choices[seat])
        checked += 1


def test_submission_order_never_changes_the_state() -> None:
    for seed in range(4):
        _order_invariance(seed, steps=18, orders=4)


@pytest.mark.long
def test_five_hundred_steps_twenty_orders() -> None:
    for seed in range(28):
        _order_invariance(seed, steps=18, orders=20)


# ------------------------------------------------------------------------- leak scan

def _strings(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for value in data.values() for s in _strings(value)]
    if isinstance(data, list | tuple):
        return [s for value in data for s in _strings(value)]
    return []


def _allowed(game: Game, audience: int | None, before_pile: list[int]) -> set[str]:
    """Card ids ``audience`` may know of, worked out from the state, not from the views."""
    known = {CARDS[c].id for city in game.cities for c in city.cards}
    if audience is not None:
        city = game.cities[audience]
        known |= {CARDS[c].id for c in [*game.hands[audience], *city.tucked, *city.discarded]}
        known |= {CARDS[c].id for _, _, hand in game.seen[audience] for c in hand}
        if game.phase != "over" and game.interrupt == audience:
            known |= {CARDS[c].id for c in game.pile}
        known |= {CARDS[c].id for c in before_pile} if game.interrupt == audience else set()
    return known


def _scan(game: Game, events: list[Any], before_pile: list[int]) -> None:
    card_ids = {card.id for card in CARDS}
    for audience in [None, *range(game.players)]:
        allowed = _allowed(game, audience, before_pile)
        seen = json.dumps([view(game, audience), events_for(events, audience)])
        for text in _strings(json.loads(seen)):
            names = {part for part in text.split(":") if part in card_ids}
            assert names <= allowed, (audience, names - allowed, text)
        for seat in range(game.players):
            if seat == audience:
                continue
            other = view(game, audience)["seats"][seat]
            assert set(other) >= {"hand_count", "chosen"} and "hand" not in other
            for event in events_for(events, audience):
                if event.get("seat") == seat:
                    assert "action" not in event and "cards" not in event
                    if event["type"] in ("played", "unplayed") and \
                            event.get("use") not in ("build", "free"):
                        assert "card" not in event


def _leak_scan(seed: int, players: int, sides: str) -> None:
    pile: list[int] = []

    def after(game: Game, events: list[Any]) -> None:
        _scan(game, events, pile)
        pile[:] = game.pile

    _random_game(seed, players, sides, after)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_no_view_or_event_tells_an_audience_what_it_may_not_know(players: int) -> None:
    _leak_scan(players, players, "random")


@pytest.mark.long
def test_leak_scan_over_many_games() -> None:
    for seed in range(200):
        _leak_scan(seed, 3 + seed % 5, ("A", "B")[seed % 2])


def test_the_fast_path_reaches_the_state_apply_reaches() -> None:
    """``play`` and ``apply`` agree step by step, with Babylon B's seventh card (its coins of
    the start of turn 6), Halikarnassos' builds and the Vineyards and Bazars they feed."""
    phases: set[str] = set()
    for seed in range(8):
        players = 3 + seed % 5
        boards = ("babylon", "halikarnassos", "gizah", "rhodos", "olympia", "ephesos",
                  "alexandria")[:players]
        checked = Game.new(seed, Options(players=players, sides="B", boards=boards))
        fast = checked.clone()
        rng = Rng(seed ^ 0xFA57)
        while not checked.over:
            phases.add(checked.phase)
            seat = min(checked.pending()) if checked.phase == PICK else checked.interrupt
            actions = checked.legal_actions(seat)
            assert [str(a) for a in fast.legal_actions(seat)] == [str(a) for a in actions]
            builds = [a for a in actions if not str(a).startswith("discard")] or actions
            action = builds[rng.below(len(builds))]
            checked.apply(seat, action)
            fast.play(seat, action)
            assert fast.state_hash() == checked.state_hash()
    assert {"seventh", "discard_build"} <= phases
