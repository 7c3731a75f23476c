"""The game: setup from a seed, legal actions, applying actions, and the flow of turns.

    >>> from app.engine import Game, Options
    >>> game = Game.new(seed=7, options=Options(first_player=0))
    >>> game.to_act, game.decision.kind.name
    (0, 'PICK_WONDER')
    >>> len(game.legal_actions())
    4
    >>> events = game.apply(game.legal_actions()[0])
    >>> game.to_act
    1

A game is its seed, its options and its action log: :meth:`Game.replay` rebuilds it exactly.
"""

from __future__ import annotations

import hashlib
import json
from bisect import insort
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final

from . import costs
from .actions import (
    ACTION_TYPES,
    OUT_OF_TURN,
    Action,
    BuildCard,
    BuildFromDiscard,
    BuildWonder,
    ChooseProgressToken,
    ChooseStarter,
    DestroyCard,
    DiscardCard,
    Forfeit,
    PickWonder,
    TakeBack,
    from_json,
    parse,
)
from .cards import CARD_BY_ID, CARDS, TOKEN_BY_ID, TOKENS, WONDER_BY_ID, WONDERS
from .effects import add_card, end_game, gain, remove_card, take_token
from .errors import IllegalActionError, MalformedActionError
from .events import (
    AgeStarted,
    CardBuilt,
    CardBuiltFromDiscard,
    CardDestroyed,
    CardDiscarded,
    CardRevealed,
    CoinsGained,
    DraftRoundStarted,
    Event,
    GameEnded,
    LibraryTokensDrawn,
    PlayAgainGranted,
    PlayAgainLost,
    ProgressTokenTaken,
    StarterChosen,
    TakenBack,
    WonderBuilt,
    WonderPicked,
    WonderRetired,
)
from .layouts import LAYOUTS
from .rng import COMPILED, Rng
from .scoring import Outcome, civilian_outcome, score_sheet
from .state import (
    DECISION_NAMES,
    PRICE_SPAN,
    WONDER_PRICES,
    Decision,
    DecisionKind,
    GameState,
    Options,
    Phase,
    PlayerState,
    Victory,
)

if TYPE_CHECKING:
    from mypy_extensions import i64

ENGINE_VERSION: Final = "1"
"""Bumped whenever a rule change could make an old action log replay differently."""

WONDER_CAP: Final = 7
_REVEALING: Final = (CardRevealed, AgeStarted, DraftRoundStarted, LibraryTokensDrawn, GameEnded)
"""Events after which an action cannot be taken back: they showed what had been hidden (or
ended the game)."""
# Who picks at each step of the draft: F = first player, S = second. The last wonder of
# each round (steps 3 and 7) goes to its taker without a choice.
# (Typed as tuples of any length: mypyc keeps a fixed-length tuple unboxed and boxes it
# again for each lookup by a variable index.)
_DRAFT_PICKERS: Final[tuple[int, ...]] = (0, 1, 1, 0, 1, 0, 0, 1)
_AUTOMATIC_STEPS: Final[tuple[int, ...]] = (3, 7)

# Canonical action objects, built once: legal_actions allocates nothing but its list.
_PICK: Final = tuple(PickWonder(w.id) for w in WONDERS)
_BUILD: Final = tuple(BuildCard(c.id) for c in CARDS)
_DISCARD: Final = tuple(DiscardCard(c.id) for c in CARDS)
_WONDER: Final = tuple(tuple(BuildWonder(w.id, c.id) for w in WONDERS) for c in CARDS)
_KIND_OF: Final[dict[type, int]] = {BuildCard: 0, BuildWonder: 1, DiscardCard: 2}
"""A turn's kinds of action, in the order of :meth:`Game.playout`'s weights."""
_PROGRESS: Final = tuple(ChooseProgressToken(t.id) for t in TOKENS)
_DESTROY: Final = tuple(DestroyCard(c.id) for c in CARDS)
_REVIVE: Final = tuple(BuildFromDiscard(c.id) for c in CARDS)
_STARTER: Final[tuple[ChooseStarter, ...]] = (ChooseStarter(0), ChooseStarter(1))

_AGE_CARDS: Final = ((), *(tuple(c.index for c in CARDS if c.age == age and not c.is_guild)
                           for age in (1, 2, 3)))
"""Per age (1-3): its cards, guilds apart."""
_GUILDS: Final = tuple(c.index for c in CARDS if c.is_guild)


def deal_age(rng: Rng, age: int) -> tuple[list[int], list[int]]:
    """One age's deck in slot order, and the cards it returns to the box unseen: three of
    the age's cards, and in Age III the four guilds not shuffled in (three are)."""
    deck = list(_AGE_CARDS[age])
    rng.shuffle(deck)
    removed = deck[:3]
    deck = deck[3:]
    if age == 3:
        guilds = list(_GUILDS)
        rng.shuffle(guilds)
        removed += guilds[3:]
        deck += guilds[:3]
        rng.shuffle(deck)
    return deck, removed
_ALL_TOKENS: Final = tuple(range(len(TOKENS)))
_ALL_WONDERS: Final = tuple(range(len(WONDERS)))
_CHAIN_FROM: Final = tuple(1 << c.chain_from if c.chain_from >= 0 else 0 for c in CARDS)
"""Per card: the bit of the chain symbol that makes it free (0 if none)."""
_CARD_COINS: Final = tuple(c.cost_coins for c in CARDS)
_WONDER_COINS: Final = tuple(w.cost_coins for w in WONDERS)
_COVERS: Final = ((), *(LAYOUTS[age].covers for age in (1, 2, 3)))
"""Per age (1-3): the slots each slot covers."""


# The phases and decisions as plain ints: compiled, comparing them costs next to nothing.
_DRAFT: Final = int(Phase.DRAFT)
_PLAY: Final = int(Phase.PLAY)
_OVER: Final = int(Phase.OVER)
_CHOOSE_PROGRESS: Final = int(DecisionKind.CHOOSE_PROGRESS)
_CHOOSE_LIBRARY_TOKEN: Final = int(DecisionKind.CHOOSE_LIBRARY_TOKEN)
_DESTROY_CARD: Final = int(DecisionKind.DESTROY_CARD)
_BUILD_FROM_DISCARD: Final = int(DecisionKind.BUILD_FROM_DISCARD)

_PLAY_DECISION: Final = {seat: Decision(DecisionKind.PLAY_CARD, seat, ()) for seat in (0, 1)}
_DEFAULT_OPTIONS: Final = Options()
_MEMO: Final = costs.PRICE_MEMO
_PAIR_BITS: Final = costs.PAIR_BITS


def _illegal(code: str, message: str, **params: Any) -> IllegalActionError:
    return IllegalActionError(code, message, **params)


class Game:
    """One game of 7 Wonders Duel. Mutable: :meth:`apply` advances it in place."""

    __slots__ = ("_undoable_by", "is_over", "log", "played", "state")

    def __init__(self, state: GameState, log: list[Action] | None = None,
                 played: list[Action] | None = None, undoable_by: int = -1) -> None:
        self.state = state
        self.is_over: bool = state.phase == _OVER
        """Whether the game has ended: kept by every method that plays (an attribute, not
        a property: a search loop reads it before every move, and a property call costs
        the interpreter as much as a small move)."""
        self.log: list[Action] = [] if log is None else log
        """Every action applied, take-backs and what they undid included: what replays."""
        self.played: list[Action] = [] if played is None else played
        """The actions in force: the log less the take-backs and what they undid."""
        self._undoable_by = undoable_by
        """The seat that made the last action in force, if that action revealed nothing
        (it may be taken back); -1 otherwise."""

    def clone(self) -> Game:
        """An independent copy of the game, its log included: play either, the other stays
        as it was. Cheap (no replay), and the same in the compiled build, where ``copy``
        and ``pickle`` do not work; what search uses to try moves."""
        return Game(self.state.clone(), self.log.copy(), self.played.copy(),
                    self._undoable_by)

    # ----------------------------------------------------------------- creation
    @classmethod
    def new(cls, seed: int, options: Options | None = None) -> Game:
        """Set up a game. Everything random is drawn from ``seed`` here, except the Great
        Library's draw, which uses the same generator when the wonder is built."""
        state = GameState(seed, options or _DEFAULT_OPTIONS)
        rng = state.rng
        opts = state.options
        state.first_player = rng.below(2) if opts.first_player is None else opts.first_player

        tokens = list(_ALL_TOKENS)
        rng.shuffle(tokens)
        state.board_tokens = sorted(tokens[:5])
        state.box_tokens = sorted(tokens[5:])

        if opts.wonder_selection == "draft":
            wonders = list(_ALL_WONDERS)
            rng.shuffle(wonders)
            state.draft_rounds = [wonders[0:4], wonders[4:8]]
            state.unused_wonders = sorted(wonders[8:])
        else:
            first, second = state.first_player, 1 - state.first_player
            for w in WONDERS:
                if w.first_game_player == 1:
                    state.players[first].take_wonder(w.index)
                elif w.first_game_player == 2:
                    state.players[second].take_wonder(w.index)
                else:
                    state.unused_wonders.append(w.index)

        for age in (1, 2, 3):
            state.decks[age], removed = deal_age(rng, age)
            state.removed_cards.extend(removed)

        game = cls(state)
        if opts.wonder_selection == "draft":
            state.draft_offer = list(state.draft_rounds[0])
            state.current = state.first_player
        else:
            game._start_age(1)
            state.current = state.first_player
        return game

    @classmethod
    def replay(cls, seed: int, options: Options | None, actions: Iterable[Action | str]) -> Game:
        """Rebuild a game from its seed, options and action log (actions or notations)."""
        game = cls.new(seed, options)
        for action in actions:
            game.apply(parse(action) if isinstance(action, str) else action)
        return game

    # ----------------------------------------------------------------- queries
    @property
    def options(self) -> Options:
        return self.state.options

    @property
    def seed(self) -> int:
        return self.state.seed

    @property
    def decision(self) -> Decision | None:
        """What must be decided now and by whom; None once the game is over."""
        state = self.state
        if state.phase == _OVER:
            return None
        if state.phase == _DRAFT:
            return Decision(DecisionKind.PICK_WONDER, self._drafter(), tuple(state.draft_offer))
        if state.pending:
            return state.pending[0]
        return _PLAY_DECISION[state.current]

    @property
    def to_act(self) -> int | None:
        """The seat that must act now (None once the game is over)."""
        state = self.state
        if state.phase == _PLAY:
            return state.pending[0].seat if state.pending else state.current
        return None if state.phase == _OVER else self._drafter()

    def outcome(self) -> Outcome | None:
        """Winner (None when shared), victory kind and both score sheets, once over."""
        state = self.state
        if state.phase != _OVER or state.victory is None:
            return None
        return Outcome(state.winner, state.victory, (score_sheet(state, 0), score_sheet(state, 1)))

    def legal_actions(self) -> list[Action]:
        """Every legal action for the seat to act, in a stable order."""
        state = self.state
        if state.phase != _PLAY:
            return [] if state.phase == _OVER else [_PICK[w] for w in state.draft_offer]
        if state.pending:
            return _answers(state.pending[0])
        seat = state.current
        me = state.players[seat]
        coins: i64 = me.coins
        # The price row's hits (what _card_price and _wonder_price read) written out, and
        # interpreted, the shared memo's hits too (what slot_price reads): a call costs the
        # interpreter more than the lookup.
        prices = me.prices
        stamp: i64 = me.price_stamp
        pair = me.price_pair
        price: i64
        wonders: list[int] = []
        if state.wonders_built < WONDER_CAP:
            for w in me.unbuilt:
                price_slot = WONDER_PRICES + w
                price = prices[price_slot] - stamp
                if price < 0:
                    if not COMPILED:
                        price = _MEMO[price_slot].get(pair & _PAIR_BITS[price_slot], -1)
                    if price < 0:
                        price = _fill_price(me, state.players[1 - seat], price_slot)
                    elif price < PRICE_SPAN:
                        prices[price_slot] = stamp + price
                if price <= coins:
                    wonders.append(w)
        out: list[Action] = []
        structure = state.structure
        fixed = me.fixed_prices
        for slot in state.accessible:
            card: i64 = structure[slot]
            price = fixed[card]
            if price < 0:
                price = prices[card] - stamp
                if price < 0:
                    if not COMPILED:
                        price = _MEMO[card].get(pair & _PAIR_BITS[card], -1)
                    if price < 0:
                        price = _fill_price(me, state.players[1 - seat], card)
                    elif price < PRICE_SPAN:
                        prices[card] = stamp + price
            if price <= coins:
                out.append(_BUILD[card])
            out.append(_DISCARD[card])
            if wonders:
                row = _WONDER[card]
                for w in wonders:
                    out.append(row[w])
        return out

    def _card_price(self, seat: int, card: int) -> int:
        """What building ``card`` costs ``seat`` now: its fixed price (0 through a chain,
        the coins of a card that asks for no resource), else the memo."""
        players = self.state.players
        me = players[seat]
        price = me.fixed_prices[card]
        if price >= 0:
            return price
        price = me.prices[card] - me.price_stamp
        return price if price >= 0 else _fill_price(me, players[1 - seat], card)

    def _wonder_price(self, seat: int, wonder: int) -> int:
        players = self.state.players
        me = players[seat]
        price = me.prices[WONDER_PRICES + wonder] - me.price_stamp
        return price if price >= 0 else _fill_price(me, players[1 - seat], WONDER_PRICES + wonder)

    def card_price(self, seat: int, card_id: str) -> int:
        """The coins building ``card_id`` would cost ``seat`` now (the ``total`` of
        :meth:`card_payment`), from the price memo that :meth:`legal_actions` uses."""
        return self._card_price(seat, CARD_BY_ID[card_id].index)

    def wonder_price(self, seat: int, wonder_id: str) -> int:
        """Like :meth:`card_price`, for a wonder (the ``total`` of :meth:`wonder_payment`)."""
        return self._wonder_price(seat, WONDER_BY_ID[wonder_id].index)

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def can_take_back(self, seat: int) -> bool:
        """Whether ``seat`` may ask to take its last action back: the game goes on, the
        last action in force is that seat's, and it revealed nothing that was hidden."""
        return self._undoable_by == seat and self.state.phase != _OVER

    def card_payment(self, seat: int, card_id: str) -> costs.Payment:
        """The cheapest payment for ``seat`` to build a card now."""
        state = self.state
        return costs.card_payment(state.players[seat], state.players[1 - seat],
                                  CARD_BY_ID[card_id].index)

    def wonder_payment(self, seat: int, wonder_id: str) -> costs.Payment:
        state = self.state
        return costs.wonder_payment(state.players[seat], state.players[1 - seat],
                                    WONDER_BY_ID[wonder_id].index)

    def state_hash(self) -> str:
        """A digest of the whole state, hidden parts included: equal on every machine for the
        same seed, options and actions."""
        data = json.dumps(self.state.snapshot(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(data.encode()).hexdigest()

    # ----------------------------------------------------------------- actions
    def apply(self, action: object, seat: int | None = None) -> list[Event]:
        """Apply an action (an Action, its notation or its JSON form) and return its events.

        With ``seat``, the action must come from the seat to act. An illegal action raises
        :class:`IllegalActionError` (a malformed one :class:`MalformedActionError`) and
        leaves the game exactly as it was.
        """
        if isinstance(action, Action):
            checked = action
        elif isinstance(action, str):
            checked = parse(action)
        elif isinstance(action, dict):
            checked = from_json(action)
        else:
            raise MalformedActionError(f"{action!r} is not an action")
        decision = self.decision
        if decision is None:
            raise _illegal("game_over", "the game is over")
        if isinstance(checked, OUT_OF_TURN):
            if seat is not None and seat != checked.seat:
                raise _illegal("not_your_seat",
                               f"seat {seat} cannot act in the name of seat {checked.seat}",
                               seat=seat, named=checked.seat)
            return self._out_of_turn(checked)
        if seat is not None and seat != decision.seat:
            raise _illegal("not_your_turn", f"seat {decision.seat} is to act, not seat {seat}",
                           to_act=decision.seat, seat=seat)
        if decision.kind not in checked.ANSWERS:
            raise _illegal("wrong_decision",
                           f"{checked.TYPE} is not possible now: waiting for "
                           f"{DECISION_NAMES[decision.kind]} by seat {decision.seat}",
                           action=checked.TYPE, decision=DECISION_NAMES[decision.kind],
                           to_act=decision.seat)
        state = self.state
        events: list[Event] = []
        state.events = events
        try:
            # Each handler checks everything before it changes anything.
            _HANDLERS[type(checked)](self, checked, decision)
            self._advance()
        finally:
            state.events = None
        self.is_over = state.phase == _OVER
        self.log.append(checked)
        self.played.append(checked)
        # A token chosen from the Great Library's draw came out of the box: the choice shows
        # the opponent one of the hidden tokens.
        self._undoable_by = -1 if decision.kind == DecisionKind.CHOOSE_LIBRARY_TOKEN \
            else decision.seat
        for event in events:
            if isinstance(event, _REVEALING):
                self._undoable_by = -1
                break
        return events

    def playout(self, rng: Rng, limit: int = 1 << 30,
                kinds: tuple[int, int, int] | None = None) -> int:
        """Play random legal actions drawn from ``rng`` (never from the game's own
        generator, which deals what is hidden) until the game ends or ``limit`` actions are
        played; the number played. A search's random playout, in the engine's own loop:
        in the compiled build, no interpreted step between two actions.

        Each legal action is as likely, unless ``kinds`` weighs a turn's three kinds of
        action (building a card, building a wonder, discarding): then the kind is drawn
        first, in proportion to the weights of the kinds the turn offers, and an action of
        that kind next, each as likely. Answers to a decision and draft picks stay uniform.
        A playout that builds more often than it discards looks more like a real game."""
        played = 0
        while played < limit and not self.is_over:
            choices = self.legal_actions()
            if kinds is None or self.state.pending or self.state.phase != _PLAY:
                self.play(choices[rng.below(len(choices))])
            else:
                self.play(_weighed_choice(choices, rng, kinds))
            played += 1
        return played

    def play(self, action: Action) -> None:
        """Apply ``action``, which must be one of this game's :meth:`legal_actions` in the
        current position: the fast path for search and playouts.

        It leaves the game exactly as :meth:`apply` would (the same state hash, ``log``,
        ``played``, :meth:`can_take_back`, legal actions and outcome after it; the Great
        Library draws from the generator the same way) but checks nothing, builds no
        events and no payments, and returns nothing. Anything but a legal action of the
        position is the caller's error, with undefined results (a forfeit or a take-back
        goes through :meth:`apply`)."""
        state = self.state
        state.revealed = False
        library = False
        if type(action) is BuildCard:
            seat = state.current
            index = action.card_index
            self._build_card(seat, index, self._card_price(seat, index))
        elif type(action) is DiscardCard:
            seat = state.current
            self._discard_card(seat, action.card_index)
        elif type(action) is BuildWonder:
            seat = state.current
            wonder = action.wonder_index
            self._build_wonder(seat, wonder, action.card_index,
                               self._wonder_price(seat, wonder))
        elif type(action) is PickWonder:
            seat = self._drafter()
            self._draft(seat, action.wonder_index)
        elif type(action) is ChooseStarter:
            seat = state.pending[0].seat
            self._choose_starter(action.seat)
        elif type(action) is ChooseProgressToken:
            kind, seat, _ = state.pending[0]
            library = kind == _CHOOSE_LIBRARY_TOKEN
            self._choose_token(seat, action.token_index, library)
        elif type(action) is DestroyCard:
            seat = state.pending[0].seat
            self._destroy(seat, action.card_index)
        elif type(action) is BuildFromDiscard:
            seat = state.pending[0].seat
            self._revive(seat, action.card_index)
        else:  # a forfeit or a take-back
            self.apply(action)
            return
        self._advance()
        self.is_over = state.phase == _OVER
        self.log.append(action)
        self.played.append(action)
        # As in apply: a token chosen from the Great Library's draw came out of the box.
        self._undoable_by = -1 if library or state.revealed else seat

    def _out_of_turn(self, action: Forfeit | TakeBack) -> list[Event]:
        """A forfeit ends the game; a take-back replays the game without its last action."""
        events: list[Event]
        if isinstance(action, Forfeit):
            events = []
            self.state.events = events
            end_game(self.state, 1 - action.seat, Victory(action.reason))
            self.state.events = None
            self.is_over = True
            self.played.append(action)
            self._undoable_by = -1
        else:
            if not self.can_take_back(action.seat):
                raise _illegal("cannot_take_back",
                               f"seat {action.seat} has no last action that can be taken back",
                               seat=action.seat)
            undone = self.played[-1]
            before = Game.replay(self.seed, self.options, self.played[:-1])
            self.state, self.played = before.state, before.played
            self.is_over = before.is_over
            self._undoable_by = before._undoable_by
            events = [TakenBack(action.seat, str(undone))]
        self.log.append(action)
        return events

    def _drafter(self) -> int:
        first = self.state.first_player
        return first if _DRAFT_PICKERS[self.state.draft_step] == 0 else 1 - first

    def _offered(self, index: int, decision: Decision, **what: str) -> int:
        """``index`` if it is among the decision's options; ``what`` names it (``wonder``,
        ``token`` or ``card``: its id)."""
        if index not in decision.options:
            raise _illegal("not_offered", f"{next(iter(what.values()))} cannot be chosen now",
                           **what)
        return index

    def _accessible(self, card_id: str) -> int:
        index = CARD_BY_ID[card_id].index
        if self.state.slot_of[index] not in self.state.accessible:
            raise _illegal("not_accessible", f"{card_id} is not an accessible card",
                           card=card_id)
        return index

    def _afford(self, seat: int, price: int, **what: str) -> None:
        """Refuse a build that costs more than the seat has; ``what`` names it (``card`` or
        ``wonder``: its id)."""
        coins = self.state.players[seat].coins
        if price > coins:
            raise _illegal("cannot_afford",
                           f"{next(iter(what.values()))} costs {price} coins, seat {seat} has "
                           f"{coins}", price=price, coins=coins, seat=seat, **what)

    def _on_pick_wonder(self, action: PickWonder, decision: Decision) -> None:
        w = self._offered(WONDER_BY_ID[action.wonder].index, decision, wonder=action.wonder)
        self._draft(decision.seat, w)

    def _recording(self) -> list[Event]:
        """The list ``apply`` records the action's events in."""
        events = self.state.events
        assert events is not None
        return events

    def _on_build(self, action: BuildCard, decision: Decision) -> None:
        seat = decision.seat
        index = self._accessible(action.card)
        price = self._card_price(seat, index)
        self._afford(seat, price, card=action.card)
        players = self.state.players
        payment = costs.card_payment(players[seat], players[1 - seat], index, price)
        events = self._recording()
        mark = len(events)
        slot = self._build_card(seat, index, price)
        events.insert(mark, CardBuilt(seat, action.card, slot, payment))

    def _on_discard(self, action: DiscardCard, decision: Decision) -> None:
        seat = decision.seat
        index = self._accessible(action.card)
        value = costs.sale_value(self.state.players[seat])
        events = self._recording()
        mark = len(events)
        slot = self._discard_card(seat, index)
        events.insert(mark, CardDiscarded(seat, action.card, slot, value))

    def _on_build_wonder(self, action: BuildWonder, decision: Decision) -> None:
        seat = decision.seat
        index = self._accessible(action.card)
        state = self.state
        me, them = state.players[seat], state.players[1 - seat]
        w = WONDER_BY_ID[action.wonder].index
        if w not in me.wonders:
            raise _illegal("not_your_wonder", f"{action.wonder} is not a wonder of seat {seat}",
                           wonder=action.wonder, seat=seat)
        if w in me.built_wonders:
            raise _illegal("already_built", f"{action.wonder} is already built",
                           wonder=action.wonder)
        if state.wonders_built >= WONDER_CAP:
            raise _illegal("wonder_cap", "seven wonders are already built", cap=WONDER_CAP)
        price = self._wonder_price(seat, w)
        self._afford(seat, price, wonder=action.wonder)
        payment = costs.wonder_payment(me, them, w, price)
        events = self._recording()
        mark = len(events)
        slot = self._build_wonder(seat, w, index, price)
        events.insert(mark, WonderBuilt(seat, action.wonder, action.card, slot, payment))

    def _on_choose_progress(self, action: ChooseProgressToken, decision: Decision) -> None:
        t = self._offered(TOKEN_BY_ID[action.token].index, decision, token=action.token)
        library = decision.kind == DecisionKind.CHOOSE_LIBRARY_TOKEN
        self._recording().append(ProgressTokenTaken(
            decision.seat, action.token, "great_library" if library else "board"))
        self._choose_token(decision.seat, t, library)

    def _on_destroy(self, action: DestroyCard, decision: Decision) -> None:
        index = self._offered(CARD_BY_ID[action.card].index, decision, card=action.card)
        self._destroy(decision.seat, index)
        self._recording().append(CardDestroyed(1 - decision.seat, action.card))

    def _on_build_from_discard(self, action: BuildFromDiscard, decision: Decision) -> None:
        index = self._offered(CARD_BY_ID[action.card].index, decision, card=action.card)
        self._recording().append(CardBuiltFromDiscard(decision.seat, action.card))
        self._revive(decision.seat, index)

    def _on_choose_starter(self, action: ChooseStarter, decision: Decision) -> None:
        self._choose_starter(action.seat)
        self._recording().append(StarterChosen(decision.seat, action.seat))

    # What each action does, shared by apply (which checks first and records events around
    # them) and play; they record events only while state.events is a list.
    def _build_card(self, seat: int, index: int, price: int) -> int:
        """``seat`` builds ``index`` for ``price`` coins; returns the card's slot."""
        state = self.state
        players = state.players
        me = players[seat]
        chained = _CHAIN_FROM[index] & me.chains != 0
        me.coins -= price
        if not chained and players[1 - seat].receives_opponent_trade_coins:
            _pay_opponent(players[1 - seat], price - _CARD_COINS[index])
        slot = self._take(index)
        if chained and me.coins_per_chain_build:
            me.coins += me.coins_per_chain_build
            events = state.events
            if events is not None:
                events.append(CoinsGained(seat, me.coins_per_chain_build))
        add_card(state, seat, index)
        return slot

    def _discard_card(self, seat: int, index: int) -> int:
        state = self.state
        me = state.players[seat]
        slot = self._take(index)
        me.coins += costs.sale_value(me)
        state.discard.append(index)
        return slot

    def _build_wonder(self, seat: int, wonder: int, index: int, price: int) -> int:
        """``seat`` builds ``wonder`` with the card ``index`` under it; returns its slot."""
        state = self.state
        me = state.players[seat]
        me.coins -= price
        if state.players[1 - seat].receives_opponent_trade_coins:
            _pay_opponent(state.players[1 - seat], price - _WONDER_COINS[wonder])
        slot = self._take(index)
        me.built_wonders[wonder] = index
        me.unbuilt.remove(wonder)
        state.wonders_built += 1
        effects = WONDERS[wonder].effects
        if effects.play_again or me.wonders_play_again:
            state.play_again = True
        if state.wonders_built == WONDER_CAP:
            self._retire_last_wonder()
        gain(state, seat, effects)
        return slot

    def _choose_token(self, seat: int, token: int, library: bool) -> None:
        state = self.state
        state.pending.pop(0)
        # From the Great Library's draw, the other drawn tokens stay out of the game.
        (state.box_tokens if library else state.board_tokens).remove(token)
        take_token(state, seat, token)

    def _destroy(self, seat: int, index: int) -> None:
        state = self.state
        state.pending.pop(0)
        remove_card(state, 1 - seat, index)

    def _revive(self, seat: int, index: int) -> None:
        state = self.state
        state.pending.pop(0)
        state.discard.remove(index)
        add_card(state, seat, index)

    def _choose_starter(self, starter: int) -> None:
        state = self.state
        state.pending.pop(0)
        state.current = starter

    def _take(self, card_index: int) -> int:
        """Remove a card from the structure, turn up the cards it uncovers; returns its slot."""
        state = self.state
        slot_of = state.slot_of
        slot: i64 = slot_of[card_index]
        slot_of[card_index] = -1
        state.structure[slot] = -1
        state.cards_left -= 1
        accessible = state.accessible
        at: i64
        if COMPILED:  # closed up by hand: list.remove goes through a generic slice deletion
            at = 0
            while accessible[at] != slot:
                at += 1
            last: i64 = len(accessible) - 1
            while at < last:
                accessible[at] = accessible[at + 1]
                at += 1
            accessible.pop()
        else:  # interpreted, one call costs less than the loop
            accessible.remove(slot)
        state.turn_open = True
        state.last_taker = state.current
        cover_count = state.cover_count
        for below in _COVERS[state.age][slot]:
            left: i64 = cover_count[below] - 1
            cover_count[below] = left
            if left == 0:
                if COMPILED:
                    at = len(accessible)  # kept sorted
                    while at and accessible[at - 1] > below:
                        at -= 1
                    accessible.insert(at, below)
                else:
                    insort(accessible, below)
                if not state.face_up[below]:
                    state.face_up[below] = True
                    state.revealed = True
                    events = state.events
                    if events is not None:
                        events.append(
                            CardRevealed(state.age, below, CARDS[state.structure[below]].id))
        return slot

    def _retire_last_wonder(self) -> None:
        state = self.state
        events = state.events
        for seat, player in enumerate(state.players):
            for w in player.unbuilt:
                player.wonders.remove(w)
                player.retired_wonders.append(w)
                if events is not None:
                    events.append(WonderRetired(seat, WONDERS[w].id))
            player.unbuilt = []

    def _draft(self, seat: int, wonder: int) -> None:
        state = self.state
        events = state.events
        state.draft_offer.remove(wonder)
        state.players[seat].take_wonder(wonder)
        if events is not None:
            events.append(WonderPicked(seat, WONDERS[wonder].id))
        state.draft_step += 1
        if state.draft_step in _AUTOMATIC_STEPS:
            last = state.draft_offer.pop()
            taker = self._drafter()
            state.players[taker].take_wonder(last)
            if events is not None:
                events.append(WonderPicked(taker, WONDERS[last].id))
            state.draft_step += 1
            if state.draft_step < len(_DRAFT_PICKERS):
                state.draft_offer = list(state.draft_rounds[1])
                state.revealed = True
                if events is not None:
                    events.append(
                        DraftRoundStarted(2, tuple(WONDERS[w].id for w in state.draft_offer)))
            else:
                self._start_age(1)
                state.current = state.first_player

    def _start_age(self, age: int) -> None:
        state = self.state
        state.lay_out_age(age)
        state.revealed = True
        events = state.events
        if events is not None:
            events.append(AgeStarted(age, tuple(
                (slot, CARDS[card].id) for slot, card in enumerate(state.structure)
                if state.face_up[slot])))

    def _advance(self) -> None:
        """After an action: end the turn once its decisions are made, end the age when its
        structure is empty, give the play-again turn or pass to the opponent."""
        state = self.state
        if state.phase != _PLAY or state.pending or not state.turn_open:
            return
        state.turn_open = False
        events = state.events
        if state.cards_left == 0:
            if state.play_again and events is not None:
                events.append(PlayAgainLost(state.current))
            if state.age == 3:
                winner, victory = civilian_outcome(state)
                end_game(state, winner, victory)
                return
            self._start_age(state.age + 1)
            # The weaker military chooses; with the pawn centred, whoever took the last card.
            chooser = state.last_taker if state.pawn == 0 else (1 if state.pawn > 0 else 0)
            state.pending.append(Decision(DecisionKind.CHOOSE_STARTER, chooser, (0, 1)))
            return
        if state.play_again:
            state.play_again = False
            if events is not None:
                events.append(PlayAgainGranted(state.current))
        else:
            state.current = 1 - state.current


def _weighed_choice(choices: list[Action], rng: Rng, kinds: tuple[int, int, int]) -> Action:
    """A turn's action for :meth:`Game.playout`: its kind drawn by ``kinds`` (build, wonder,
    discard) among the kinds on offer, then one of that kind."""
    counts = [0, 0, 0]
    for action in choices:
        counts[_KIND_OF[type(action)]] += 1
    total: i64 = 0
    for kind in range(3):
        if counts[kind]:
            total += kinds[kind]
    if total <= 0:  # every offered kind weighs nothing: uniform after all
        return choices[rng.below(len(choices))]
    drawn: i64 = rng.below(total)
    chosen = 0
    for kind in range(3):
        if counts[kind]:
            if drawn < kinds[kind]:
                chosen = kind
                break
            drawn -= kinds[kind]
    nth: i64 = rng.below(counts[chosen])
    for action in choices:
        if _KIND_OF[type(action)] == chosen:
            if nth == 0:
                return action
            nth -= 1
    raise AssertionError("unreachable: the kind was counted among the choices")


def _answers(decision: Decision) -> list[Action]:
    """The legal actions answering a decision raised by a card (or the starter's choice)."""
    kind, _, options = decision
    if kind in (_CHOOSE_PROGRESS, _CHOOSE_LIBRARY_TOKEN):
        return [_PROGRESS[t] for t in options]
    if kind == _DESTROY_CARD:
        return [_DESTROY[c] for c in options]
    if kind == _BUILD_FROM_DISCARD:
        return [_REVIVE[c] for c in options]
    return list(_STARTER)


def _fill_price(me: PlayerState, them: PlayerState, slot: int) -> int:
    """Work out a price slot's price (a card with no chain held, or ``WONDER_PRICES`` + a
    wonder) and note it in ``me``'s price row."""
    price = costs.slot_price(me, them, slot, me.price_pair)
    if price < PRICE_SPAN:
        me.prices[slot] = me.price_stamp + price
    return price


def _pay_opponent(opponent: PlayerState, trade: int) -> None:
    """Economy: the coins a build paid for resources go to the opponent who holds it."""
    if trade > 0 and opponent.receives_opponent_trade_coins:
        opponent.coins += trade


_HANDLERS: Final[dict[type[Action], Callable[[Game, Any, Decision], None]]] = {
    cls: getattr(Game, f"_on_{cls.TYPE}") for cls in ACTION_TYPES if cls not in OUT_OF_TURN
}
"""Each action type's handler: the method ``Game._on_<TYPE>`` (a new action type without
one fails at import)."""


def replay_json(seed: int, options: dict[str, Any], actions: Sequence[dict[str, Any]]) -> Game:
    """:meth:`Game.replay` from the JSON record of a game."""
    return Game.replay(seed, Options.from_json(options), [from_json(a) for a in actions])
