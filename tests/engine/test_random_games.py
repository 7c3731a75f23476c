"""Seeded random full games: invariants that must hold after every action of every game.

After every action of each game, the views of both seats and of a spectator, and the events
as each of them receives them, are scanned for hidden identities. The default run plays a
sample of 100 games (every tenth seed); ``make test-long`` (``-m long``) plays all 1,000.
"""

from __future__ import annotations

import collections
import random

import pytest

from app.engine import FORFEITS, Event, Game, Options, Victory, events_for, view
from app.engine.cards import CARDS, TOKENS, WONDERS
from app.engine.game import WONDER_CAP
from app.engine.state import GameState, Phase
from tests.engine.golden.record import CHOOSERS
from tests.factories import hidden_ids, strings_in

GAMES = 1000
CHUNKS = 10
SAMPLE_EVERY = 10
"""The default run plays seeds 0, 10, 20, ...: 100 games, every kind of setup among them."""
MAX_ACTIONS = 200


def _card_places(state: GameState) -> collections.Counter[int]:
    places: collections.Counter[int] = collections.Counter()
    if state.age:
        places.update(c for c in state.structure if c >= 0)
    for age, deck in state.decks.items():
        if age > state.age:
            places.update(deck)
    places.update(state.removed_cards)
    places.update(state.discard)
    for p in state.players:
        places.update(p.cards)
        places.update(p.built_wonders.values())
    return places


def _check_invariants(game: Game) -> None:
    state = game.state
    for p in state.players:
        assert p.coins >= 0
        assert len(p.wonders) <= 4
        assert set(p.built_wonders) <= set(p.wonders)
    places = _card_places(state)
    assert sorted(places) == list(range(len(CARDS))), "a card is missing"
    assert max(places.values()) == 1, "a card is in two places"
    owned = [w for p in state.players for w in p.wonders + p.retired_wonders]
    pool = owned + state.unused_wonders + state.draft_offer
    if state.phase == Phase.DRAFT and state.draft_step < 4:
        pool += state.draft_rounds[1]
    assert sorted(pool) == list(range(len(WONDERS)))
    assert state.wonders_built == sum(len(p.built_wonders) for p in state.players) <= WONDER_CAP
    tokens = state.board_tokens + state.box_tokens + state.players[0].tokens \
        + state.players[1].tokens
    assert sorted(tokens) == list(range(len(TOKENS)))
    assert -9 <= state.pawn <= 9


def _scan_for_leaks(game: Game, events: list[Event]) -> None:
    for viewer in (0, 1, None):
        hidden = hidden_ids(game, viewer)
        seen = strings_in(view(game, viewer)) | strings_in(events_for(events, viewer))
        leaked = hidden & seen
        assert not leaked, f"viewer {viewer} sees hidden {sorted(leaked)}"


def play_checked(seed: int, scan: bool, favourite: str | None = None) -> Game:
    """Play a seeded game choosing uniformly among legal actions; with ``favourite`` (a
    colour), building a card of that colour whenever one is legal."""
    options = Options(wonder_selection="first_game" if seed % 7 == 0 else "draft")
    game = Game.new(seed, options)
    chooser = random.Random(seed)
    choose = CHOOSERS[favourite or "uniform"]
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            break
        before = game.state.players[0].coins + game.state.players[1].coins
        events = game.apply(choose(game.legal_actions(), chooser))
        assert before >= 0
        _check_invariants(game)
        if scan:
            _scan_for_leaks(game, events)
    assert game.is_over, f"seed {seed} did not end in {MAX_ACTIONS} actions"
    return game


def check_random_games(seeds: range) -> None:
    victories: collections.Counter[Victory] = collections.Counter()
    for seed in seeds:
        game = play_checked(seed, scan=True)
        outcome = game.outcome()
        assert outcome is not None
        victories[outcome.victory] += 1
        a, b = outcome.scores
        for sheet in outcome.scores:
            parts = sheet.to_json()
            assert parts.pop("total") == sum(parts.values())
        if outcome.victory == Victory.CIVILIAN:
            expected = None if (a.total, a.blue) == (b.total, b.blue) else \
                (0 if (a.total, a.blue) > (b.total, b.blue) else 1)
            assert outcome.winner == expected
            assert game.state.age == 3 and game.state.cards_left == 0
        else:
            assert outcome.winner in (0, 1)
        replayed = Game.replay(seed, game.options, [str(a) for a in game.log])
        assert replayed.state_hash() == game.state_hash()
    assert victories[Victory.CIVILIAN] > 0


@pytest.mark.compiled
@pytest.mark.parametrize("half", range(2))
def test_a_sample_of_random_games_keeps_every_invariant(half: int) -> None:
    check_random_games(range(half * SAMPLE_EVERY, GAMES, 2 * SAMPLE_EVERY))


@pytest.mark.long
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_every_random_game_keeps_every_invariant(chunk: int) -> None:
    check_random_games(range(chunk, GAMES, CHUNKS))


@pytest.mark.compiled
def test_same_seed_and_actions_give_the_same_game_on_replay() -> None:
    first = play_checked(12345, scan=False)
    again = play_checked(12345, scan=False)
    assert [str(a) for a in first.log] == [str(a) for a in again.log]
    assert first.state_hash() == again.state_hash()
    other = play_checked(12346, scan=False)
    assert other.state_hash() != first.state_hash()


@pytest.mark.compiled
def test_all_three_victories_occur_in_random_play() -> None:
    """Players keen on green or red cards reach every kind of victory, and every invariant
    holds on the way (uniform play rarely gathers six science symbols)."""
    kinds: collections.Counter[Victory] = collections.Counter()
    for seed in range(300):
        outcome = play_checked(seed, scan=False, favourite=("green", "red")[seed % 2]).outcome()
        assert outcome is not None
        kinds[outcome.victory] += 1
    assert set(kinds) == set(Victory) - set(FORFEITS), kinds
