"""Victory points and the outcome of a game."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Final

from .cards import CARDS, TOKENS, WONDERS, Color
from .effects import most
from .state import GameState, Victory

MILITARY_POINTS: Final = ((6, 10), (3, 5), (1, 2))
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
    player = state.players[seat]
    by_color = [0] * len(Color)
    guilds = 0
    for index in player.cards:
        card = CARDS[index]
        by_color[card.color] += card.effects.points
        per_most = card.effects.points_per_most
        if per_most is not None:
            guilds += per_most.amount * most(state, per_most.kind)
    progress = 0
    for t in player.tokens:
        effects = TOKENS[t].effects
        progress += effects.points + effects.points_per_progress_token * len(player.tokens)
    return ScoreSheet(
        blue=by_color[Color.BLUE],
        green=by_color[Color.GREEN],
        yellow=by_color[Color.YELLOW],
        purple=by_color[Color.PURPLE] + guilds,
        wonders=sum(WONDERS[w].effects.points for w in player.built_wonders),
        progress=progress,
        coins=player.coins // 3,
        military=military_points(state, seat),
    )


def civilian_outcome(state: GameState) -> tuple[int | None, Victory]:
    """Most points wins; tied, most blue-card points; still tied, a shared victory."""
    a, b = score_sheet(state, 0), score_sheet(state, 1)
    key_a, key_b = (a.total, a.blue), (b.total, b.blue)
    if key_a == key_b:
        return None, Victory.CIVILIAN
    return (0 if key_a > key_b else 1), Victory.CIVILIAN
