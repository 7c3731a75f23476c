"""The one interpreter of :class:`~app.engine.cards.Effects`, plus military and science.

Whatever carries an effect (card, wonder, progress token, a card rebuilt by the Mausoleum)
goes through :func:`gain`. Effects that need a choice push a :class:`Decision`; the turn
does not end until every decision is made.
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
from .state import Decision, DecisionKind, GameState, Phase, PlayerState, Victory

CAPITAL: Final = 9
LOOT_ZONES: Final = ((3, 2), (6, 5))
"""(distance from the centre that enters the zone, coins lost) for the two loot tokens."""
SCIENCE_SUPREMACY: Final = 6


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
    state.phase = Phase.OVER
    state.pending.clear()
    state.play_again = False
    state.events.append(GameEnded(winner, victory))


def move_pawn(state: GameState, seat: int, shields: int) -> None:
    """Move the conflict pawn ``shields`` spaces towards ``seat``'s opponent."""
    direction = 1 if seat == 0 else -1
    distance = min(CAPITAL, state.pawn * direction + shields)
    state.pawn = distance * direction
    state.events.append(PawnMoved(seat, shields, state.pawn))
    opponent = 1 - seat
    tokens = state.loot[opponent]
    for zone, (enters_at, coins) in enumerate(LOOT_ZONES):
        if tokens[zone] and distance >= enters_at:
            tokens[zone] = False
            victim = state.players[opponent]
            lost = min(coins, victim.coins)
            victim.coins -= lost
            state.events.append(Looted(opponent, coins, lost))
    if distance >= CAPITAL:
        end_game(state, seat, Victory.MILITARY)


def add_science(state: GameState, seat: int, symbol: int) -> None:
    player = state.players[seat]
    player.science[symbol] += 1
    if sum(1 for n in player.science if n) >= SCIENCE_SUPREMACY:
        end_game(state, seat, Victory.SCIENCE)
    elif player.science[symbol] == 2 and state.board_tokens:
        # A pair: take a token from the board at once (nothing happens if none is left).
        state.pending.insert(0, Decision(DecisionKind.CHOOSE_PROGRESS, seat,
                                         tuple(state.board_tokens)))
        state.events.append(SciencePairFormed(seat, SCIENCE_SYMBOLS[symbol]))


def gain(state: GameState, seat: int, effects: Effects, red_card: bool = False) -> None:
    """Apply everything ``effects`` does for ``seat``, in the order the rules resolve it."""
    player = state.players[seat]
    if effects.changes_prices:
        # Fixed production also sets the opponent's prices; the rest only the gainer's.
        if effects.produces:
            state.forget_prices(1 - seat)
        state.forget_prices(seat)
        for r, n in enumerate(effects.produce):
            player.production[r] += n
        if effects.produce_one_of:
            # Kept narrowest first, the order in which the cost solver hands them out.
            player.choice_sets.append(effects.produce_one_of)
            player.choice_sets.sort(key=len)
        for r in effects.trade_price_one:
            player.trade_price_one[r] = True
        player.wonder_resource_discount += effects.wonder_resource_discount
        player.blue_resource_discount += effects.blue_resource_discount
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
        if state.phase == Phase.OVER:
            return
    if effects.science >= 0:
        add_science(state, seat, effects.science)
        if state.phase == Phase.OVER:
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
    if coins:
        player.coins += coins
        state.events.append(CoinsGained(seat, coins))
    if effects.opponent_loses_coins:
        opponent = state.players[1 - seat]
        lost = min(effects.opponent_loses_coins, opponent.coins)
        opponent.coins -= lost
        state.events.append(CoinsLost(1 - seat, lost))


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
        state.events.append(LibraryTokensDrawn(seat, tuple(TOKENS[t].id for t in drawn)))


def add_card(state: GameState, seat: int, card_index: int) -> None:
    """Put a card into ``seat``'s city and apply its effects."""
    card = CARDS[card_index]
    player = state.players[seat]
    player.cards.append(card_index)
    player.colors[card.color] += 1
    if card.chain_to >= 0:
        player.chains |= 1 << card.chain_to
    gain(state, seat, card.effects, red_card=card.color == Color.RED)


def remove_card(state: GameState, seat: int, card_index: int) -> None:
    """Take a card out of ``seat``'s city (Statue of Zeus, Circus Maximus) to the discard."""
    card = CARDS[card_index]
    player = state.players[seat]
    player.cards.remove(card_index)
    player.colors[card.color] -= 1
    state.forget_prices(0)
    state.forget_prices(1)
    for r, n in enumerate(card.effects.produce):
        player.production[r] -= n
    if card.chain_to >= 0:
        player.chains &= ~(1 << card.chain_to)
    state.discard.append(card_index)


def take_token(state: GameState, seat: int, token_index: int) -> None:
    state.players[seat].tokens.append(token_index)
    gain(state, seat, TOKENS[token_index].effects)
