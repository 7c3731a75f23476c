"""The classic game: setup, the step machine, and the rules of each choice.

A step waits for one or more seats. ``PICK`` waits for every seat at once: each seat's
choice is checked against the state when the step opened (nothing changes until it
closes), a seat may choose again until the last missing choice closes the step, and then
all choices are revealed and resolved together (RO L338-346, PT L235-240): cards leave the
hands, every payment is made, every card is placed, and only then are the coins of "when
built" effects counted (so Vineyard and Bazar see what neighbours built that turn, RO
L1030-1032, L1048-1049). One-seat steps of the same turn follow: Babylon B's seventh card
(``SEVENTH``, paid with the coins held when turn 6 began) and Halikarnassos' build from the
discard pile (``DISCARD_BUILD``), at the end of the turn; a neighbour's Vineyard or Bazar
of that turn counts what they add. Then hands pass, or the age ends with its conflicts.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any, Final, NamedTuple

from app.engine.rng import Rng

from . import effects, scoring
from .actions import (
    DISCARD_BUILD,
    PICK,
    SEVENTH,
    Action,
    Build,
    BuildDiscarded,
    BuildFree,
    BuildStage,
    Discard,
    _Purchase,
    read,
)
from .cards import BOARD_BY_ID, BOARDS, CARDS, COSTS, GUILDS, cost_index, deck
from .errors import IllegalActionError
from .events import (
    AgeStarted,
    BuiltDiscarded,
    Chosen,
    CoinsGained,
    ConflictsResolved,
    DiscardPileShown,
    Event,
    GameEnded,
    HandReceived,
    HandsPassed,
    Hidden,
    NothingToBuild,
    Played,
    StepOpened,
    Unplayed,
)
from .state import City, Options, buy_mask, sell_mask
from .trade import Market, Split, solve, splits

ENGINE_VERSION: Final = "classic-1"
HAND_SIZE: Final = 7
TURNS: Final = 6
DISCARD_COINS: Final = 3
VICTORY: Final = (1, 3, 5)
"""Conflict victory tokens of Ages I, II, III (RO L353-354)."""
OVER: Final = "over"


_ROWS: Final = [(card.id, frozenset(card.chain_from), card.coins, card.cost_index,
                  bool(card.coins or any(card.cost)), Discard(card.id)) for card in CARDS]
"""By card index, what listing its actions reads: id, chain sources, coins to the bank,
cost index, whether it costs anything, and its discard."""
_ACTIONS: dict[tuple[type[Action], str, int, int], Action] = {}


def _action(kind: type[Action], card: str, left: int = -1, right: int = -1) -> Action:
    """The action of ``kind`` on ``card`` (with the split, for a purchase), made once."""
    key = (kind, card, left, right)
    found = _ACTIONS.get(key)
    if found is None:
        made: Any = kind
        found = _ACTIONS[key] = made(card) if left < 0 else made(card, left, right)
    return found


def _illegal(code: str, message: str, **params: Any) -> IllegalActionError:
    return IllegalActionError(code, message, **params)


class Plan(NamedTuple):
    """A checked choice: the card (its index), what it is used for, the coins it costs."""

    card: int
    use: str
    """``build``, ``free``, ``stage`` or ``discard``."""
    bank: int
    left: int
    right: int
    action: Action
    """The action as logged (with the split the engine took when none was named)."""


class Game:
    """A game of 7 Wonders for 3 to 7 players. Mutable: :meth:`apply` advances it in place.

    The game is its seed, its options and its log of ``(seat, action)``:
    :meth:`replay` gives the same :meth:`state_hash`.
    """

    __slots__ = (
        "age",
        "choices",
        "cities",
        "counters",
        "decks",
        "discard_builds",
        "hands",
        "interrupt",
        "last_played",
        "legal_cache",
        "log",
        "options",
        "phase",
        "pile",
        "result",
        "rng",
        "seed",
        "seen",
        "seventh_coins",
        "seventh_pending",
        "step",
        "turn",
    )

    options: Options
    seed: int
    rng: Rng
    cities: list[City]
    age: int
    turn: int
    step: int
    phase: str
    """The open step's decision: pick, seventh, discard_build, or over."""
    interrupt: int
    """The seat a one-seat step waits for (-1 in a pick step)."""
    hands: list[list[int]]
    decks: list[list[int]]
    pile: list[int]
    choices: dict[int, Plan]
    seventh_pending: int
    seventh_coins: int
    """What Babylon B may spend on its seventh card, played in turn 6 (RO L701, PT L567):
    its coins at the start of the turn less what its sixth card cost (RO L257-259)."""
    counters: list[tuple[int, int]]
    """The cards built this turn that count their neighbours' cards for coins (Vineyard,
    Bazar), as (seat, card index): a neighbour's card added later in the same turn (the
    seventh card, Halikarnassos' build) counts too (RO L1030-1032, L1048-1049)."""
    discard_builds: list[int]
    seen: list[list[tuple[int, int, tuple[int, ...]]]]
    """For each seat, every hand it held: (age, turn, cards)."""
    log: list[tuple[int, Action]]
    result: scoring.Outcome | None
    last_played: list[tuple[str, int] | None]
    """What each seat did in the last step it played: (use, card index)."""
    legal_cache: dict[int, list[Action]]
    """The open step's legal actions by seat, once worked out (nothing changes them until
    the step closes)."""

    # ----------------------------------------------------------------- setup
    def __init__(self, seed: int, options: Options | None = None,
                 same_as: Game | None = None) -> None:
        """A game set up from ``seed`` (see :meth:`new`), or a copy of ``same_as``."""
        if same_as is not None:
            self._copy(same_as)
            return
        options = options or Options()
        self.options, self.seed = options, seed
        rng = self.rng = Rng(seed)
        count = options.players
        if options.boards is None:
            order = list(range(len(BOARDS)))
            rng.shuffle(order)
            boards = order[:count]
        else:
            boards = [BOARD_BY_ID[name].index for name in options.boards]
        sides = [options.sides if options.sides != "random" else "AB"[rng.below(2)]
                 for _ in range(count)]
        self.cities = [City(board, side) for board, side in zip(boards, sides, strict=True)]
        guilds = list(GUILDS)
        rng.shuffle(guilds)
        self.decks = []
        for age in (1, 2, 3):
            cards = deck(age, count) + (guilds[:count + 2] if age == 3 else [])
            rng.shuffle(cards)
            self.decks.append(cards)
        self.age, self.turn, self.step, self.phase = 0, 0, 0, PICK
        self.interrupt, self.seventh_pending, self.seventh_coins = -1, -1, -1
        self.counters = []
        self.hands = [[] for _ in range(count)]
        self.pile, self.choices, self.discard_builds = [], {}, []
        self.seen = [[] for _ in range(count)]
        self.log, self.result = [], None
        self.last_played = [None] * count
        self.legal_cache = {}
        self._start_age(1, [])

    @classmethod
    def new(cls, seed: int, options: Options | None = None) -> Game:
        """A game set up from ``seed``: boards and sides, the guilds drawn (players + 2,
        RO L127-146), the three decks for the player count, and Age I dealt."""
        return Game(seed, options)

    @classmethod
    def replay(cls, seed: int, options: Options | None,
               log: Iterable[tuple[int, Action | str | dict[str, Any]]]) -> Game:
        """The game after ``log``'s actions, each by its seat, applied in order."""
        game = cls.new(seed, options)
        for seat, action in log:
            game.apply(seat, action)
        return game

    def clone(self) -> Game:
        """An independent copy (no replay)."""
        return Game(self.seed, self.options, self)

    def _copy(self, source: Game) -> None:
        """Become an independent copy of ``source``."""
        self.options, self.seed, self.rng = source.options, source.seed, source.rng.clone()
        self.cities = [city.clone() for city in source.cities]
        self.age, self.turn, self.step, self.phase = source.age, source.turn, source.step, \
            source.phase
        self.interrupt, self.seventh_pending = source.interrupt, source.seventh_pending
        self.seventh_coins, self.counters = source.seventh_coins, source.counters[:]
        self.hands = [hand[:] for hand in source.hands]
        self.decks = source.decks  # never changed once dealt
        self.pile, self.choices = source.pile[:], dict(source.choices)
        self.discard_builds = source.discard_builds[:]
        self.seen = [seen[:] for seen in source.seen]
        self.log, self.result = source.log[:], source.result
        self.last_played = source.last_played[:]
        self.legal_cache = {}

    # ----------------------------------------------------------------- reading
    @property
    def players(self) -> int:
        return len(self.cities)

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def left_of(self, seat: int) -> int:
        """The left neighbour: the seat Ages I and III pass to (clockwise)."""
        return (seat + 1) % len(self.cities)

    def right_of(self, seat: int) -> int:
        return (seat - 1) % len(self.cities)

    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now: every seat in a pick step (those that chose may
        choose again), the one seat of an interrupt, none once the game is over."""
        if self.phase == PICK:
            return tuple(range(len(self.cities)))
        if self.phase == OVER:
            return ()
        return (self.interrupt,)

    def pending(self) -> dict[int, str]:
        """Who owes a decision, and which: seats that have not chosen yet."""
        return {seat: self.phase for seat in self.to_act() if seat not in self.choices}

    def has_chosen(self, seat: int) -> bool:
        return seat in self.choices

    def outcome(self) -> scoring.Outcome | None:
        return self.result

    def snapshot(self) -> dict[str, Any]:
        """Everything that defines the state, hidden parts included."""
        return {"engine": ENGINE_VERSION, "options": self.options.to_json(),
                "rng": list(self.rng.state), "age": self.age, "turn": self.turn,
                "step": self.step, "phase": self.phase, "interrupt": self.interrupt,
                "hands": self.hands, "decks": self.decks, "pile": self.pile,
                "choices": {str(seat): str(self.choices[seat].action)
                            for seat in sorted(self.choices)},
                "seventh": self.seventh_pending, "seventh_coins": self.seventh_coins,
                "counters": self.counters, "discard_builds": self.discard_builds,
                "seen": self.seen, "last_played": self.last_played,
                "cities": [city.snapshot() for city in self.cities]}

    def state_hash(self) -> str:
        """A digest of the whole state: equal on every machine for the same seed, options
        and choices, whatever order the seats submitted them in."""
        data = json.dumps(self.snapshot(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(data.encode()).hexdigest()

    # ----------------------------------------------------------------- prices
    def market(self, seat: int, cost: Sequence[int], alone: bool = False) -> Market:
        """What ``seat`` has and may buy for ``cost`` (its own fixed production deducted);
        with ``alone``, as if its neighbours sold nothing."""
        city = self.cities[seat]
        left = self.cities[self.left_of(seat)]
        right = self.cities[self.right_of(seat)]
        need = tuple(max(0, c - p) for c, p in zip(cost, city.produce, strict=True))
        if alone:
            return Market(need, (*city.either, *city.choice), _NOTHING, (), _NOTHING, (),
                          (2, 2, 2, 2))
        return Market(need, (*city.either, *city.choice), tuple(left.produce),
                      tuple(left.either), tuple(right.produce), tuple(right.either),
                      (city.prices[0], city.prices[1], city.prices[2], city.prices[3]))

    def purchase_splits(self, seat: int, cost: tuple[int, ...]) -> tuple[Split, ...]:
        """Every non-dominated (left, right) payment that covers ``cost`` for ``seat``,
        affordable or not, the cheapest first; () when its neighbours cannot supply what it
        lacks."""
        return self._splits(seat, cost_index(cost))

    def _splits(self, seat: int, index: int) -> tuple[Split, ...]:
        """:meth:`purchase_splits` of the cost ``COSTS[index]``, memoised on small
        integers: the city's buy key masked to the resources of the cost, and the
        neighbours' sell keys masked to the resources it lacks, so that equal situations
        share an answer across seats and games. A city that covers the cost alone is
        answered from its own key, whatever its neighbours hold."""
        while len(_COST_MASKS) <= index:
            support = 0
            for resource, units in enumerate(COSTS[len(_COST_MASKS)]):
                if units:
                    support |= 1 << resource
            small = max(COSTS[len(_COST_MASKS)]) <= 2
            _COST_MASKS.append((buy_mask(support), sell_mask(support), small))
        buy, _, small = _COST_MASKS[index]
        cities = self.cities
        count = len(cities)
        city = cities[seat]
        own = ((city.buy_key_small if small else city.buy_key) & buy) << 8 | index
        sell = _NEEDS.get(own)
        if sell is None:
            # What the city lacks after its fixed production: only the neighbours' units of
            # those resources matter; -1 when it covers the cost alone.
            cost = COSTS[index]
            if not any(cost) or splits(self.market(seat, cost, alone=True)) == _FREE:
                sell = -1
            else:
                sell = sell_mask(sum(1 << r for r in range(7) if cost[r] > city.produce[r]))
            _NEEDS[own] = sell
        if sell < 0:
            return _FREE
        if small:  # no resource needed twice: 2 units of it are as good as more
            left = cities[(seat + 1) % count].sell_key_small & sell
            right = cities[(seat - 1) % count].sell_key_small & sell
        else:
            left = cities[(seat + 1) % count].sell_key & sell
            right = cities[(seat - 1) % count].sell_key & sell
        key = (own, left, right)
        found = _PRICES.get(key)
        if found is None:
            # Cheapest first; equally cheap: less to the left first.
            found = tuple(sorted(solve(COSTS[index], cities[seat], cities[(seat + 1) % count],
                                       cities[(seat - 1) % count]),
                                 key=lambda s: (s[0] + s[1], s[0])))
            if len(_PRICES) >= _PRICES_LIMIT:
                _PRICES.clear()
                _NEEDS.clear()
            _PRICES[key] = found
        return found

    def chain_free(self, seat: int, card: int) -> bool:
        """Whether ``seat`` built in an earlier age a card that makes ``card`` free (RO
        L288-302, PT L211-221)."""
        return not self.cities[seat].chainable.isdisjoint(CARDS[card].chain_from)

    def spendable(self, seat: int) -> int:
        """The coins ``seat`` may spend in the open step: those it held when the turn
        began (RO L257-259, PT L194-195); for Babylon B's seventh card, played in turn 6,
        less what its sixth card cost."""
        if self.phase == SEVENTH:
            return self.seventh_coins
        return self.cities[seat].coins

    # ----------------------------------------------------------------- legal actions
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, each purchase with every non-dominated
        affordable split (the cheapest first)."""
        if seat not in self.to_act():
            return []
        if self.phase == DISCARD_BUILD:
            names = self.cities[seat].names
            ids = sorted({CARDS[c].id for c in self.pile if CARDS[c].id not in names})
            return [BuildDiscarded(card_id) for card_id in ids]
        cached = self.legal_cache.get(seat)
        if cached is not None:
            return cached[:]
        city = self.cities[seat]
        coins = self.spendable(seat)
        names, chainable = city.names, city.chainable
        free = city.free_build and not city.free_used
        splits_of = self._splits
        out: list[Action] = []
        done: set[str] = set()
        stage_splits = [s for s in splits_of(seat, city.stages[city.built].cost_index)
                        if s[0] + s[1] <= coins] if city.built < len(city.stages) else []
        for card_index in self.hands[seat]:
            card_id, chains, bank, cost_index, costly, discard = _ROWS[card_index]
            if card_id in done:
                continue
            done.add(card_id)
            # Actions are immutable values: each is made once in the process.
            if card_id not in names:
                if not chainable.isdisjoint(chains):
                    out.append(_action(Build, card_id, 0, 0))
                else:
                    room = coins - bank
                    for left, right in splits_of(seat, cost_index):
                        if left + right <= room:
                            out.append(_action(Build, card_id, left, right))
                    if free and costly:
                        out.append(_action(BuildFree, card_id))
            for left, right in stage_splits:
                out.append(_action(BuildStage, card_id, left, right))
            out.append(discard)
        self.legal_cache[seat] = out
        return out[:]

    def _affordable(self, seat: int, index: int, bank: int) -> list[Split]:
        room = self.spendable(seat) - bank
        return [s for s in self._splits(seat, index) if s[0] + s[1] <= room]

    # ----------------------------------------------------------------- checking
    def check(self, seat: int, action: object) -> Plan:
        """The plan ``action`` makes for ``seat``, or :class:`IllegalActionError`."""
        if self.phase == OVER:
            raise _illegal("game_over", "the game is over")
        if type(seat) is not int or not 0 <= seat < len(self.cities):
            raise _illegal("no_such_seat", f"there is no seat {seat!r}", seat=seat)
        checked = read(action)
        if seat not in self.to_act():
            raise _illegal("not_your_turn", f"seat {seat} has nothing to decide now",
                           seat=seat, to_act=list(self.to_act()))
        if self.phase not in checked.ANSWERS:
            raise _illegal("wrong_decision", f"{checked.TYPE} does not answer {self.phase}",
                           action=checked.TYPE, decision=self.phase)
        city = self.cities[seat]
        if isinstance(checked, BuildDiscarded):
            index = next((c for c in self.pile if CARDS[c].id == checked.card), -1)
            if index < 0:
                raise _illegal("not_in_discard", f"no {checked.card} in the discard pile",
                               card=checked.card)
            if checked.card in city.names:
                raise _illegal("already_built", f"the city has a {checked.card} already",
                               card=checked.card)
            return Plan(index, "free", 0, 0, 0, checked)
        index = next((c for c in self.hands[seat] if CARDS[c].id == checked.card), -1)
        if index < 0:
            raise _illegal("not_in_hand", f"no {checked.card} in the hand", card=checked.card)
        card = CARDS[index]
        if isinstance(checked, Discard):
            return Plan(index, "discard", 0, 0, 0, checked)
        if isinstance(checked, BuildFree):
            if not city.free_build or city.free_used:
                raise _illegal("no_free_build", "no free build left this age")
            if card.id in city.names:
                raise _illegal("already_built", f"the city has a {card.id} already",
                               card=card.id)
            if self.chain_free(seat, index) or not (card.coins or any(card.cost)):
                raise _illegal("needless_free_build", f"{card.id} costs nothing already",
                               card=card.id)
            return Plan(index, "free", 0, 0, 0, checked)
        assert isinstance(checked, _Purchase)
        if isinstance(checked, Build):
            if card.id in city.names:
                raise _illegal("already_built", f"the city has a {card.id} already",
                               card=card.id)
            if self.chain_free(seat, index):
                return self._split(seat, checked, ((0, 0),), bank=0, use="build",
                                   index=index)
            offered = self._splits(seat, card.cost_index)
            if not offered:
                raise _illegal("cannot_produce", f"{card.id} needs what no neighbour sells",
                               card=card.id)
            return self._split(seat, checked, offered, bank=card.coins, use="build", index=index)
        if city.built >= len(city.stages):
            raise _illegal("wonder_complete", "every stage of the wonder is built")
        offered = self._splits(seat, city.stages[city.built].cost_index)
        if not offered:
            raise _illegal("cannot_produce", "the stage needs what no neighbour sells",
                           stage=city.built + 1)
        return self._split(seat, checked, offered, bank=0, use="stage", index=index)

    def _split(self, seat: int, action: _Purchase, offered: tuple[Split, ...], *, bank: int,
               use: str, index: int) -> Plan:
        coins = self.spendable(seat)
        if action.left is None or action.right is None:
            if action.left is not None or action.right is not None:
                raise _illegal("wrong_split", "name the coins to both neighbours, or neither",
                               left=action.left, right=action.right,
                               offered=[list(s) for s in offered])
            left, right = offered[0]  # the cheapest
        else:
            left, right = action.left, action.right
            if (left, right) not in offered:
                raise _illegal("wrong_split",
                               f"paying {left} left and {right} right is not a way to buy it",
                               left=left, right=right, offered=[list(s) for s in offered])
        price = bank + left + right
        if price > coins:
            raise _illegal("cannot_afford", f"it costs {price} coins; the seat may spend {coins}",
                           price=price, coins=coins)
        logged = action if action.left is not None else action.with_split(left, right)
        return Plan(index, use, bank, left, right, logged)

    def is_legal(self, seat: int, action: object) -> bool:
        try:
            self.check(seat, action)
        except IllegalActionError:
            return False
        return True

    # ----------------------------------------------------------------- applying
    def apply(self, seat: int, action: object, step: int | None = None) -> list[Event]:
        """``seat`` makes ``action`` (an Action, its notation or its JSON form); returns the
        events. Refused with :class:`IllegalActionError` (or a malformed action with
        :class:`MalformedActionError`), the game unchanged. ``step``, when given, must be
        the open step's number (a choice sent for a step that closed is ``stale_step``)."""
        if step is not None and step != self.step and self.phase != OVER:
            raise _illegal("stale_step", f"step {step} is closed; step {self.step} is open",
                           step=step, current=self.step)
        plan = self.check(seat, action)
        self.log.append((seat, plan.action))
        events: list[Event] = []
        if self.phase == PICK:
            self.choices[seat] = plan
            events.append(Chosen(seat=seat, step=self.step, action=str(plan.action)))
            if len(self.choices) == len(self.cities):
                self._resolve_pick(events)
        elif self.phase == SEVENTH:
            self._resolve_seventh(seat, plan, events)
        else:
            self._resolve_discard_build(seat, plan, events)
        return events

    def play(self, seat: int, action: Action) -> None:
        """The trusted fast path for search: ``action`` must be one of
        ``legal_actions(seat)`` as listed there (its split named). Nothing is checked and no
        events are returned; the state is the one :meth:`apply` reaches."""
        self.log.append((seat, action))
        if self.phase == PICK:
            self.choices[seat] = self._trusted(seat, action)
            if len(self.choices) == len(self.cities):
                self._resolve_pick(None)
        elif self.phase == SEVENTH:
            self._resolve_seventh(seat, self._trusted(seat, action), None)
        else:
            self._resolve_discard_build(seat, self._trusted(seat, action), None)

    def _trusted(self, seat: int, action: Action) -> Plan:
        card_id = action.card
        if isinstance(action, BuildDiscarded):
            index = next(c for c in self.pile if CARDS[c].id == card_id)
            return Plan(index, "free", 0, 0, 0, action)
        index = next(c for c in self.hands[seat] if CARDS[c].id == card_id)
        if isinstance(action, Discard):
            return Plan(index, "discard", 0, 0, 0, action)
        if isinstance(action, BuildFree):
            return Plan(index, "free", 0, 0, 0, action)
        assert isinstance(action, _Purchase) and action.left is not None \
            and action.right is not None
        if isinstance(action, BuildStage):
            return Plan(index, "stage", 0, action.left, action.right, action)
        bank = 0 if self.chain_free(seat, index) else CARDS[index].coins
        return Plan(index, "build", bank, action.left, action.right, action)

    # ----------------------------------------------------------------- resolution
    def _resolve_pick(self, events: list[Event] | None) -> None:
        plans = [self.choices[seat] for seat in range(len(self.cities))]
        self.choices = {}
        for seat, plan in enumerate(plans):
            self.hands[seat].remove(plan.card)
        held = [city.coins for city in self.cities] if self.turn == TURNS else []
        self._pay(plans, events)
        for seat, plan in enumerate(plans):
            self._place(seat, plan)
        if self.turn == TURNS:
            for seat, hand in enumerate(self.hands):
                if hand and self.cities[seat].seventh:  # Babylon B (RO L695-704)
                    # Played in turn 6 too (RO L701): only the coins held when it began.
                    plan = plans[seat]
                    self.seventh_pending = seat
                    self.seventh_coins = held[seat] - plan.bank - plan.left - plan.right
                    continue
                for card in hand:  # no coins for it (RO L326-327, PT L309)
                    self.pile.append(card)
                    self.cities[seat].discarded.append(card)
                    if events is not None:
                        events.append(Unplayed(seat=seat, card=CARDS[card].id))
                hand.clear()
        for seat, plan in enumerate(plans):
            self._when_built(seat, plan, events)
        self._next(events)

    def _resolve_seventh(self, seat: int, plan: Plan, events: list[Event] | None) -> None:
        self.hands[seat].remove(plan.card)
        self.seventh_pending, self.seventh_coins = -1, -1
        self._pay([plan if s == seat else None for s in range(len(self.cities))], events)
        watched = self._watching(seat)
        self._place(seat, plan)
        self._count_late(watched, events)
        self._when_built(seat, plan, events)
        self._next(events)

    def _resolve_discard_build(self, seat: int, plan: Plan, events: list[Event] | None) -> None:
        self.pile.remove(plan.card)
        watched = self._watching(seat)
        self._place(seat, plan)
        if events is not None:
            events.append(BuiltDiscarded(seat=seat, card=CARDS[plan.card].id))
        self._count_late(watched, events)
        self._when_built(seat, plan, events)
        self._next(events)

    def _watching(self, seat: int) -> list[tuple[int, int, int]]:
        """The Vineyards and Bazars ``seat``'s neighbours built this turn, as (owner, card,
        what they count now), before ``seat`` adds a card after the reveal."""
        if not self.counters:
            return []
        near = (self.left_of(seat), self.right_of(seat))
        return [(owner, card, self._counted(owner, card)) for owner, card in self.counters
                if owner != seat and owner in near]

    def _count_late(self, watched: list[tuple[int, int, int]],
                    events: list[Event] | None) -> None:
        """A neighbour's card added later in the same turn counts for the Vineyards and
        Bazars built that turn (RO L1030-1032, L1048-1049, PT L757-761)."""
        for owner, card, was in watched:
            gained = self._counted(owner, card) - was
            if gained:
                self.cities[owner].coins += gained
                if events is not None:
                    events.append(CoinsGained(seat=owner, coins=gained, source=CARDS[card].id))

    def _counted(self, owner: int, card: int) -> int:
        city = self.cities[owner]
        neighbours = (self.cities[self.left_of(owner)], self.cities[self.right_of(owner)])
        return effects.coins_when_built(CARDS[card].effects, city, neighbours)

    def _pay(self, plans: Sequence[Plan | None], events: list[Event] | None) -> None:
        """Every payment at once: coins received now are spent from the next step on."""
        delta = [0] * len(self.cities)
        for seat, plan in enumerate(plans):
            if plan is None:
                continue
            delta[seat] -= plan.bank + plan.left + plan.right
            delta[self.left_of(seat)] += plan.left
            delta[self.right_of(seat)] += plan.right
            if events is None:
                continue
            card = CARDS[plan.card].id
            if plan.use in ("build", "free"):
                events.append(Played(seat=seat, use=plan.use, bank=plan.bank, left=plan.left,
                                     right=plan.right, card=card))
            else:
                events.append(Hidden(seat=seat, use=plan.use, bank=plan.bank, left=plan.left,
                                     right=plan.right, card=card))
        for seat, change in enumerate(delta):
            self.cities[seat].coins += change

    def _place(self, seat: int, plan: Plan) -> None:
        city = self.cities[seat]
        self.last_played[seat] = (plan.use, plan.card)
        if plan.use in ("build", "free"):
            card = CARDS[plan.card]
            city.cards.append(plan.card)
            city.names.add(card.id)
            city.colors[_COLOR[card.color]] += 1
            effects.add(city, card.effects)
            if card.effects.coins_per is not None and card.effects.coins_per.neighbours:
                self.counters.append((seat, plan.card))
            if isinstance(plan.action, BuildFree):
                city.free_used = True
        elif plan.use == "stage":
            stage = city.stages[city.built]
            city.built += 1
            city.tucked.append(plan.card)
            effects.add(city, stage.effects)
        else:
            self.pile.append(plan.card)
            city.discarded.append(plan.card)

    def _when_built(self, seat: int, plan: Plan, events: list[Event] | None) -> None:
        city = self.cities[seat]
        neighbours = (self.cities[self.left_of(seat)], self.cities[self.right_of(seat)])
        if plan.use == "discard":
            coins, source = DISCARD_COINS, "discard"
        elif plan.use == "stage":
            stage = city.stages[city.built - 1]
            coins = effects.coins_when_built(stage.effects, city, neighbours)
            source = f"stage:{city.built}"
            if "build_from_discard" in stage.effects.flags:
                self.discard_builds.append(seat)
        else:
            card = CARDS[plan.card]
            coins, source = effects.coins_when_built(card.effects, city, neighbours), card.id
        if coins:
            city.coins += coins
            if events is not None:
                events.append(CoinsGained(seat=seat, coins=coins, source=source))

    def _next(self, events: list[Event] | None) -> None:
        """Open the next step: an interrupt of this turn, the next turn, the next age."""
        if self.seventh_pending >= 0:
            self._open(SEVENTH, self.seventh_pending, events)
            return
        while self.discard_builds:
            seat = self.discard_builds.pop(0)
            names = self.cities[seat].names
            if any(CARDS[c].id not in names for c in self.pile):
                self._open(DISCARD_BUILD, seat, events)
                if events is not None:
                    events.append(DiscardPileShown(
                        seat=seat, count=len(self.pile),
                        cards=sorted(CARDS[c].id for c in self.pile)))
                return
            if events is not None:
                events.append(NothingToBuild(seat=seat))
        if self.turn < TURNS:
            self._pass_hands(events)
            self.turn += 1
            self._open(PICK, -1, events)
            return
        self._conflicts(events)
        if self.age < 3:
            self._start_age(self.age + 1, events)
            return
        self.phase, self.interrupt = OVER, -1
        self.result = scoring.outcome(self.cities)
        if events is not None:
            events.append(GameEnded(outcome=self.result.to_json()))

    def _open(self, phase: str, seat: int, events: list[Event] | None) -> None:
        self.phase, self.interrupt = phase, seat
        self.legal_cache = {}
        self.step += 1
        if phase == PICK:
            self.counters = []
            for owner, hand in enumerate(self.hands):
                self.seen[owner].append((self.age, self.turn, tuple(hand)))
        if events is not None:
            seats = list(range(len(self.cities))) if phase == PICK else [seat]
            events.append(StepOpened(step=self.step, decision=phase, age=self.age,
                                     turn=self.turn, seats=seats))

    def _pass_hands(self, events: list[Event] | None) -> None:
        count = len(self.cities)
        passed: list[list[int]] = [[] for _ in range(count)]
        to_left = self.age != 2  # Age II passes right (RO L307-311, PT L300-303)
        for seat, hand in enumerate(self.hands):
            passed[self.left_of(seat) if to_left else self.right_of(seat)] = hand
        self.hands = passed
        if events is None:
            return
        events.append(HandsPassed(direction="left" if to_left else "right"))
        for seat, hand in enumerate(passed):
            events.append(HandReceived(seat=seat, count=len(hand),
                                       cards=[CARDS[c].id for c in hand]))

    def _start_age(self, age: int, events: list[Event] | None) -> None:
        self.age, self.turn = age, 1
        cards = self.decks[age - 1]
        if events is not None:
            events.append(AgeStarted(age=age))
        for seat, city in enumerate(self.cities):
            self.hands[seat] = sorted(cards[seat * HAND_SIZE:(seat + 1) * HAND_SIZE])
            city.free_used = False  # Olympia A: once an age, an unused one is lost
            city.chainable = set(city.names)  # chains rest on earlier ages (RO L292)
            if events is not None:
                events.append(HandReceived(seat=seat, count=HAND_SIZE,
                                           cards=[CARDS[c].id for c in self.hands[seat]]))
        self._open(PICK, -1, events)

    def _conflicts(self, events: list[Event] | None) -> None:
        """Each seat against each neighbour: more shields, the age's victory token; fewer,
        a defeat token (-1); equal, nothing (RO L347-357, PT L317-327)."""
        won = VICTORY[self.age - 1]
        shields = [city.shields for city in self.cities]
        tokens: list[list[int]] = []
        for seat, city in enumerate(self.cities):
            mine: list[int] = []
            for other in (self.left_of(seat), self.right_of(seat)):
                if shields[seat] > shields[other]:
                    mine.append(won)
                elif shields[seat] < shields[other]:
                    mine.append(-1)
            city.tokens += mine
            tokens.append(mine)
        if events is not None:
            events.append(ConflictsResolved(age=self.age, shields=shields, tokens=tokens))


_PRICES: dict[tuple[int, int, int], tuple[Split, ...]] = {}
_PRICES_LIMIT: Final = 200_000
_NEEDS: dict[int, int] = {}
"""By a city's buy key masked to a cost (and the cost): the mask of the neighbours' sell
keys that matters (the resources it lacks), or -1 when it covers the cost alone."""
_COST_MASKS: list[tuple[int, int, bool]] = []
"""By cost index: the masks of a buy key and of a sell key that matter to that cost, and
whether it needs at most 2 of each resource (then the small keys serve)."""
_FREE: Final = ((0, 0),)
_NOTHING: Final = (0, 0, 0, 0, 0, 0, 0)
_COLOR: Final = {"brown": 0, "grey": 1, "blue": 2, "green": 3, "yellow": 4, "red": 5,
                 "purple": 6}
