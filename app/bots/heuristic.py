"""How good a position looks to a seat, in rough victory points, from public facts only.

The greedy bot plays the action whose position scores best; the search bots use the same
score to judge a playout they stop early. The weights are a player's rules of thumb, set
by playing the bots against each other (``bench/bots.py``), not derived.
"""

from __future__ import annotations

import math
from typing import Final

from app.engine import WONDERS
from app.engine.scoring import score_sheet
from app.engine.state import GameState, Phase, PlayerState

WIN: Final = 1000.0
"""A won game's score: more than any position short of the end."""
_PAWN_STEP: Final = (0.0, 0.5, 1.0, 1.5, 2.5, 3.5, 5.0, 8.0, 12.0, 20.0)
"""Worth of the pawn's distance into the opponent's side (on top of military points):
rising fast towards the capital, where the game ends."""
_SCIENCE: Final = (0.0, 0.5, 1.0, 2.0, 4.0, 9.0, 20.0)
"""Worth of the number of different science symbols held (six win)."""
_SCALE: Final = 8.0
"""Points that make about three chances in four (the logistic of :func:`win_chance`)."""


def _city(state: GameState, player: PlayerState, seat: int) -> float:
    """What a city is worth beyond its points: its means for the ages still to play."""
    sheet = score_sheet(state, seat)
    later = 3 - state.age if state.phase != Phase.DRAFT else 3
    production = sum(player.production) + 1.5 * len(player.choice_sets) \
        + 0.7 * sum(player.trade_price_one)
    symbols = sum(1 for n in player.science if n)
    unbuilt = sum(WONDERS[w].effects.points + 2 for w in player.wonders
                  if w not in player.built_wonders)
    return (sheet.total + 0.6 * later * production + _SCIENCE[min(symbols, 6)]
            + 0.12 * player.coins + 0.3 * later * unbuilt / 3
            + 0.5 * bin(player.chains).count("1"))


def score(state: GameState, seat: int) -> float:
    """The position for ``seat``: positive when it looks better for it than for the other
    seat; :data:`WIN` (or minus it) once the game is won (or lost), 0 when shared."""
    if state.phase == Phase.OVER:
        if state.winner is None:
            return 0.0
        return WIN if state.winner == seat else -WIN
    me, them = state.players[seat], state.players[1 - seat]
    distance = state.pawn if seat == 0 else -state.pawn
    pawn = _PAWN_STEP[min(abs(distance), 9)]
    return (_city(state, me, seat) - _city(state, them, 1 - seat)
            + (pawn if distance > 0 else -pawn))


def win_chance(state: GameState, seat: int) -> float:
    """:func:`score` as a chance of winning, 0..1."""
    value = score(state, seat)
    if value >= WIN:
        return 1.0
    if value <= -WIN:
        return 0.0
    if state.phase == Phase.OVER:
        return 0.5
    return 1.0 / (1.0 + math.exp(-value / _SCALE))


