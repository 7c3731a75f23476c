"""How much an action looks worth to a seat, in rough victory points, from public facts and
the seat's own cards only: the one-ply judgement of the ``greedy`` level and the policy the
searches play their rollouts with.

An action is worth what it brings now and what it is likely to bring later:

- points now (blue cards, a stage's points, yellow and purple cards counted on the cities
  as they stand);
- production and trade discounts, weighted by the ages left to use them (a resource the
  city lacks is worth more than another unit of one it has);
- science: the points a symbol adds to the seat's sets, plus its promise while ages remain;
- military: the conflict tokens the shields change against each neighbour this age, and
  a little for the ages after;
- coins: a third of a point each, a little more while there is time to spend them; coins
  paid to a neighbour help a rival;
- chains a card opens, the boards' powers a stage brings;
- (``greedy`` only) what the pick takes from the neighbour the hand goes to next.

The weights are a player's rules of thumb, checked by ``bench/classic_bots.py``, not derived.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .. import effects
from ..actions import Action, Build, BuildDiscarded, BuildFree, BuildStage, Discard
from ..cards import CARDS, RAW, Card, Effects
from ..game import TURNS, VICTORY, Game
from ..scoring import science_points
from ..state import City

_OPENS: Final = {card.id: sum(1 for other in CARDS if card.id in other.chain_from)
                 for card in CARDS}
"""How many cards each card makes free to build later (chains)."""
_FLAG_WORTH: Final = {"free_build_once_per_age": 2.5, "build_from_discard": 4.0,
                      "play_seventh_card": 1.5, "copy_neighbour_guild": 5.0}
DENIAL: Final = 0.25
"""The share of a card's worth to the next holder of the hand that taking it is worth."""


class Judge:
    """One seat's judgement of its actions in one position (built once per decision)."""

    __slots__ = ("age", "city", "coin", "game", "later", "neighbours", "seat", "threat")

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat
        self.city = game.cities[seat]
        self.neighbours = (game.cities[game.left_of(seat)], game.cities[game.right_of(seat)])
        self.age = game.age
        turns_left = (3 - game.age) * TURNS + (TURNS - game.turn)
        self.later = turns_left / TURNS
        """Ages left after this turn (0 on the last turn of Age III)."""
        self.coin = 1 / 3 + 0.05 * min(self.later, 2.0)
        self.threat = (_standing(self.neighbours[0]), _standing(self.neighbours[1]))

    # ------------------------------------------------------------- parts
    def production(self, effect: Effects) -> float:
        if self.later <= 0:
            return 0.0
        city = self.city
        worth = 0.0
        for resource, units in enumerate(effect.produce):
            for unit in range(units):
                worth += _unit_worth(city, resource, unit)
        if effect.either:
            worth += 0.2 + 0.8 * max(_unit_worth(city, r, 0) for r in _bits(effect.either))
        if effect.choice:
            worth += 0.5 * sum(_unit_worth(city, r, 0) for r in _bits(effect.choice))
        worth += 0.5 * len(effect.discounts) * (2 if effect.discounts
                                                 and effect.discounts[0][1] == "both" else 1)
        return worth * 0.8 * min(self.later, 2.0)

    def military(self, shields: int) -> float:
        if not shields:
            return 0.0
        mine = self.city.shields
        won = VICTORY[self.age - 1]
        worth = 0.0
        for neighbour in self.neighbours:
            theirs = neighbour.shields
            before = won if mine > theirs else (-1 if mine < theirs else 0)
            after = won if mine + shields > theirs else (-1 if mine + shields < theirs else 0)
            worth += after - before
        return 0.7 * worth + 0.4 * shields * (3 - self.age)

    def science(self, symbol: int, wildcard: bool) -> float:
        city = self.city
        before, _ = science_points(city.science, city.wildcards)
        symbols = list(city.science)
        if symbol >= 0:
            symbols[symbol] += 1
        after, _ = science_points(symbols, city.wildcards + (1 if wildcard else 0))
        return after - before + 0.6 * min(self.later, 2.0) * (1 + sum(city.science) / 4)

    def effects_worth(self, effect: Effects) -> float:
        worth = effect.points + self.production(effect) + self.military(effect.shields)
        if effect.science >= 0 or effect.science_choice:
            worth += self.science(effect.science, effect.science_choice)
        coins = effects.coins_when_built(effect, self.city, self.neighbours)
        worth += coins * self.coin
        if effect.points_per is not None:
            worth += effects.points(effect, self.city, self.neighbours) - effect.points
            worth += 0.3 * min(self.later, 2.0)  # the count grows as cities do
        for flag in effect.flags:
            worth += _FLAG_WORTH.get(flag, 0.0) * (min(self.later, 2.0) + 1) / 2
        return worth

    def card(self, card: Card) -> float:
        """What building ``card`` brings the seat (before paying for it)."""
        worth = self.effects_worth(card.effects)
        if self.age < 3 and _OPENS[card.id]:
            worth += 0.6 * min(_OPENS[card.id], 2)
        return worth

    def stage(self) -> float:
        city = self.city
        if city.built >= len(city.stages):
            return 0.0
        return self.effects_worth(city.stages[city.built].effects)

    def paying(self, bank: int, left: int, right: int) -> float:
        """What paying costs the seat: coins, and coins handed to rivals."""
        to_left = left * (1.1 if self.threat[0] >= self.threat[1] else 1.0)
        to_right = right * (1.1 if self.threat[1] > self.threat[0] else 1.0)
        return self.coin * (bank + left + right) + 0.1 * (to_left + to_right)

    # ------------------------------------------------------------- actions
    def action(self, action: Action, stage_worth: float | None = None) -> float:
        """The worth of ``action`` for the seat (``stage_worth``: :meth:`stage`, when the
        caller has it already)."""
        game = self.game
        if isinstance(action, Discard):
            return 3 * self.coin
        if isinstance(action, BuildDiscarded):
            return self.card(CARDS[_in(game.pile, action.card)])
        if isinstance(action, BuildStage):
            worth = self.stage() if stage_worth is None else stage_worth
            return worth - self.paying(0, _coins(action.left), _coins(action.right))
        index = _in(game.hands[self.seat], action.card)
        if isinstance(action, BuildFree):
            return self.card(CARDS[index]) - 1.0  # the free build of the age is spent
        assert isinstance(action, Build)
        left, right = _coins(action.left), _coins(action.right)
        bank = 0 if game.chain_free(self.seat, index) else CARDS[index].coins
        return self.card(CARDS[index]) - self.paying(bank, left, right)


def _coins(value: int | None) -> int:
    return 0 if value is None else value


def _in(cards: Sequence[int], card_id: str) -> int:
    return next(card for card in cards if CARDS[card].id == card_id)


def _bits(mask: int) -> list[int]:
    return [r for r in range(7) if mask >> r & 1]


def _unit_worth(city: City, resource: int, unit: int) -> float:
    """A unit more of ``resource`` (the ``unit``-th this card adds) for ``city``."""
    has = city.produce[resource] + unit + sum(1 for mask in city.either if mask >> resource & 1) \
        + sum(1 for mask in city.choice if mask >> resource & 1)
    if resource in RAW:
        return (1.0, 0.45, 0.2)[min(has, 2)]
    return (1.1, 0.15, 0.05)[min(has, 2)]


def _standing(city: City) -> int:
    """A rough public tally of a city's points so far."""
    blue = sum(CARDS[card].effects.points for card in city.cards if CARDS[card].color == "blue")
    stages = sum(stage.effects.points for stage in city.stages[:city.built])
    return blue + stages + sum(city.tokens) + city.coins // 3


def receiver(game: Game, seat: int) -> int | None:
    """The seat the hand goes to after this turn, or None when it goes to no one."""
    if game.phase != "pick" or game.turn >= TURNS:
        return None
    return game.left_of(seat) if game.age != 2 else game.right_of(seat)


def values(game: Game, seat: int, actions: Sequence[Action], denial: bool) -> list[float]:
    """The worth of each of ``actions`` for ``seat``; with ``denial``, plus a share of what
    the card would be worth to the seat the hand goes to next."""
    judge = Judge(game, seat)
    stage_worth = judge.stage()
    out = [judge.action(action, stage_worth) for action in actions]
    next_holder = receiver(game, seat) if denial else None
    if next_holder is not None:
        other = Judge(game, next_holder)
        worth: dict[str, float] = {}
        for i, action in enumerate(actions):
            card_id = action.card
            if card_id not in worth:
                card = CARDS[_in(game.hands[seat], card_id)]
                worth[card_id] = max(0.0, other.card(card) - other.coin * card.coins)
            out[i] += DENIAL * worth[card_id]
    return out


def best(game: Game, seat: int, actions: Sequence[Action], denial: bool) -> Action:
    """The first of ``actions`` of the highest worth."""
    scores = values(game, seat, actions, denial)
    top = max(range(len(actions)), key=scores.__getitem__)
    return actions[top]
