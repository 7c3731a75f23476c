"""What each audience may see: a seat (0..n-1) or a spectator (None).

Everyone sees the cities (structures built, coins, shields, tokens, stages built), how many
cards each seat holds and whether it has chosen. A seat also sees its hand, its own choice
before the reveal, the cards it tucked under its wonder or discarded, every hand it held
(:func:`knowledge`), and the discard pile while it decides Halikarnassos' build. Nobody sees
another seat's hand or choice, the cards removed at setup or the guilds not yet dealt.
"""

from __future__ import annotations

from typing import Any

from .actions import DISCARD_BUILD
from .cards import BOARDS, CARDS
from .game import Game


def knowledge(game: Game, seat: int) -> list[dict[str, Any]]:
    """Every hand ``seat`` held, by age and turn: what a person at that seat saw pass
    through its hands (with 3 players each hand comes back at turn 4)."""
    return [{"age": age, "turn": turn, "cards": [CARDS[c].id for c in hand]}
            for age, turn, hand in game.seen[seat]]


def _last(game: Game, seat: int, audience: int | None) -> dict[str, Any] | None:
    played = game.last_played[seat]
    if played is None:
        return None
    use, card = played
    out: dict[str, Any] = {"use": use}
    if use in ("build", "free") or audience == seat:
        out["card"] = CARDS[card].id
    return out


def _seat(game: Game, seat: int, audience: int | None) -> dict[str, Any]:
    city = game.cities[seat]
    return {
        "seat": seat, "board": BOARDS[city.board].id, "side": city.side,
        "coins": city.coins, "cards": [CARDS[c].id for c in city.cards],
        "stages_built": city.built, "stages": len(city.stages), "shields": city.shields,
        "tokens": list(city.tokens), "hand_count": len(game.hands[seat]),
        "chosen": seat in game.choices, "free_build_used": city.free_used,
        "last": _last(game, seat, audience),
        "left": game.left_of(seat), "right": game.right_of(seat),
    }


def view(game: Game, audience: int | None) -> dict[str, Any]:
    """The game as ``audience`` may see it (JSON-ready)."""
    out: dict[str, Any] = {
        "players": game.players, "age": game.age, "turn": game.turn, "step": game.step,
        "decision": game.phase, "to_act": list(game.to_act()),
        "pending": sorted(game.pending()), "discard_count": len(game.pile),
        "seats": [_seat(game, seat, audience) for seat in range(game.players)],
    }
    if audience is not None:
        city = game.cities[audience]
        choice = game.choices.get(audience)
        you: dict[str, Any] = {
            "seat": audience, "hand": [CARDS[c].id for c in game.hands[audience]],
            "choice": None if choice is None else str(choice.action),
            "tucked": [CARDS[c].id for c in city.tucked],
            "discarded": [CARDS[c].id for c in city.discarded],
            "seen": knowledge(game, audience),
        }
        if game.phase == DISCARD_BUILD and game.interrupt == audience:
            you["pile"] = sorted(CARDS[c].id for c in game.pile)
        out["you"] = you
    result = game.outcome()
    if result is not None:
        out["outcome"] = result.to_json()
    return out
