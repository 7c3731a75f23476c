"""Helpers for the classic engine's tests: close a step with chosen actions."""

from __future__ import annotations

from app.classic import Discard, Event, Game
from app.classic.cards import CARDS, RESOURCES
from app.classic.scenario import card_index
from app.classic.scoring import ScoreSheet, outcome


def close(game: Game, choices: dict[int, str] | None = None) -> list[Event]:
    """Every seat chooses (the seats ``choices`` leaves out discard their first card), in
    seat order; the events of the whole step."""
    choices = choices or {}
    events: list[Event] = []
    for seat in range(game.players):
        action = choices.get(seat) or str(Discard(CARDS[game.hands[seat][0]].id))
        events += game.apply(seat, action)
    return events


def pile(game: Game, *card_ids: str) -> None:
    """Put cards on the discard pile."""
    game.pile += [card_index(card_id) for card_id in card_ids]
    game.legal_cache.clear()


def produce(game: Game, seat: int, **units: int) -> None:
    """Give ``seat`` fixed production out of nowhere (a board's resource, say)."""
    for name, count in units.items():
        game.cities[seat].produce[RESOURCES.index(name)] += count
    game.cities[seat].touch()
    game.legal_cache.clear()


def total(game: Game, seat: int) -> int:
    return outcome(game.cities).sheets[seat].total


def sheet(game: Game, seat: int) -> ScoreSheet:
    return outcome(game.cities).sheets[seat]


def legal(game: Game, seat: int) -> list[str]:
    return [str(action) for action in game.legal_actions(seat)]
