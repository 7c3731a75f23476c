"""The classic game's computer players decide from what their seat may see, the same way
every time, and only ever play legal actions."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from app.classic import Action, BuildStage, Discard, Game, Options, view
from app.classic.bots import LEVELS, Unseen, bot_rng, decide
from app.classic.bots.history import read_history
from app.classic.cards import CARDS, deck
from app.classic.game import PICK
from app.engine.rng import Rng

SEARCHES = [code for code, level in LEVELS.items() if level.kind == "search"]


def _random_game(seed: int, players: int, stop: int | None = None) -> Game:
    """A seeded game of random moves (seats choosing in seat order), stopped after ``stop``
    actions, else played to its end."""
    game = Game.new(seed, Options(players=players, sides="random"))
    rng = random.Random(seed)
    while not game.over and (stop is None or len(game.log) < stop):
        seat = min(game.pending())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def _decisions(seed: int, players: int) -> list[tuple[Game, int]]:
    """Positions of a greedy game where a seat owes a decision: a few picks in each age and
    every seventh card and Halikarnassos build (Babylon and Halikarnassos on side B build
    their stages whenever they can, so that these come up)."""
    boards = ("babylon", "halikarnassos", "olympia", "rhodos", "gizah", "ephesos",
              "alexandria")[:players]
    game = Game.new(seed, Options(players=players, sides="B", boards=boards))
    found: list[tuple[Game, int]] = []
    rng = random.Random(seed)
    while not game.over:
        pending = sorted(game.pending())
        if game.phase != PICK or (game.turn in (1, 4) and len(pending) == players):
            found.append((game.clone(), rng.choice(pending)))
        for seat in pending:
            stages = [a for a in game.legal_actions(seat) if isinstance(a, BuildStage)]
            if seat < 2 and stages:
                game.apply(seat, stages[0])
            else:
                game.apply(seat, decide(game, seat, "greedy", seed=seat))
    return found


@pytest.mark.parametrize(("players", "seed", "kinds_met"), [
    (3, 13, {"pick", "seventh", "discard_build"}), (5, 6, {"pick", "seventh"}),
    (7, 20, {"pick", "seventh", "discard_build"})])
def test_every_level_answers_every_kind_of_decision_legally(players: int, seed: int,
                                                           kinds_met: set[str]) -> None:
    kinds: Counter[str] = Counter()
    decisions = _decisions(seed, players)
    for game, seat in decisions[::3] + [(g, s) for g, s in decisions if g.phase != PICK]:
        kinds[game.phase] += 1
        for code in LEVELS:
            if LEVELS[code].kind == "search" and game.phase == PICK and code != "easy":
                continue  # the costly levels once per kind below
            action = decide(game, seat, code, seed=1)
            assert action in game.legal_actions(seat), (code, game.phase, action)
    assert set(kinds) == kinds_met
    game, seat = decisions[1]
    for code in SEARCHES:
        assert decide(game, seat, code, seed=2) in game.legal_actions(seat)


@pytest.mark.long
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_every_level_answers_every_decision_of_random_games(players: int) -> None:
    for seed in range(3):
        game = Game.new(seed, Options(players=players, sides="random"))
        rng = random.Random(seed)
        while not game.over:
            for seat in sorted(game.pending()):
                code = rng.choice(list(LEVELS))
                action = decide(game, seat, code, seed=seed)
                assert action in game.legal_actions(seat)
                game.apply(seat, action)


def _alike_but_hidden(game: Game, seat: int, seed: int) -> Game:
    """The same game as ``seat`` sees it with every card it cannot see dealt otherwise
    (other hands, the pile, the decks to come), the cards others tucked or discarded
    changed in the log, another seed and another generator."""
    twin = Unseen(game, seat).sample(game, Rng(seed))
    twin.seed = game.seed + 1
    twin.rng = Rng(seed * 7 + 3)
    cards = [card.id for card in CARDS if card.age == 1]
    log: list[tuple[int, Action]] = []
    for who, action in game.log:
        if who != seat and isinstance(action, Discard):
            action = Discard(cards[(cards.index(action.card) + 1) % len(cards)]
                             if action.card in cards else cards[0])
        elif who != seat and isinstance(action, BuildStage):
            action = BuildStage(cards[0], action.left, action.right)
        log.append((who, action))
    twin.log = log
    twin.seen = [list(game.seen[s]) if s == seat else [] for s in range(game.players)]
    return twin


def _positions() -> list[tuple[Game, int]]:
    """Positions at the opening of pick steps across ages and player counts, most of them
    early in an age, where the other hands are least known."""
    found = []
    for seed, players, age, turn in ((1, 3, 1, 1), (2, 3, 2, 5), (3, 4, 1, 2), (4, 5, 2, 1),
                                     (5, 3, 3, 3), (6, 7, 3, 2), (7, 4, 3, 1), (8, 6, 2, 2),
                                     (9, 7, 1, 1), (10, 5, 3, 1)):
        game = Game.new(seed, Options(players=players, sides="random"))
        rng = random.Random(seed)
        while (game.age, game.turn) != (age, turn) or game.phase != PICK \
                or len(game.pending()) != players:
            seat = min(game.pending())
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        found.append((game, seed % players))
    return found


def test_two_games_alike_to_a_seat_get_the_same_decision() -> None:
    changed = 0
    for index, (game, seat) in enumerate(_positions()):
        twin = _alike_but_hidden(game, seat, seed=99)
        assert view(twin, seat) == view(game, seat)
        changed += twin.hands != game.hands
        # the levels differ in budget only: the costliest on a few positions
        for code in LEVELS if index < 3 else [c for c in LEVELS if c != "hard"]:
            assert decide(twin, seat, code, seed=5) == decide(game, seat, code, seed=5), code
    assert changed >= 4  # the other hands were truly dealt otherwise


class _Untouchable:
    """A game generator that refuses to be read (a copy of the game may copy it)."""

    def clone(self) -> _Untouchable:
        return self

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"a bot read the game's generator ({name})")


def test_no_level_reads_the_games_generator() -> None:
    for index, (game, seat) in enumerate(_positions()[:4]):
        codes = list(LEVELS) if index == 0 else [c for c in LEVELS if c != "hard"]
        expected = {code: decide(game, seat, code, seed=3) for code in codes}
        game.rng = _Untouchable()  # type: ignore[assignment]
        for code in codes:
            assert decide(game, seat, code, seed=3) == expected[code]


def test_same_seed_and_budget_same_move_other_seed_may_differ() -> None:
    differ = 0
    for game, seat in _positions():
        for code in ("random", "easy"):
            first = decide(game, seat, code, seed=11)
            assert decide(game.clone(), seat, code, seed=11) == first
            differ += any(decide(game, seat, code, seed=s) != first for s in range(12, 16))
    assert differ >= 1
    # the generator depends on the bot's seed, the step and the seat, nothing else
    game, seat = _positions()[0]
    assert bot_rng(1, game, seat).state == bot_rng(1, game.clone(), seat).state


def test_the_history_reads_every_closed_turn_and_hides_others_tucked_cards() -> None:
    for seed, players in ((1, 3), (2, 7), (3, 5)):
        game = _random_game(seed, players)
        history = read_history(game, 0)
        assert len(history.turns) == 18
        for turn in history.turns:
            for who, seen in enumerate(turn.plays):
                assert (seen.card is None) == (who != 0 and seen.use != "build")


def test_drawn_arrangements_keep_what_the_seat_knows_and_allow_the_real_one() -> None:
    for seed, players, stop in ((1, 3, 35), (2, 3, 9), (3, 4, 60), (4, 7, 100), (5, 5, 220)):
        game = _random_game(seed, players, stop)
        if game.over:
            continue
        seat = seed % players
        unseen = Unseen(game, seat)
        for hand in unseen.hands:
            real = Counter(game.hands[hand.seat])
            if hand.known is not None:  # the real hand is the known cards less hidden picks
                assert not real - Counter(hand.known)
                assert len(hand.known) - hand.hidden_picks >= hand.size
            else:
                assert not real - Counter(unseen.pool + unseen.guild_pool)
        rng = Rng(seed)
        for _ in range(5):
            world = unseen.sample(game, rng)
            assert world.hands[seat] == game.hands[seat]
            assert [len(h) for h in world.hands] == [len(h) for h in game.hands]
            assert len(world.pile) == len(game.pile)
            everywhere = Counter(card for hand in world.hands for card in hand)
            everywhere.update(card for city in world.cities for card in city.cards
                              if CARDS[card].age == game.age and not CARDS[card].guild)
            copies = Counter(deck(game.age, players))
            assert all(everywhere[card] <= copies[card] for card in copies)
        if players == 3 and game.age == 1 and game.turn >= 4:
            # every hand has come back: the unseen others are only the hidden picks
            assert all(hand.known is not None for hand in unseen.hands)


def test_greedy_beats_random_players() -> None:
    wins = 0
    for seed in range(6):
        game = Game.new(seed, Options(players=4, sides="random"))
        greedy_seat = seed % 4
        while not game.over:
            for seat in sorted(game.pending()):
                code = "greedy" if seat == greedy_seat else "random"
                game.apply(seat, decide(game, seat, code, seed=seed))
        result = game.outcome()
        assert result is not None
        wins += result.places[greedy_seat] == 1
    assert wins >= 5
