"""Exact positions, arranged by hand: for rule tests, examples and bug reports.

Start from a real game (first-game wonders, ``first_player`` to play Age I, or straight in a
later age) and arrange it: give a city cards, tokens or wonders, set coins, leave chosen
cards in the structure. Arranging bypasses the rules on purpose (placed cards give no coins,
shields or decisions); the moves under test then go through the real ``Game.apply``::

    >>> from app.engine.scenario import new_position, place_card
    >>> game = new_position(["scriptorium", "altar"], cities={0: ["library"]}, coins={0: 2})
    >>> [str(a) for a in game.legal_actions()][:2]
    ['build:scriptorium', 'discard:scriptorium']
    >>> [e.TYPE for e in game.apply("build:scriptorium")]    # a second quill: a pair
    ['card_built', 'science_pair']

Every arranging function keeps the engine's derived indexes (card -> slot, price keys) up
to date (:meth:`GameState.reindex`), so a caller never has to rebuild them. Nothing here is
used by the engine itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from .actions import ChooseStarter, DiscardCard
from .cards import CARD_BY_ID, CARDS, RESOURCES, TOKEN_BY_ID, TOKENS, WONDER_BY_ID
from .game import Game
from .state import Decision, DecisionKind, GameState, Options, Phase, PlayerState

SOURCES: Final[Mapping[str, tuple[str, ...]]] = {
    "wood": ("lumber_yard", "logging_camp", "sawmill"),
    "clay": ("clay_pool", "clay_pit", "brickyard"),
    "stone": ("quarry", "stone_pit", "shelf_quarry"),
    "glass": ("glassworks", "glassblower"),
    "papyrus": ("press", "drying_room"),
}
"""The brown and grey cards that make each resource, in the order :func:`supply_resources`
places them."""


# ------------------------------------------------------------------------- games and ages

def new_game(seed: int = 1, first_player: int = 0, age: int = 1) -> Game:
    """A game with the first-game wonders (seat 0 / seat 1 each have their own four; use
    :func:`set_wonders` to change them), ``first_player`` to act, in Age I or, with ``age``,
    straight in a later age (:func:`start_age`)."""
    game = Game.new(seed, Options(wonder_selection="first_game", first_player=first_player))
    if age != 1:
        start_age(game, age)
    return game


def new_position(
    structure: Sequence[str] | None = None,
    *,
    age: int = 1,
    seed: int = 1,
    first_player: int = 0,
    cities: Mapping[int, Iterable[str]] | None = None,
    coins: Mapping[int, int] | None = None,
) -> Game:
    """:func:`new_game` in ``age``, ``first_player`` to act; each seat's city holds
    ``cities[seat]`` (:func:`place_cards`); when ``structure`` is given, only those cards are
    left, all accessible (:func:`set_structure`); ``coins[seat]`` coins (:func:`set_coins`)."""
    game = new_game(seed, first_player=first_player, age=age)
    for seat, card_ids in (cities or {}).items():
        place_cards(game, seat, card_ids)
    if structure is not None:
        set_structure(game, structure)
    set_coins(game, coins or {})
    return game


def start_age(game: Game, age: int) -> None:
    """Lay out ``age`` as the engine does when an age begins (:meth:`GameState.lay_out_age`):
    the real layout of that age's deck, without replaying the earlier ages (whose random
    moves would fill cities a test could not control). The cities are kept, the seat to act
    does not change, no starter is chosen and no event is recorded."""
    game.state.lay_out_age(age)
    game.state.reindex()


def finish_age(game: Game, starter: int | None = None) -> None:
    """Play the current age out through real moves: whoever is to act discards an accessible
    card until the age ends. The next age is then laid out and waits for its starter to be
    chosen; with ``starter``, that choice is made at once (by whoever must make it)."""
    state = game.state
    age = state.age
    while state.age == age and not game.is_over:
        game.apply(next(a for a in game.legal_actions() if isinstance(a, DiscardCard)))
    decision = game.decision
    if starter is not None and decision is not None \
            and decision.kind == DecisionKind.CHOOSE_STARTER:
        game.apply(ChooseStarter(starter))


# ------------------------------------------------------------------------- cities

def player(game: Game, seat: int) -> PlayerState:
    return game.state.players[seat]


def set_coins(game: Game, coins: Mapping[int, int]) -> None:
    """Give each seat of ``coins`` exactly that many coins, e.g. ``{0: 8, 1: 10}``."""
    for seat, n in coins.items():
        game.state.players[seat].coins = n


def place_card(game: Game, seat: int, card_id: str) -> None:
    """Put a card in a city as if built long ago: its production, chain symbol, science
    symbol and colour count, but no one-time effect (coins, shields, decisions). The card is
    taken out of the structure, the decks and the discard pile if it is there."""
    card = CARD_BY_ID[card_id]
    state = game.state
    _take_out(state, card.index)
    p = state.players[seat]
    p.cards.append(card.index)
    p.colors[card.color] += 1
    if card.chain_to >= 0:
        p.chains |= 1 << card.chain_to
    effects = card.effects
    for r, n in enumerate(effects.produce):
        p.production[r] += n
    if effects.produce_one_of:
        p.choice_sets.append(effects.produce_one_of)
        p.choice_sets.sort(key=len)  # the engine keeps them narrowest first
    for r in effects.trade_price_one:
        p.trade_price_one[r] = True
    if effects.science >= 0:
        p.science[effects.science] += 1
    state.reindex()


def place_cards(game: Game, seat: int, card_ids: Iterable[str]) -> None:
    """:func:`place_card` for each of ``card_ids``, in order."""
    for card_id in card_ids:
        place_card(game, seat, card_id)


def supply_resources(game: Game, seat: int, wonder_id: str) -> None:
    """Place in ``seat``'s city brown/grey cards (:data:`SOURCES`) until it makes every
    resource ``wonder_id`` needs: nothing is left to buy."""
    cost = WONDER_BY_ID[wonder_id].cost
    p = game.state.players[seat]
    for r, name in enumerate(RESOURCES):
        for card_id in SOURCES[name]:
            if p.production[r] >= cost[r]:
                break
            if CARD_BY_ID[card_id].index not in p.cards:
                place_card(game, seat, card_id)


def give_token(game: Game, seat: int, token_id: str) -> None:
    """Give a progress token with its standing rules, without its one-time coins."""
    token = TOKEN_BY_ID[token_id]
    state = game.state
    for pool in (state.board_tokens, state.box_tokens):
        if token.index in pool:
            pool.remove(token.index)
    p = state.players[seat]
    p.tokens.append(token.index)
    e = TOKENS[token.index].effects
    p.wonder_resource_discount += e.wonder_resource_discount
    p.blue_resource_discount += e.blue_resource_discount
    p.receives_opponent_trade_coins |= e.receive_opponent_trade_coins
    p.extra_shields_per_red_card += e.extra_shields_per_red_card
    p.wonders_play_again |= e.wonders_play_again
    p.coins_per_chain_build += e.coins_per_chain_build
    if e.science >= 0:
        p.science[e.science] += 1
    state.reindex()


def set_tokens(game: Game, board: Iterable[str], box: Iterable[str] | None = None) -> None:
    """Put exactly the tokens of ``board`` on the board and those of ``box`` out of the game
    (the box); without ``box``, every token neither on the board nor in a city goes there."""
    state = game.state
    state.board_tokens = sorted(TOKEN_BY_ID[t].index for t in board)
    if box is None:
        held = {t for p in state.players for t in p.tokens}
        state.box_tokens = [t.index for t in TOKENS
                            if t.index not in state.board_tokens and t.index not in held]
    else:
        state.box_tokens = sorted(TOKEN_BY_ID[t].index for t in box)
    state.reindex()


def set_wonders(game: Game, seat: int, wonder_ids: list[str]) -> None:
    """Give ``seat`` exactly these (unbuilt) wonders, taking them from wherever they are."""
    state = game.state
    indices = [WONDER_BY_ID[w].index for w in wonder_ids]
    for p in state.players:
        p.wonders = [w for w in p.wonders if w not in indices]
    state.unused_wonders = [w for w in state.unused_wonders if w not in indices]
    state.players[seat].wonders = list(indices)
    state.reindex()


def mark_wonder_built(game: Game, seat: int, wonder_id: str, tucked_card: str) -> None:
    """Record a wonder as built (no effects), for counts and the 7-wonder cap."""
    state = game.state
    w = WONDER_BY_ID[wonder_id].index
    p = state.players[seat]
    if w not in p.wonders:
        for other in state.players:
            if w in other.wonders:
                other.wonders.remove(w)
        if w in state.unused_wonders:
            state.unused_wonders.remove(w)
        p.wonders.append(w)
    card = CARD_BY_ID[tucked_card].index
    _take_out(state, card)
    p.built_wonders[w] = card
    state.wonders_built += 1
    state.reindex()


def make_accessible(game: Game, card_id: str) -> int:
    """Make ``card_id`` a face-up accessible card of the current age; returns its slot.

    The card swaps places with the card in the lowest accessible slot, wherever it was
    (another slot, a later deck, the removed cards, the discard pile)."""
    state = game.state
    card = CARD_BY_ID[card_id].index
    if card in state.structure:
        slot = state.structure.index(card)
        if slot in state.accessible:
            state.face_up[slot] = True
            return slot
    target = min(state.accessible)
    displaced = state.structure[target]
    _take_out(state, card, replacement=displaced)
    state.structure[target] = card
    state.face_up[target] = True
    state.reindex()
    return target


def set_structure(game: Game, card_ids: Sequence[str]) -> None:
    """Leave only these cards in the structure of the current age, all face up and
    accessible, in slots 0, 1, ... (taking the last one ends the age). Every other slot is
    empty for good: nothing can be uncovered there."""
    state = game.state
    wanted = [CARD_BY_ID[c].index for c in card_ids]
    for card in wanted:
        if card not in state.structure:
            _take_out(state, card)
    leftover = [c for c in state.structure if c >= 0 and c not in wanted]
    state.removed_cards.extend(leftover)  # the cards cleared away leave the game
    closed = len(state.structure)
    for slot in range(len(state.structure)):
        card = wanted[slot] if slot < len(wanted) else -1
        state.structure[slot] = card
        state.face_up[slot] = card >= 0
        state.cover_count[slot] = 0 if card >= 0 else closed
    state.accessible = list(range(len(wanted)))
    state.cards_left = len(wanted)
    state.reindex()


def set_decision(game: Game, kind: DecisionKind, seat: int, options: tuple[int, ...]) -> None:
    """Ask ``seat`` a decision now, before anything pending; ``options`` are indices."""
    game.state.pending.insert(0, Decision(kind, seat, options))


# ------------------------------------------------------------------------- reading a game

def is_play_phase(game: Game) -> bool:
    return game.state.phase == Phase.PLAY


def is_normal_turn(game: Game, seat: int) -> bool:
    """``seat`` is to play a card (build, discard or wonder), no other decision pending."""
    decision = game.decision
    return decision is not None and decision.kind == DecisionKind.PLAY_CARD \
        and decision.seat == seat


def ids_of_cards(indices: Iterable[int]) -> set[str]:
    return {CARDS[i].id for i in indices}


def ids_of_tokens(indices: Iterable[int]) -> set[str]:
    return {TOKENS[i].id for i in indices}


# ------------------------------------------------------------------------- helpers

def _spare_card_like(state: GameState, card: int) -> int:
    """A card removed at setup, of the same age (a guild for a guild) when one is left."""
    wanted = CARDS[card]
    same_age = [c for c in state.removed_cards
                if (CARDS[c].age, CARDS[c].is_guild) == (wanted.age, wanted.is_guild)]
    spares = same_age or state.removed_cards
    if not spares:
        raise ValueError(f"no spare card to replace {wanted.id} in its age's deck")
    spare = spares[0]
    state.removed_cards.remove(spare)
    return spare


def _take_out(state: GameState, card: int, replacement: int = -1) -> None:
    """Remove a card from every place it may be; ``replacement`` takes its place there."""
    if card in state.structure:
        state.structure[state.structure.index(card)] = replacement
        return
    for age, deck in state.decks.items():
        if card in deck and age > state.age:
            if replacement < 0:  # a later age must still deal 20 cards: bring one back
                replacement = _spare_card_like(state, card)
            deck[deck.index(card)] = replacement
            return
    for pool in (state.removed_cards, state.discard):
        if card in pool:
            if replacement >= 0:
                pool[pool.index(card)] = replacement
            else:
                pool.remove(card)
            return
    for p in state.players:
        if card in p.cards:
            raise ValueError(f"{CARDS[card].id} is already in a city")
