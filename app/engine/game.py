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
from typing import Any, Final

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
from .scoring import Outcome, civilian_outcome, score_sheet
from .state import (
    DECISION_NAMES,
    WONDER_PRICES,
    Decision,
    DecisionKind,
    GameState,
    Options,
    Phase,
    Victory,
)

ENGINE_VERSION: Final = "1"
"""Bumped whenever a rule change could make an old action log replay differently."""

WONDER_CAP: Final = 7
_REVEALING: Final = (CardRevealed, AgeStarted, DraftRoundStarted, LibraryTokensDrawn, GameEnded)
"""Events after which an action cannot be taken back: they showed what had been hidden (or
ended the game)."""
# Who picks at each step of the draft: F = first player, S = second. The last wonder of
# each round (steps 3 and 7) goes to its taker without a choice.
_DRAFT_PICKERS: Final = (0, 1, 1, 0, 1, 0, 0, 1)
_AUTOMATIC_STEPS: Final = (3, 7)

# Canonical action objects, built once: legal_actions allocates nothing but its list.
_PICK: Final = tuple(PickWonder(w.id) for w in WONDERS)
_BUILD: Final = tuple(BuildCard(c.id) for c in CARDS)
_DISCARD: Final = tuple(DiscardCard(c.id) for c in CARDS)
_WONDER: Final = tuple(tuple(BuildWonder(w.id, c.id) for w in WONDERS) for c in CARDS)
_PROGRESS: Final = tuple(ChooseProgressToken(t.id) for t in TOKENS)
_DESTROY: Final = tuple(DestroyCard(c.id) for c in CARDS)
_REVIVE: Final = tuple(BuildFromDiscard(c.id) for c in CARDS)
_STARTER: Final = (ChooseStarter(0), ChooseStarter(1))

_AGE_CARDS: Final = {age: tuple(c.index for c in CARDS if c.age == age and not c.is_guild)
              for age in (1, 2, 3)}
_GUILDS: Final = tuple(c.index for c in CARDS if c.is_guild)
_CHAIN_FROM: Final = tuple(1 << c.chain_from if c.chain_from >= 0 else 0 for c in CARDS)
"""Per card: the bit of the chain symbol that makes it free (0 if none)."""

_PLAY_DECISION: Final = {seat: Decision(DecisionKind.PLAY_CARD, seat, ()) for seat in (0, 1)}


def _illegal(code: str, message: str, **params: Any) -> IllegalActionError:
    return IllegalActionError(code, message, **params)


class Game:
    """One game of 7 Wonders Duel. Mutable: :meth:`apply` advances it in place."""

    __slots__ = ("_undoable_by", "log", "played", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.log: list[Action] = []
        """Every action applied, take-backs and what they undid included: what replays."""
        self.played: list[Action] = []
        """The actions in force: the log less the take-backs and what they undid."""
        self._undoable_by = -1
        """The seat that made the last action in force, if that action revealed nothing
        (it may be taken back); -1 otherwise."""

    def clone(self) -> Game:
        """An independent copy of the game, its log included: play either, the other stays
        as it was. Cheap (no replay), and the same in the compiled build, where ``copy``
        and ``pickle`` do not work; what search uses to try moves."""
        twin = Game(self.state.clone())
        twin.log = self.log.copy()
        twin.played = self.played.copy()
        twin._undoable_by = self._undoable_by
        return twin

    # ----------------------------------------------------------------- creation
    @classmethod
    def new(cls, seed: int, options: Options | None = None) -> Game:
        """Set up a game. Everything random is drawn from ``seed`` here, except the Great
        Library's draw, which uses the same generator when the wonder is built."""
        state = GameState(seed, options or Options())
        rng = state.rng
        opts = state.options
        state.first_player = rng.below(2) if opts.first_player is None else opts.first_player

        tokens = list(range(len(TOKENS)))
        rng.shuffle(tokens)
        state.board_tokens = sorted(tokens[:5])
        state.box_tokens = sorted(tokens[5:])

        if opts.wonder_selection == "draft":
            wonders = list(range(len(WONDERS)))
            rng.shuffle(wonders)
            state.draft_rounds = [wonders[0:4], wonders[4:8]]
            state.unused_wonders = sorted(wonders[8:])
        else:
            first, second = state.first_player, 1 - state.first_player
            for w in WONDERS:
                if w.first_game_player == 1:
                    state.players[first].wonders.append(w.index)
                elif w.first_game_player == 2:
                    state.players[second].wonders.append(w.index)
                else:
                    state.unused_wonders.append(w.index)

        for age in (1, 2, 3):
            deck = list(_AGE_CARDS[age])
            rng.shuffle(deck)
            state.removed_cards.extend(deck[:3])
            deck = deck[3:]
            if age == 3:
                guilds = list(_GUILDS)
                rng.shuffle(guilds)
                state.removed_cards.extend(guilds[3:])
                deck += guilds[:3]
                rng.shuffle(deck)
            state.decks[age] = deck

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
    def is_over(self) -> bool:
        return self.state.phase == Phase.OVER

    @property
    def decision(self) -> Decision | None:
        """What must be decided now and by whom; None once the game is over."""
        state = self.state
        if state.phase == Phase.OVER:
            return None
        if state.phase == Phase.DRAFT:
            return Decision(DecisionKind.PICK_WONDER, self._drafter(), tuple(state.draft_offer))
        if state.pending:
            return state.pending[0]
        return _PLAY_DECISION[state.current]

    @property
    def to_act(self) -> int | None:
        """The seat that must act now (None once the game is over)."""
        decision = self.decision
        return None if decision is None else decision.seat

    def outcome(self) -> Outcome | None:
        """Winner (None when shared), victory kind and both score sheets, once over."""
        state = self.state
        if state.phase != Phase.OVER or state.victory is None:
            return None
        return Outcome(state.winner, state.victory, (score_sheet(state, 0), score_sheet(state, 1)))

    def legal_actions(self) -> list[Action]:
        """Every legal action for the seat to act, in a stable order."""
        state = self.state
        if state.phase == Phase.OVER:
            return []
        if state.phase == Phase.DRAFT:
            return [_PICK[w] for w in state.draft_offer]
        if state.pending:
            kind, _, options = state.pending[0]
            if kind in (DecisionKind.CHOOSE_PROGRESS, DecisionKind.CHOOSE_LIBRARY_TOKEN):
                return [_PROGRESS[t] for t in options]
            if kind == DecisionKind.DESTROY_CARD:
                return [_DESTROY[c] for c in options]
            if kind == DecisionKind.BUILD_FROM_DISCARD:
                return [_REVIVE[c] for c in options]
            return list(_STARTER)
        seat = state.current
        me = state.players[seat]
        coins = me.coins
        wonders: list[int] = []
        if state.wonders_built < WONDER_CAP:
            wonders = [w for w in me.wonders if w not in me.built_wonders
                       and self._wonder_price(seat, w) <= coins]
        out: list[Action] = []
        append = out.append
        structure = state.structure
        for slot in state.accessible:
            card = structure[slot]
            if self._card_price(seat, card) <= coins:
                append(_BUILD[card])
            append(_DISCARD[card])
            if wonders:
                row = _WONDER[card]
                for w in wonders:
                    append(row[w])
        return out

    def _card_price(self, seat: int, card: int) -> int:
        players = self.state.players
        chain = _CHAIN_FROM[card]
        if chain and players[seat].chains & chain:
            return 0
        cache = self.state.price_cache[seat]
        price = cache[card]
        if price < 0:
            price = cache[card] = costs.card_price(players[seat], players[1 - seat], card)
        return price

    def _wonder_price(self, seat: int, wonder: int) -> int:
        cache = self.state.price_cache[seat]
        price = cache[WONDER_PRICES + wonder]
        if price < 0:
            players = self.state.players
            price = cache[WONDER_PRICES + wonder] = costs.wonder_price(
                players[seat], players[1 - seat], wonder)
        return price

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def can_take_back(self, seat: int) -> bool:
        """Whether ``seat`` may ask to take its last action back: the game goes on, the
        last action in force is that seat's, and it revealed nothing that was hidden."""
        return self._undoable_by == seat and self.state.phase != Phase.OVER

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
        events: list[Event] = []
        self.state.events = events
        # Each handler checks everything before it changes anything.
        _HANDLERS[type(checked)](self, checked, decision)
        self._advance()
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

    def _out_of_turn(self, action: Forfeit | TakeBack) -> list[Event]:
        """A forfeit ends the game; a take-back replays the game without its last action."""
        if isinstance(action, Forfeit):
            self.state.events = []
            end_game(self.state, 1 - action.seat, Victory(action.reason))
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
            self._undoable_by = before._undoable_by
            self.state.events = [TakenBack(action.seat, str(undone))]
        self.log.append(action)
        return self.state.events

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
        if self.state.slot_of.get(index, -1) not in self.state.accessible:
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

    def _on_build(self, action: BuildCard, decision: Decision) -> None:
        seat = decision.seat
        index = self._accessible(action.card)
        price = self._card_price(seat, index)
        self._afford(seat, price, card=action.card)
        state = self.state
        me, them = state.players[seat], state.players[1 - seat]
        payment = costs.card_payment(me, them, index, price)
        self._pay(seat, payment)
        events = state.events
        mark = len(events)
        slot = self._take(index)
        events.insert(mark, CardBuilt(seat, action.card, slot, payment))
        if payment.chain and me.coins_per_chain_build:
            me.coins += me.coins_per_chain_build
            events.append(CoinsGained(seat, me.coins_per_chain_build))
        add_card(state, seat, index)

    def _on_discard(self, action: DiscardCard, decision: Decision) -> None:
        seat = decision.seat
        index = self._accessible(action.card)
        state = self.state
        me = state.players[seat]
        events = state.events
        mark = len(events)
        slot = self._take(index)
        value = costs.sale_value(me)
        me.coins += value
        state.discard.append(index)
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
        self._pay(seat, payment)
        events = state.events
        mark = len(events)
        slot = self._take(index)
        me.built_wonders[w] = index
        state.wonders_built += 1
        events.insert(mark, WonderBuilt(seat, action.wonder, action.card, slot, payment))
        effects = WONDERS[w].effects
        if effects.play_again or me.wonders_play_again:
            state.play_again = True
        if state.wonders_built == WONDER_CAP:
            self._retire_last_wonder()
        gain(state, seat, effects)

    def _on_choose_progress(self, action: ChooseProgressToken, decision: Decision) -> None:
        t = self._offered(TOKEN_BY_ID[action.token].index, decision, token=action.token)
        state = self.state
        state.pending.pop(0)
        if decision.kind == DecisionKind.CHOOSE_LIBRARY_TOKEN:
            state.box_tokens.remove(t)  # the other drawn tokens stay out of the game
            taken = ProgressTokenTaken(decision.seat, action.token, "great_library")
        else:
            state.board_tokens.remove(t)
            taken = ProgressTokenTaken(decision.seat, action.token, "board")
        state.events.append(taken)
        take_token(state, decision.seat, t)

    def _on_destroy(self, action: DestroyCard, decision: Decision) -> None:
        index = self._offered(CARD_BY_ID[action.card].index, decision, card=action.card)
        state = self.state
        state.pending.pop(0)
        remove_card(state, 1 - decision.seat, index)
        state.events.append(CardDestroyed(1 - decision.seat, action.card))

    def _on_build_from_discard(self, action: BuildFromDiscard, decision: Decision) -> None:
        index = self._offered(CARD_BY_ID[action.card].index, decision, card=action.card)
        state = self.state
        state.pending.pop(0)
        state.discard.remove(index)
        state.events.append(CardBuiltFromDiscard(decision.seat, action.card))
        add_card(state, decision.seat, index)

    def _on_choose_starter(self, action: ChooseStarter, decision: Decision) -> None:
        state = self.state
        state.pending.pop(0)
        state.current = action.seat
        state.events.append(StarterChosen(decision.seat, action.seat))

    def _pay(self, seat: int, payment: costs.Payment) -> None:
        state = self.state
        state.players[seat].coins -= payment.total
        if payment.to_opponent:
            state.players[1 - seat].coins += payment.to_opponent

    def _take(self, card_index: int) -> int:
        """Remove a card from the structure, turn up the cards it uncovers; returns its slot."""
        state = self.state
        slot = state.slot_of.pop(card_index)
        state.structure[slot] = -1
        state.cards_left -= 1
        state.accessible.remove(slot)
        state.turn_open = True
        state.last_taker = state.current
        layout = LAYOUTS[state.age]
        cover_count = state.cover_count
        for below in layout.covers[slot]:
            cover_count[below] -= 1
            if cover_count[below] == 0:
                insort(state.accessible, below)
                if not state.face_up[below]:
                    state.face_up[below] = True
                    state.events.append(
                        CardRevealed(state.age, below, CARDS[state.structure[below]].id))
        return slot

    def _retire_last_wonder(self) -> None:
        for seat, player in enumerate(self.state.players):
            for w in player.unbuilt_wonders():
                player.wonders.remove(w)
                player.retired_wonders.append(w)
                self.state.events.append(WonderRetired(seat, WONDERS[w].id))

    def _draft(self, seat: int, wonder: int) -> None:
        state = self.state
        state.draft_offer.remove(wonder)
        state.players[seat].wonders.append(wonder)
        state.events.append(WonderPicked(seat, WONDERS[wonder].id))
        state.draft_step += 1
        if state.draft_step in _AUTOMATIC_STEPS:
            last = state.draft_offer.pop()
            taker = self._drafter()
            state.players[taker].wonders.append(last)
            state.events.append(WonderPicked(taker, WONDERS[last].id))
            state.draft_step += 1
            if state.draft_step < len(_DRAFT_PICKERS):
                state.draft_offer = list(state.draft_rounds[1])
                state.events.append(
                    DraftRoundStarted(2, tuple(WONDERS[w].id for w in state.draft_offer)))
            else:
                self._start_age(1)
                state.current = state.first_player

    def _start_age(self, age: int) -> None:
        state = self.state
        state.lay_out_age(age)
        state.events.append(AgeStarted(age, tuple(
            (slot, CARDS[card].id) for slot, card in enumerate(state.structure)
            if state.face_up[slot])))

    def _advance(self) -> None:
        """After an action: end the turn once its decisions are made, end the age when its
        structure is empty, give the play-again turn or pass to the opponent."""
        state = self.state
        if state.phase != Phase.PLAY or state.pending or not state.turn_open:
            return
        state.turn_open = False
        if state.cards_left == 0:
            if state.play_again:
                state.events.append(PlayAgainLost(state.current))
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
            state.events.append(PlayAgainGranted(state.current))
        else:
            state.current = 1 - state.current


_HANDLERS: Final[dict[type[Action], Callable[[Game, Any, Decision], None]]] = {
    cls: getattr(Game, f"_on_{cls.TYPE}") for cls in ACTION_TYPES if cls not in OUT_OF_TURN
}
"""Each action type's handler: the method ``Game._on_<TYPE>`` (a new action type without
one fails at import)."""


def replay_json(seed: int, options: dict[str, Any], actions: Sequence[dict[str, Any]]) -> Game:
    """:meth:`Game.replay` from the JSON record of a game."""
    return Game.replay(seed, Options.from_json(options), [from_json(a) for a in actions])
