"""Victory points and the outcome of a game."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Final

from .cards import CARDS, TOKENS, WONDERS, Color
from .effects import most
from .state import GameState, Victory

MILITARY_POINTS: Final[tuple[tuple[int, int], ...]] = ((6, 10), (3, 5), (1, 2))
"""(distance of the pawn into the opponent's side, points), largest first."""


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """Points by category, as on the score pad."""

    blue: int
    green: int
    yellow: int
    purple: int
    wonders: int
    progress: int
    coins: int
    military: int

    @property
    def total(self) -> int:
        return (self.blue + self.green + self.yellow + self.purple + self.wonders
                + self.progress + self.coins + self.military)

    def to_json(self) -> dict[str, int]:
        return {**asdict(self), "total": self.total}


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: int | None
    """The winning seat, or None for a shared victory."""
    victory: Victory
    """How the game was won."""
    scores: tuple[ScoreSheet, ScoreSheet]

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "victory": self.victory.value,
                "scores": [sheet.to_json() for sheet in self.scores]}


def score_table(outcome: Outcome) -> str:
    """The result and the score pad as text, for a terminal."""
    winner = "shared victory" if outcome.winner is None else f"seat {outcome.winner} wins"
    sheets = [sheet.to_json() for sheet in outcome.scores]
    rows = [f"{winner} ({outcome.victory.value})", f"{'':10}{'seat 0':>8}{'seat 1':>8}"]
    rows += [f"{name:10}{sheets[0][name]:>8}{sheets[1][name]:>8}" for name in sheets[0]]
    return "\n".join(rows)


def military_points(state: GameState, seat: int) -> int:
    distance = state.pawn if seat == 0 else -state.pawn
    for at_least, points in MILITARY_POINTS:
        if distance >= at_least:
            return points
    return 0


def score_sheet(state: GameState, seat: int) -> ScoreSheet:
    return ScoreSheet(*_tally(state, seat))


_COLOR_OF: Final = tuple(int(c.color) for c in CARDS)
_POINTS: Final = tuple(c.effects.points for c in CARDS)
_POINTS_PER_MOST: Final = tuple(c.effects.points_per_most for c in CARDS)
_BLUE: Final = int(Color.BLUE)
_GREEN: Final = int(Color.GREEN)
_YELLOW: Final = int(Color.YELLOW)
_PURPLE: Final = int(Color.PURPLE)
_COLOR_COUNT: Final = len(Color)


def _tally(state: GameState, seat: int) -> tuple[int, int, int, int, int, int, int, int]:
    """A city's points in the order of :class:`ScoreSheet`'s fields."""
    player = state.players[seat]
    by_color = [0] * _COLOR_COUNT
    guilds = 0
    for index in player.cards:
        by_color[_COLOR_OF[index]] += _POINTS[index]
        per_most = _POINTS_PER_MOST[index]
        if per_most is not None:
            guilds += per_most.amount * most(state, per_most.kind)
    progress = 0
    for t in player.tokens:
        effects = TOKENS[t].effects
        progress += effects.points + effects.points_per_progress_token * len(player.tokens)
    wonders = 0
    for w in player.built_wonders:
        wonders += WONDERS[w].effects.points
    return (by_color[_BLUE], by_color[_GREEN], by_color[_YELLOW], by_color[_PURPLE] + guilds,
            wonders, progress, player.coins // 3, military_points(state, seat))


def civilian_outcome(state: GameState) -> tuple[int | None, Victory]:
    """Most points wins; tied, most blue-card points; still tied, a shared victory."""
    a, b = _tally(state, 0), _tally(state, 1)
    total_a = a[0] + a[1] + a[2] + a[3] + a[4] + a[5] + a[6] + a[7]
    total_b = b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + b[7]
    if total_a == total_b and a[0] == b[0]:
        return None, Victory.CIVILIAN
    first = total_a > total_b or (total_a == total_b and a[0] > b[0])
    return (0 if first else 1), Victory.CIVILIAN
