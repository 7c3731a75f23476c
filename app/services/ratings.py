"""Glicko-2 ratings, through the PyPI ``glicko2`` package (Glickman's algorithm; no
rating arithmetic of ours). Each rated game is a rating period of one game, as on most
game sites: the result moves both players at once, each from the other's rating before.

A rating grows less certain while its player does not play: before a game, its deviation
widens by one idle period (Glickman's step for a period without games) for each
:data:`IDLE_PERIOD` since the player's last rated game, up to a new player's.

A rating is provisional while its deviation is above :data:`PROVISIONAL_DEVIATION` (as on
lichess): it is shown with a "?".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

import glicko2

NEW_RATING: Final = 1500.0
NEW_DEVIATION: Final = 350.0
NEW_VOLATILITY: Final = 0.06
PROVISIONAL_DEVIATION: Final = 110.0
IDLE_PERIOD: Final = timedelta(days=7)


@dataclass(frozen=True)
class Rating:
    rating: float = NEW_RATING
    deviation: float = NEW_DEVIATION
    volatility: float = NEW_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION

    @property
    def stored(self) -> tuple[float, float, float]:
        return (self.rating, self.deviation, self.volatility)


def rated(player: Rating, opponent: Rating, score: float) -> Rating:
    """``player``'s rating after one game against ``opponent`` (both as they were before
    it): ``score`` 1 for a win, 0 for a loss, 0.5 for a shared victory."""
    if score not in (0.0, 0.5, 1.0):
        raise ValueError("a score is 0, 0.5 or 1")
    glicko = glicko2.Player(rating=player.rating, rd=player.deviation,
                            vol=player.volatility)
    glicko.update_player([opponent.rating], [opponent.deviation], [score])
    return Rating(float(glicko.rating), float(glicko.rd), float(glicko.vol))


def aged(player: Rating, idle: timedelta) -> Rating:
    """``player``'s rating after ``idle`` without a rated game: as certain as it was, less
    one idle period's worth for each :data:`IDLE_PERIOD` (never less than a new
    player's)."""
    periods = max(0, int(idle / IDLE_PERIOD))
    if periods == 0:
        return player
    glicko = glicko2.Player(rating=player.rating, rd=player.deviation, vol=player.volatility)
    for _ in range(periods):
        glicko.did_not_compete()
        if glicko.rd >= NEW_DEVIATION:
            break
    return Rating(player.rating, min(float(glicko.rd), NEW_DEVIATION), player.volatility)


def as_of(rating: float, deviation: float, volatility: float, rated_at: datetime | None,
          now: datetime) -> Rating:
    """A stored rating as it stands ``now``: :func:`aged` by the time since ``rated_at``
    (its last rated game; None: never rated)."""
    return aged(Rating(rating, deviation, volatility), now - (rated_at or now))


def both_rated(first: Rating, second: Rating, first_score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after a game between them (``first_score`` is the first's)."""
    return (rated(first, second, first_score), rated(second, first, 1.0 - first_score))
