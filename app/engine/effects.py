"""The one interpreter of :class:`~app.engine.cards.Effects`, plus military and science.

Whatever carries an effect (card, wonder, progress token, a card rebuilt by the Mausoleum)
goes through :func:`gain`. Effects that need a choice push a :class:`Decision`; the turn
does not end until every decision is made. Events are recorded only while
``state.events`` is a list (``Game.apply``; ``Game.play`` builds none).
"""

from __future__ import annotations

from typing import Final

from .cards import CARDS, SCIENCE_SYMBOLS, TOKENS, Color, Effects, Kind
from .events import (
    CoinsGained,
    CoinsLost,
    GameEnded,
    LibraryTokensDrawn,
    Looted,
    PawnMoved,
    SciencePairFormed,
)
from .state import (
    PRODUCTION_FIELD,
    PRODUCTION_MASK,
    Decision,
    DecisionKind,
    GameState,
    Phase,
    PlayerState,
    Victory,
)

CAPITAL: Final = 9
LOOT_ZONES: Final[tuple[tuple[int, int], ...]] = ((3, 2), (6, 5))
"""(distance from the centre that enters the zone, coins lost) for the two loot tokens."""
SCIENCE_SUPREMACY: Final = 6
_OVER: Final = int(Phase.OVER)
_COLOR_OF: Final = tuple(int(c.color) for c in CARDS)
_RED_CARD: Final = tuple(c.color == Color.RED for c in CARDS)


def count_kind(player: PlayerState, kind: Kind) -> int:
    """How many items of ``kind`` a city has (cards of a colour, wonders, sets of 3 coins)."""
    if kind <= Kind.PURPLE:
        return player.colors[kind]
    if kind == Kind.BROWN_AND_GREY:
        return player.colors[Color.BROWN] + player.colors[Color.GREY]
    if kind == Kind.WONDER:
        return len(player.built_wonders)
    return player.coins // 3


def most(state: GameState, kind: Kind) -> int:
    """The count of ``kind`` in whichever city has the most of it."""
    return max(count_kind(state.players[0], kind), count_kind(state.players[1], kind))


def end_game(state: GameState, winner: int | None, victory: Victory) -> None:
    state.winner = winner
    state.victory = victory
    state.phase = _OVER
    state.pending.clear()
    state.play_again = False
    state.revealed = True
    events = state.events
    if events is not None:
        events.append(GameEnded(winner, victory))


def move_pawn(state: GameState, seat: int, shields: int) -> None:
    """Move the conflict pawn ``shields`` spaces towards ``seat``'s opponent."""
    direction = 1 if seat == 0 else -1
    distance = min(CAPITAL, state.pawn * direction + shields)
    state.pawn = distance * direction
    events = state.events
    if events is not None:
        events.append(PawnMoved(seat, shields, state.pawn))
    opponent = 1 - seat
    tokens = state.loot[opponent]
    for zone, (enters_at, coins) in enumerate(LOOT_ZONES):
        if tokens[zone] and distance >= enters_at:
            tokens[zone] = False
            victim = state.players[opponent]
            lost = min(coins, victim.coins)
            victim.coins -= lost
            if events is not None:
                events.append(Looted(opponent, coins, lost))
    if distance >= CAPITAL:
        end_game(state, seat, Victory.MILITARY)


def add_science(state: GameState, seat: int, symbol: int) -> None:
    science = state.players[seat].science
    science[symbol] += 1
    if _symbols(science) >= SCIENCE_SUPREMACY:
        end_game(state, seat, Victory.SCIENCE)
    elif science[symbol] == 2 and state.board_tokens:
        # A pair: take a token from the board at once (nothing happens if none is left).
        state.pending.insert(0, Decision(DecisionKind.CHOOSE_PROGRESS, seat,
                                         tuple(state.board_tokens)))
        events = state.events
        if events is not None:
            events.append(SciencePairFormed(seat, SCIENCE_SYMBOLS[symbol]))


def _symbols(science: list[int]) -> int:
    """How many different science symbols a city has."""
    count = 0
    for n in science:
        if n:
            count += 1
    return count


def gain(state: GameState, seat: int, effects: Effects, red_card: bool = False) -> None:
    """Apply everything ``effects`` does for ``seat``, in the order the rules resolve it."""
    player = state.players[seat]
    if effects.changes_prices:
        added = 0
        if effects.produces:
            production = player.production
            for r, n in effects.produced:
                production[r] += n
                added += n << PRODUCTION_FIELD * r
        if effects.produce_one_of or effects.trade_price_one \
                or effects.wonder_resource_discount or effects.blue_resource_discount:
            if effects.produce_one_of:
                # Kept narrowest first, the order in which the cost solver hands them out.
                player.choice_sets.append(effects.produce_one_of)
                player.choice_sets.sort(key=len)
            for r in effects.trade_price_one:
                player.trade_price_one[r] = True
            player.wonder_resource_discount += effects.wonder_resource_discount
            player.blue_resource_discount += effects.blue_resource_discount
            changed = player.update_price_key()
        else:  # fixed production alone (brown and grey cards): added to the key as it is
            changed = player.add_production_to_key(added)
        if changed:
            state.forget_prices(seat)
            if changed & PRODUCTION_MASK:  # fixed production also sets the opponent's prices
                state.forget_prices(1 - seat)
    if effects.gives_coins:
        _gain_coins(state, seat, effects)
    if effects.sets_standing_rules:
        player.receives_opponent_trade_coins |= effects.receive_opponent_trade_coins
        player.extra_shields_per_red_card += effects.extra_shields_per_red_card
        player.wonders_play_again |= effects.wonders_play_again
        player.coins_per_chain_build += effects.coins_per_chain_build
    if effects.shields:
        shields = effects.shields
        if red_card:
            shields += player.extra_shields_per_red_card
        move_pawn(state, seat, shields)
        if state.phase == _OVER:
            return
    if effects.science >= 0:
        add_science(state, seat, effects.science)
        if state.phase == _OVER:
            return
    if effects.asks_decision:
        _ask_decisions(state, seat, effects)


def _gain_coins(state: GameState, seat: int, effects: Effects) -> None:
    player = state.players[seat]
    coins = effects.coins
    if effects.coins_per_own is not None:
        coins += effects.coins_per_own.amount * count_kind(player, effects.coins_per_own.kind)
    if effects.coins_per_most is not None:
        coins += effects.coins_per_most.amount * most(state, effects.coins_per_most.kind)
    events = state.events
    if coins:
        player.coins += coins
        if events is not None:
            events.append(CoinsGained(seat, coins))
    if effects.opponent_loses_coins:
        opponent = state.players[1 - seat]
        lost = min(effects.opponent_loses_coins, opponent.coins)
        opponent.coins -= lost
        if events is not None:
            events.append(CoinsLost(1 - seat, lost))


def _ask_decisions(state: GameState, seat: int, effects: Effects) -> None:
    if effects.destroy_opponent_card is not None:
        color = effects.destroy_opponent_card
        targets = tuple(c for c in state.players[1 - seat].cards if CARDS[c].color == color)
        if targets:
            state.pending.append(Decision(DecisionKind.DESTROY_CARD, seat, targets))
    if effects.build_from_discard and state.discard:
        state.pending.append(Decision(DecisionKind.BUILD_FROM_DISCARD, seat,
                                      tuple(state.discard)))
    if effects.progress_from_box and state.box_tokens:
        drawn = list(state.box_tokens)
        state.rng.shuffle(drawn)
        drawn = sorted(drawn[: effects.progress_from_box])
        state.pending.append(Decision(DecisionKind.CHOOSE_LIBRARY_TOKEN, seat, tuple(drawn)))
        state.revealed = True
        events = state.events
        if events is not None:
            events.append(LibraryTokensDrawn(seat, tuple(TOKENS[t].id for t in drawn)))


def add_card(state: GameState, seat: int, card_index: int) -> None:
    """Put a card into ``seat``'s city and apply its effects."""
    card = CARDS[card_index]
    player = state.players[seat]
    player.cards.append(card_index)
    player.colors[_COLOR_OF[card_index]] += 1
    if card.chain_to >= 0:
        player.add_chain(card.chain_to)
    gain(state, seat, card.effects, _RED_CARD[card_index])  # positional: cheaper to call


def remove_card(state: GameState, seat: int, card_index: int) -> None:
    """Take a card out of ``seat``'s city (Statue of Zeus, Circus Maximus) to the discard."""
    card = CARDS[card_index]
    player = state.players[seat]
    player.cards.remove(card_index)
    player.colors[card.color] -= 1
    for r, n in enumerate(card.effects.produce):
        player.production[r] -= n
    if card.chain_to >= 0:
        player.remove_chain(card.chain_to)
    state.discard.append(card_index)
    changed = player.update_price_key()
    if changed:
        state.forget_prices(seat)
        if changed & PRODUCTION_MASK:
            state.forget_prices(1 - seat)


def take_token(state: GameState, seat: int, token_index: int) -> None:
    state.players[seat].tokens.append(token_index)
    gain(state, seat, TOKENS[token_index].effects)
