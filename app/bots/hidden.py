"""What a seat cannot see, drawn again: a game the seat could not tell from the real one.

A search bot plays out many such games (determinisations) instead of the real one, so its
decision depends on what its seat may see and nothing else. Hidden in a game of Duel:

- the face-down cards of the structure laid out now (but for which of Age III's are
  guilds: their backs say so);
- the decks of the ages not laid out yet, and the cards returned to the box at setup
  (three per age, and the four guilds not in play);
- the second draft round, while the first is being drafted (and so the wonders left out);
- the generator's state: which tokens the Great Library will draw.

Everything else is public or follows from what is public: the progress tokens in the box,
for instance, are the ten less those on the board and in the cities.

Every choice below is made from sorted, public lists with the caller's generator, never
from the real arrangement: two games that look the same to the seat give the same draws.
"""

from __future__ import annotations

from typing import Final

from app.engine import CARDS, WONDERS, Game
from app.engine.game import deal_age
from app.engine.rng import Rng
from app.engine.state import GameState, Phase

_DRAFT_ROUND: Final = 4
"""Wonders offered in each round of the draft; the second round's are hidden before it."""

_POOLS: Final = {age: ([c.index for c in CARDS if c.age == age and not c.is_guild],
                       [c.index for c in CARDS if c.is_guild] if age == 3 else [])
                 for age in (1, 2, 3)}
"""The cards that may be dealt in each age: (not guilds, guilds), by index."""


def _seen_cards(state: GameState) -> set[int]:
    """Every card the seat has seen: in a city (built, or tucked under a wonder), in the
    discard pile, or face up in the structure."""
    seen = set(state.discard)
    for player in state.players:
        seen.update(player.cards)
        seen.update(player.built_wonders.values())
    seen.update(card for slot, card in enumerate(state.structure)
                if card >= 0 and state.face_up[slot])
    return seen


def _draw(rng: Rng, pool: list[int], count: int) -> tuple[list[int], list[int]]:
    """``count`` items drawn from ``pool`` (sorted first), and the rest."""
    items = sorted(pool)
    rng.shuffle(items)
    return items[:count], items[count:]


def _redeal_face_down(state: GameState, seen: set[int], rng: Rng) -> list[int]:
    """Deal the face-down cards of the structure laid out again from the age's unseen
    cards; the cards left over (returned to the box)."""
    plain, guilds = _POOLS[state.age]
    hidden = [slot for slot, card in enumerate(state.structure)
              if card >= 0 and not state.face_up[slot]]
    # A guild's back differs from Age III's: the seat sees which slots hold guilds.
    guild_slots = [slot for slot in hidden if CARDS[state.structure[slot]].is_guild]
    plain_slots = [slot for slot in hidden if slot not in guild_slots]
    left: list[int] = []
    for slots, pool in ((guild_slots, guilds), (plain_slots, plain)):
        dealt, spare = _draw(rng, [card for card in pool if card not in seen], len(slots))
        for slot, card in zip(slots, dealt, strict=True):
            state.structure[slot] = card
        left += spare
    state.decks[state.age] = list(state.structure)
    return left


def determinize(game: Game, seat: int | None, rng: Rng) -> Game:
    """A copy of ``game`` whose hidden parts are drawn again with ``rng``, as ``seat`` (or a
    spectator, None) would draw them: what the seat sees is the same, the rest is one
    arrangement among those it cannot rule out, each as likely as the deal makes it.

    The copy's seed is 0 and its generator is new: it must never be replayed."""
    twin = game.clone()
    state = twin.state
    state.seed = 0
    state.rng = Rng(rng.next_u32() | rng.next_u32() << 32)
    seen = _seen_cards(state)
    removed: list[int] = []

    if state.phase == Phase.DRAFT and state.draft_rounds and state.draft_step < _DRAFT_ROUND:
        # The second round is unseen: any four of the wonders not offered in the first.
        unseen = [w.index for w in WONDERS if w.index not in state.draft_rounds[0]]
        offered, left_out = _draw(rng, unseen, _DRAFT_ROUND)
        state.draft_rounds[1] = offered
        state.unused_wonders = sorted(left_out)

    laid_out = state.age if state.phase != Phase.DRAFT else 0
    for age in (1, 2, 3):
        if age < laid_out:  # every card dealt was taken: the unseen ones are the removed
            removed.extend(card for card in _POOLS[age][0] if card not in seen)
        elif age == laid_out:
            removed.extend(_redeal_face_down(state, seen, rng))
        else:  # not laid out yet: a new deal, as the game's setup deals it
            state.decks[age], spare = deal_age(rng, age)
            removed.extend(spare)
    state.removed_cards = removed
    state.reindex()
    return twin
