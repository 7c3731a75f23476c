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
from app.engine.rng import Rng
from app.engine.state import GameState, Phase

_DRAFT_ROUND: Final = 4
"""Wonders offered in each round of the draft; the second round's are hidden before it."""
_AGE3_GUILDS: Final = 3
"""Guilds shuffled into the Age III deck (their backs tell them apart once laid out)."""
_REMOVED_PER_AGE: Final = 3


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
        plain, guilds = _POOLS[age]
        if age < laid_out:  # every card dealt was taken: the unseen ones are the removed
            removed.extend(card for card in plain if card not in seen)
            continue
        if age == laid_out:
            hidden_slots = [slot for slot, card in enumerate(state.structure)
                            if card >= 0 and not state.face_up[slot]]
            # A guild's back differs from Age III's: the seat sees which slots hold guilds.
            guild_slots = [slot for slot in hidden_slots if CARDS[state.structure[slot]].is_guild]
            plain_slots = [slot for slot in hidden_slots if slot not in guild_slots]
            hidden_guilds, spare_guilds = _draw(
                rng, [g for g in guilds if g not in seen], len(guild_slots))
            hidden_plain, spare_plain = _draw(
                rng, [c for c in plain if c not in seen], len(plain_slots))
            for slots, cards in ((plain_slots, hidden_plain), (guild_slots, hidden_guilds)):
                for slot, card in zip(slots, cards, strict=True):
                    state.structure[slot] = card
            state.decks[age] = list(state.structure)
            removed.extend(spare_plain)
            removed.extend(spare_guilds)
            continue
        # An age not laid out yet: a new deal, as Game.new deals it.
        deck, spare = _draw(rng, plain, len(plain) - _REMOVED_PER_AGE)
        removed.extend(spare)
        if guilds:
            in_play, out = _draw(rng, guilds, _AGE3_GUILDS)
            deck += in_play
            removed.extend(out)
            rng.shuffle(deck)
        state.decks[age] = deck
    state.removed_cards = removed
    state.reindex()
    return twin
