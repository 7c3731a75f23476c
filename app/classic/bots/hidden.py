"""What a seat cannot see, drawn again: a game the seat could not tell from the real one.

Hidden from a seat in the classic game: the other hands, the cards tucked under other
wonders and discarded by other seats (so most of the discard pile), which guilds are in
play, and the decks of the ages to come. A seat knows more than its hand, though: every
hand it held (``knowledge``) and what each seat did each turn (:mod:`.history`). A hand it
passed on is the hand it saw, less its own pick, less the cards built from it since, less
one card for each tucked or discarded since; with 3 players every hand comes back.

:class:`Unseen` works this out once per decision; :meth:`Unseen.sample` then draws one
arrangement the seat cannot rule out, from sorted lists with the bot's generator:

- a hand the seat saw: its known cards, less a card drawn among them for each hidden pick;
- a hand it never saw: drawn from the age's cards it has no trace of (for Age III, the
  guilds in play drawn first among those it has not seen);
- the discard pile: the seat's own discards, and the rest drawn among the cards that may be
  there (every card of an earlier age not built nor its own, the cards the draw above left);
- the ages to come: dealt as the game's setup deals them.

Two games that look the same to the seat give the same draws, so the same decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.engine.rng import Rng

from ..actions import DISCARD_BUILD
from ..cards import CARDS, GUILDS, deck
from ..game import OVER, Game
from ..views import knowledge
from .history import History, card_index, read_history


def _remove(cards: list[int], card: int) -> None:
    if card in cards:
        cards.remove(card)


def _minus(pool: Sequence[int], taken: Sequence[int]) -> list[int]:
    """``pool`` less ``taken``, as multisets (each taken card removes one copy)."""
    left = list(pool)
    for card in taken:
        _remove(left, card)
    return left


@dataclass(slots=True)
class _Hand:
    seat: int
    known: list[int] | None
    """What the hand holds of the cards the seat saw in it (None: never seen)."""
    hidden_picks: int
    """Cards picked from it unseen since the seat last held it."""
    size: int


class Unseen:
    """What ``seat`` knows and does not know of ``game``, ready to draw arrangements."""

    def __init__(self, game: Game, seat: int) -> None:
        if game.phase == OVER:
            raise ValueError("the game is over")
        self.seat = seat
        self.players = count = game.players
        self.gone_known: list[int] = []
        """Cards of this age the seat knows were tucked or discarded by others."""
        self.age = age = game.age
        history = read_history(game, seat)
        self.hands, known = self._hands(game, seat, history)
        from_pile = [_any_index(card) for card in history.from_pile]
        for card in from_pile:  # built from the pile this age: accounted for, once
            if CARDS[card].age == age and card not in known:
                known.append(card)
        pool = _minus(deck(age, count), known)
        self.pool = sorted(pool)
        seen_guilds = [card for card in known if CARDS[card].guild]
        self.guilds_wanted = count + 2 - len(seen_guilds) if age == 3 else 0
        self.guild_pool = sorted(g for g in GUILDS if g not in seen_guilds) if age == 3 else []
        city = game.cities[seat]
        pile_view = game.phase == DISCARD_BUILD and game.interrupt == seat
        self.pile_known: list[int] | None = sorted(game.pile) if pile_view else None
        self.own_in_pile = _minus(city.discarded, from_pile)
        self.pile_size = len(game.pile)
        earlier: list[int] = []
        built = [card for other in game.cities for card in other.cards]
        for before in range(1, age):
            cards = deck(before, count)
            cards = _minus(cards, [c for c in built if CARDS[c].age == before and
                                   not CARDS[c].guild])
            cards = _minus(cards, [c for c in city.tucked + city.discarded
                                   if CARDS[c].age == before])
            earlier += cards
        self.earlier = sorted(earlier)

    def _hands(self, game: Game, seat: int, history: History) -> tuple[list[_Hand], list[int]]:
        """Each other seat's hand as far as the seat knows it, and every card of this age
        the seat has a trace of (each physical card once)."""
        count, age, turn = game.players, game.age, game.turn
        step = 1 if age != 2 else -1
        closed = {t.turn: t for t in history.turns if t.age == age}
        done = len(closed)
        sights = {(entry["age"], entry["turn"]): entry["cards"]
                  for entry in knowledge(game, seat)}
        known: list[int] = []
        hands: list[_Hand] = []
        for holder in range(count):
            origin = (holder - step * (turn - 1)) % count
            content: list[int] | None = None
            hidden = 0
            for t in range(1, done + 1):
                at = (origin + step * (t - 1)) % count
                play = closed[t].plays[at]
                if at == seat:
                    seen = [card_index(card, age) for card in sights[age, t]]
                    if content is None:
                        known += seen
                    else:  # back again (3 players): what went unseen is now known
                        self.gone_known += _minus(content, seen)
                    content, hidden = seen, 0
                    assert play.card is not None
                    _remove(content, card_index(play.card, age))
                elif play.card is not None:
                    card = card_index(play.card, age)
                    if content is None:
                        known.append(card)
                    else:
                        _remove(content, card)
                elif content is not None:
                    hidden += 1
            if holder == seat:
                if content is None:
                    known += game.hands[seat]
                elif done < turn:  # its hand now: what went unseen since is known
                    self.gone_known += _minus(content, game.hands[seat])
                continue
            hands.append(_Hand(holder, content, hidden, len(game.hands[holder])))
        return hands, known

    def sample(self, game: Game, rng: Rng) -> Game:
        """A copy of ``game`` with every card the seat cannot know drawn again with
        ``rng``. The copy's seed is 0, its generator new, its log empty, and the other
        seats' choices of an open step, tucked and discarded cards forgotten: it is for
        playing on, never for replaying."""
        world = game.clone()
        world.seed = 0
        world.rng = Rng(rng.next_u32() | rng.next_u32() << 32)
        world.log = []
        seat = self.seat
        world.choices = {}
        for other, city in enumerate(world.cities):
            if other != seat:
                city.tucked, city.discarded = [], []
                world.seen[other] = []
                played = world.last_played[other]
                if played is not None and played[0] in ("stage", "discard"):
                    world.last_played[other] = (played[0], -1)  # the card is hidden
        pool = list(self.pool)
        if self.guilds_wanted > 0:
            guilds = list(self.guild_pool)
            rng.shuffle(guilds)
            pool += guilds[:self.guilds_wanted]
            pool.sort()
        rng.shuffle(pool)
        gone: list[int] = []
        for hand in self.hands:
            if hand.known is None:
                cards, pool = pool[:hand.size], pool[hand.size:]
            else:
                cards = list(hand.known)
                for _ in range(hand.hidden_picks + max(0, len(cards) - hand.hidden_picks
                                                       - hand.size)):
                    if cards:
                        gone.append(cards.pop(rng.below(len(cards))))
                while len(cards) < hand.size and pool:  # only if the record was short
                    cards.append(pool.pop())
            world.hands[hand.seat] = sorted(cards)
        gone += pool
        if self.pile_known is not None:
            world.pile = list(self.pile_known)
        else:
            candidates = sorted(gone + self.gone_known + self.earlier)
            rng.shuffle(candidates)
            wanted = max(0, self.pile_size - len(self.own_in_pile))
            world.pile = self.own_in_pile + sorted(candidates[:wanted])
        decks: list[list[int]] = [[] for _ in range(3)]
        for later in range(self.age + 1, 4):
            cards = deck(later, self.players)
            if later == 3:
                guilds = list(GUILDS)
                rng.shuffle(guilds)
                cards += guilds[:self.players + 2]
            rng.shuffle(cards)
            decks[later - 1] = cards
        world.decks = decks
        return world


def _any_index(card_id: str) -> int:
    return next(card.index for card in CARDS if card.id == card_id)


def determinize(game: Game, seat: int, rng: Rng) -> Game:
    """One arrangement of what ``seat`` cannot see (see :class:`Unseen`), as a game to play
    on. To draw many, make one :class:`Unseen` and call its ``sample``."""
    return Unseen(game, seat).sample(game, rng)
