"""The computer opponents decide from what their seat may see, the same way every time,
and only ever play legal actions."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from app.bots import LEVELS, decide, determinize, evaluate
from app.bots.worker import analyse, record_of, think
from app.engine import CARDS, Forfeit, Game, Options, view
from app.engine.rng import Rng
from app.engine.scenario import new_position
from app.engine.state import Phase


def _played_until(seed: int, stop: int) -> Game:
    """A seeded random game after ``stop`` actions (or its end)."""
    game = Game.new(seed, Options())
    rng = random.Random(seed)
    while not game.is_over and len(game.log) < stop:
        game.apply(rng.choice(game.legal_actions()))
    return game


def _positions() -> list[Game]:
    """Positions across a game: the draft's first round, each age, late Age III."""
    found = []
    for seed, stop in ((1, 2), (2, 12), (3, 25), (4, 40), (5, 55), (6, 62), (7, 8)):
        game = _played_until(seed, stop)
        if not game.is_over:
            found.append(game)
    return found


def _other_hidden(game: Game) -> Game:
    """The same game with different hidden things, built by hand: a face-down card traded
    with one returned to the box, the decks still to come and the second draft round
    dealt otherwise, another generator and another seed."""
    twin = game.clone()
    state = twin.state
    state.seed += 1
    state.rng = Rng(state.seed * 31 + 7)
    face_down = [slot for slot, card in enumerate(state.structure)
                 if card >= 0 and not state.face_up[slot]]
    if state.phase == Phase.PLAY and face_down:
        slot = face_down[0]
        hidden = CARDS[state.structure[slot]]
        swap = next(c for c in state.removed_cards
                    if CARDS[c].age == hidden.age and CARDS[c].is_guild == hidden.is_guild)
        state.removed_cards[state.removed_cards.index(swap)] = state.structure[slot]
        state.structure[slot] = swap
    for age, deck in state.decks.items():
        if age > state.age or state.phase == Phase.DRAFT:
            # A card of the deck traded with a removed one of the same age and kind.
            out = next(c for c in state.removed_cards
                       if CARDS[c].age == age and CARDS[c].is_guild == CARDS[deck[0]].is_guild)
            state.removed_cards[state.removed_cards.index(out)] = deck[0]
            deck[0] = out
            deck.reverse()
    if state.phase == Phase.DRAFT and state.draft_step < 4:
        second, unused = state.draft_rounds[1], state.unused_wonders
        second[0], unused[0] = unused[0], second[0]
        state.unused_wonders = sorted(unused)
    state.reindex()
    return twin


@pytest.mark.parametrize("level", list(LEVELS))
def test_a_bot_decides_from_what_its_seat_sees(level: str) -> None:
    for game in _positions():
        seat = game.to_act
        assert seat is not None
        other = _other_hidden(game)
        assert other.state_hash() != game.state_hash()
        assert view(other, seat) == view(game, seat), "the change must be hidden from the seat"
        budget = "easy" if LEVELS[level].kind == "search" else level  # same code, less time
        assert decide(game, seat, budget, seed=11) == decide(other, seat, budget, seed=11)


def test_the_same_seed_and_budget_give_the_same_move() -> None:
    for game in _positions()[:4]:
        seat = game.to_act
        assert seat is not None
        first = decide(game, seat, "easy", seed=5)
        assert decide(game, seat, "easy", seed=5) == first
        assert decide(game.clone(), seat, "easy", seed=5) == first


@pytest.mark.parametrize("level", [code for code in LEVELS if code != "random"])
def test_a_bot_takes_a_win_on_offer(level: str) -> None:
    """The pawn one step from the opponent's capital and a free shield in reach: every
    level but random builds it and wins at once (none discards it or builds something
    else), and the search says the win is certain."""
    game = new_position(["guard_tower", "lumber_yard", "scriptorium", "altar"], coins={0: 3})
    game.state.pawn = 8
    action = decide(game, 0, level, seed=3)
    assert str(action) == "build:guard_tower"
    assert evaluate(game, 100, seed=1).win_chance == 1.0
    game.apply(action)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == 0
    assert outcome.victory.value == "military"


class _SlowClock:
    """A clock on a machine so busy that every reading is an hour past the one before."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 3600.0
        return self.now


@pytest.mark.parametrize("level", [code for code in LEVELS if LEVELS[code].kind == "search"])
def test_a_busy_machine_makes_a_level_slower_never_weaker(
        level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A level is a budget of iterations: with every clock made to say an hour passes at
    each reading, the server's worker makes the same decision, and a search (the
    analysis's too) runs its whole budget."""
    game = _positions()[2]
    seat = game.to_act
    assert seat is not None
    quiet = think(record_of(game), seat, level, 7)
    quiet_search = evaluate(game, 40, seed=7)
    for name in ("monotonic", "perf_counter", "time", "process_time", "thread_time"):
        monkeypatch.setattr(time, name, _SlowClock())
        monkeypatch.setattr(time, f"{name}_ns", _SlowClock())
    assert think(record_of(game), seat, level, 7) == quiet
    busy_search = evaluate(game, 40, seed=7)
    assert busy_search == quiet_search and busy_search.iterations == 40


def test_a_determinisation_keeps_the_seen_and_deals_the_hidden_anew() -> None:
    deals: Counter[tuple[int, ...]] = Counter()
    rng = Rng(3)
    for game in _positions():
        seat = game.to_act
        for _ in range(6):
            world = determinize(game, seat, rng)
            assert view(world, seat) == view(game, seat)
            state = world.state
            # Every card is in exactly one place: each age's 23 (Age III: 20 and 7 guilds).
            placed = [c for c in state.structure if c >= 0] + state.removed_cards
            for age, deck in state.decks.items():
                if age > state.age or state.phase == Phase.DRAFT:
                    placed += deck
                    if age == 3:
                        assert sum(CARDS[c].is_guild for c in deck) == 3
            for player in state.players:
                placed += player.cards + list(player.built_wonders.values())
            placed += state.discard
            assert sorted(placed) == list(range(len(CARDS)))
            deals[tuple(state.structure)] += 1
            # And it plays on to an end like any game.
            choose = random.Random(len(deals)).choice
            while not world.is_over:
                world.apply(choose(world.legal_actions()))
    assert len(deals) > len(_positions()) * 3, "the hidden cards should vary between draws"


@pytest.mark.parametrize("levels", [("random", "greedy"), ("greedy", "easy")])
def test_bots_play_whole_games_with_legal_actions(levels: tuple[str, str]) -> None:
    game = Game.new(9, Options())
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        action = decide(game, seat, levels[seat], seed=seat)
        assert action in game.legal_actions()
        game.apply(action, seat=seat)
    assert game.outcome() is not None


def test_only_the_seat_to_act_is_asked() -> None:
    game = Game.new(1, Options(first_player=0))
    with pytest.raises(ValueError):
        decide(game, 1, "random", seed=0)


def test_an_analysis_reads_each_position_where_a_move_was_chosen() -> None:
    game = _played_until(8, 14)
    game.apply(Forfeit(1, "resigned"))
    positions = analyse(record_of(game), 3, bot_seed=1)
    # Every position but the one left by the resignation: there nobody chose a move.
    assert [p["version"] for p in positions] == list(range(14))
    replayed = Game.new(8, Options())
    for position, action in zip(positions, game.log, strict=False):
        assert position["seat"] == replayed.to_act
        assert 0.0 <= position["chance"] <= 1.0
        assert position["best"] in [str(a) for a in replayed.legal_actions()]
        replayed.apply(action)


def test_games_that_look_the_same_to_a_seat_are_drawn_the_same() -> None:
    """The strongest form of the property above: whatever the hidden cards, a seat's
    determinisation of two games it cannot tell apart is the same game."""
    for seed in range(40):
        game = Game.new(seed, Options())
        choose = random.Random(seed).choice
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            if len(game.log) % 7 == seed % 7:
                other = _other_hidden(game)
                assert view(other, seat) == view(game, seat)
                mine, theirs = Rng(seed), Rng(seed)
                assert (determinize(game, seat, mine).state_hash()
                        == determinize(other, seat, theirs).state_hash())
                assert mine.state == theirs.state
            game.apply(choose(game.legal_actions()))
