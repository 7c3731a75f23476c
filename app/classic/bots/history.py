"""What a seat may know of the game so far, read from the game's log: for every turn
closed, what each seat did, with the card only where the table saw it (a structure built)
or where it is the seat's own.

The log holds every seat's actions in full, hidden cards included; this module is the one
place bots read it, and it keeps only what a person at the seat saw: the use of a tucked
or discarded card, never the card (the events show the same, ``Hidden``). The steps are
told apart as the engine opens them: a pick step closes when the last seat without a choice
makes one (a seat may choose again before that), Babylon B's seventh card follows the sixth
turn once its stage is built, and Halikarnassos' builds are actions of their own type.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import Action, Build, BuildDiscarded, BuildFree, BuildStage
from ..cards import CARDS
from ..game import TURNS, Game

BUILD = "build"
STAGE = "stage"
DISCARD = "discard"


@dataclass(frozen=True, slots=True)
class Seen:
    """One seat's play as another seat saw it: its use (build, stage or discard) and its
    card, when the seat may know it (built, or its own), else None."""

    use: str
    card: str | None


@dataclass(frozen=True, slots=True)
class Turn:
    age: int
    turn: int
    plays: tuple[Seen, ...]
    """By seat."""


@dataclass(frozen=True, slots=True)
class History:
    """The turns closed, in order; Babylon's seventh cards (age, seat, play); the cards
    Halikarnassos built from the discard pile (public)."""

    turns: tuple[Turn, ...]
    sevenths: tuple[tuple[int, int, Seen], ...]
    from_pile: tuple[str, ...]


def _use(action: Action) -> str:
    if isinstance(action, BuildStage):
        return STAGE
    if isinstance(action, Build | BuildFree):
        return BUILD
    return DISCARD


def _as_seen(action: Action, own: bool) -> Seen:
    use = _use(action)
    return Seen(use, action.card if own or use == BUILD else None)


def _plays_seventh(game: Game, seat: int, stages: int) -> bool:
    stages_built = game.cities[seat].stages[:stages]
    return any("play_seventh_card" in stage.effects.flags for stage in stages_built)


def read_history(game: Game, seat: int) -> History:
    """The game so far as ``seat`` knows it (see the module's note)."""
    count = game.players
    age, turn = 1, 1
    choices: dict[int, Action] = {}
    stages = [0] * count
    turns: list[Turn] = []
    sevenths: list[tuple[int, int, Seen]] = []
    from_pile: list[str] = []
    seventh_seat = -1
    for who, action in game.log:
        if isinstance(action, BuildDiscarded):
            from_pile.append(action.card)
            continue
        if seventh_seat >= 0:
            sevenths.append((age, who, _as_seen(action, who == seat)))
            stages[who] += isinstance(action, BuildStage)
            seventh_seat = -1
            age, turn = age + 1, 1
            continue
        choices[who] = action
        if len(choices) < count:
            continue
        turns.append(Turn(age, turn, tuple(_as_seen(choices[s], s == seat)
                                           for s in range(count))))
        for s, chosen in choices.items():
            stages[s] += isinstance(chosen, BuildStage)
        choices = {}
        if turn < TURNS:
            turn += 1
            continue
        babylon = [s for s in range(count) if _plays_seventh(game, s, stages[s])]
        if babylon:
            seventh_seat = babylon[0]
        else:
            age, turn = age + 1, 1
    return History(tuple(turns), tuple(sevenths), tuple(from_pile))


def card_index(card_id: str, age: int) -> int:
    """The index of the card of that id in that age's deck (Loom, Glassworks and Press have
    a row in Age I and in Age II)."""
    return _INDEX[card_id, age]


_INDEX = {(card.id, card.age): card.index for card in CARDS}
