"""What each seat (or a spectator) may see, as JSON-ready data.

A view never contains: the identity of a face-down card (only its back: ``age1``..``age3``
or ``guild``), the cards removed at setup, the progress tokens out of the game, the guilds
not in play, the wonders not yet (or never) offered in the draft, the other seat's Great
Library draw, the seed or the generator. Everything else is public in the physical game,
the discard pile included.

``view(game, None, reveal=True)`` is the exception, for the admin pages only: it shows
every one of those identities (the seed and the generator excepted), marked as hidden from
the players. It must never reach a player's or a spectator's connection.
"""

from __future__ import annotations

from typing import Any

from . import costs
from .actions import BuildCard, BuildWonder
from .cards import (
    CARD_BY_ID,
    CARDS,
    CHAIN_SYMBOLS,
    COLOR_NAMES,
    RESOURCES,
    SCIENCE_SYMBOLS,
    TOKENS,
    WONDER_BY_ID,
    WONDERS,
)
from .game import WONDER_CAP, Game
from .layouts import LAYOUTS
from .scoring import score_sheet
from .state import DECISION_NAMES, DecisionKind, GameState, Phase

_PHASES: dict[int, str] = {Phase.DRAFT: "draft", Phase.PLAY: "play", Phase.OVER: "over"}


def _ids(indices: Any, table: Any) -> list[str]:
    return [table[i].id for i in indices]


def _player(state: GameState, seat: int) -> dict[str, Any]:
    player = state.players[seat]
    opponent = state.players[1 - seat]
    prices = costs.unit_prices(player, opponent)
    return {
        "seat": seat,
        "coins": player.coins,
        "cards": _ids(player.cards, CARDS),
        "cards_by_color": {
            name: [CARDS[c].id for c in player.cards if CARDS[c].color == i]
            for i, name in enumerate(COLOR_NAMES)
        },
        "production": dict(zip(RESOURCES, player.production, strict=True)),
        "production_choices": [[RESOURCES[r] for r in options] for options in player.choice_sets],
        "unit_prices": dict(zip(RESOURCES, prices, strict=True)),
        "chains": [name for i, name in enumerate(CHAIN_SYMBOLS) if player.chains >> i & 1],
        "science": {name: n for name, n in zip(SCIENCE_SYMBOLS, player.science, strict=True)
                    if n},
        "shields_lead": state.pawn if seat == 0 else -state.pawn,
        "progress_tokens": _ids(player.tokens, TOKENS),
        "wonders": [
            {"wonder": WONDERS[w].id, "built": w in player.built_wonders,
             "card": CARDS[player.built_wonders[w]].id if w in player.built_wonders else None}
            for w in player.wonders
        ],
        "retired_wonders": _ids(player.retired_wonders, WONDERS),
        "sale_value": costs.sale_value(player),
        "score": score_sheet(state, seat).to_json(),
    }


def _structure(state: GameState, reveal: bool) -> list[dict[str, Any]]:
    if state.age == 0:
        return []
    layout = LAYOUTS[state.age]
    accessible = set(state.accessible)
    out: list[dict[str, Any]] = []
    for slot, card in enumerate(state.structure):
        place = {"slot": slot, "row": layout.row[slot], "x": layout.x[slot]}
        if card < 0:  # taken: only where it was
            out.append({**place, "taken": True, "face_up": False, "card": None, "back": None,
                        "accessible": False})
            continue
        face_up = state.face_up[slot]
        entry = {
            **place, "taken": False, "face_up": face_up,
            "card": CARDS[card].id if face_up else None,
            "back": "guild" if CARDS[card].is_guild else f"age{state.age}",
            "accessible": slot in accessible,
        }
        if reveal and not face_up:
            entry["card"] = CARDS[card].id
            entry["revealed"] = True
        out.append(entry)
    return out


def _hidden(game: Game) -> dict[str, Any]:
    """Every identity the players may not know now (see :func:`view` with ``reveal``)."""
    state = game.state
    removed: dict[str, list[str]] = {"age1": [], "age2": [], "age3": [], "guilds": []}
    for card in state.removed_cards:
        removed["guilds" if CARDS[card].is_guild else f"age{CARDS[card].age}"].append(
            CARDS[card].id)
    decision = game.decision
    library = None
    if decision is not None and decision.kind == DecisionKind.CHOOSE_LIBRARY_TOKEN:
        library = {"seat": decision.seat, "tokens": _ids(decision.options, TOKENS)}
    in_draft_round_1 = state.phase == Phase.DRAFT and state.draft_step < 4
    return {
        "removed_cards": removed,
        "decks": {f"age{age}": _ids(deck, CARDS)
                  for age, deck in sorted(state.decks.items()) if age > state.age},
        "box_tokens": _ids(state.box_tokens, TOKENS),
        "library_draw": library,
        "unused_wonders": _ids(state.unused_wonders, WONDERS),
        "draft_round_2": _ids(state.draft_rounds[1], WONDERS) if in_draft_round_1 else [],
    }


def _decision(game: Game, viewer: int | None, reveal: bool) -> dict[str, Any] | None:
    decision = game.decision
    if decision is None:
        return None
    kind, seat, options = decision
    out: dict[str, Any] = {"kind": DECISION_NAMES[kind], "seat": seat}
    if kind == DecisionKind.CHOOSE_LIBRARY_TOKEN and viewer != seat and not reveal:
        out["count"] = len(options)
        return out
    table = {
        DecisionKind.PICK_WONDER: WONDERS, DecisionKind.CHOOSE_PROGRESS: TOKENS,
        DecisionKind.CHOOSE_LIBRARY_TOKEN: TOKENS, DecisionKind.DESTROY_CARD: CARDS,
        DecisionKind.BUILD_FROM_DISCARD: CARDS,
    }.get(kind)
    if table is not None:
        out["options"] = _ids(options, table)
    elif kind == DecisionKind.CHOOSE_STARTER:
        out["options"] = list(options)
    return out


class PaymentBook:
    """One seat's payments at one moment, each worked out once however many parts of a view
    ask for it (the legal actions, the card options and the prices all show payments)."""

    __slots__ = ("_cards", "_me", "_them", "_wonders")

    def __init__(self, game: Game, seat: int) -> None:
        state = game.state
        self._me, self._them = state.players[seat], state.players[1 - seat]
        self._cards: dict[int, costs.Payment] = {}
        self._wonders: dict[int, costs.Payment] = {}

    def card(self, index: int) -> costs.Payment:
        payment = self._cards.get(index)
        if payment is None:
            payment = self._cards[index] = costs.card_payment(self._me, self._them, index)
        return payment

    def wonder(self, index: int) -> costs.Payment:
        payment = self._wonders.get(index)
        if payment is None:
            payment = self._wonders[index] = costs.wonder_payment(self._me, self._them, index)
        return payment


def _book_of_the_seat_to_act(game: Game, book: PaymentBook | None) -> PaymentBook | None:
    seat = game.to_act
    if book is not None or seat is None:
        return book
    return PaymentBook(game, seat)


def legal_actions_with_costs(game: Game, book: PaymentBook | None = None
                             ) -> list[dict[str, Any]]:
    """The legal actions of the seat to act, each with its notation, JSON form and, for
    builds, the exact payment (from ``book``, that seat's, when given)."""
    book = _book_of_the_seat_to_act(game, book)
    out = []
    for action in game.legal_actions():
        entry: dict[str, Any] = {"notation": str(action), "action": action.to_json()}
        if book is not None and isinstance(action, BuildCard):
            entry["payment"] = book.card(CARD_BY_ID[action.card].index).to_json()
        elif book is not None and isinstance(action, BuildWonder):
            entry["payment"] = book.wonder(WONDER_BY_ID[action.wonder].index).to_json()
        out.append(entry)
    return out


def _refusal(capped: bool, price: int, coins: int) -> dict[str, Any]:
    """Why an option is not allowed: a code of ``OPTION_REASONS`` and its figures."""
    if capped:
        return {"reason": "wonder_cap", "cap": WONDER_CAP}
    if price > coins:
        return {"reason": "cannot_afford", "price": price, "coins": coins}
    return {"reason": "not_allowed"}


def card_options(game: Game, book: PaymentBook | None = None) -> list[dict[str, Any]]:
    """For the seat to act on a normal turn: every accessible card with everything it could
    do with it, each with its payment (from ``book``, that seat's, when given) and whether
    it is allowed (exactly the actions in ``legal_actions``) and, if not, why: a
    ``reason`` code of :data:`~app.engine.errors.OPTION_REASONS` with its figures beside
    it (``{"allowed": false, "reason": "cannot_afford", "price": 7, "coins": 3}``)."""
    decision = game.decision
    if decision is None or decision.kind != DecisionKind.PLAY_CARD:
        return []
    book = book or PaymentBook(game, decision.seat)
    legal = {str(action) for action in game.legal_actions()}
    state = game.state
    me = state.players[decision.seat]

    def option(notation: str, payment: costs.Payment, **fields: Any) -> dict[str, Any]:
        out = {**fields, "allowed": notation in legal, "payment": payment.to_json()}
        if not out["allowed"]:
            out.update(_refusal(state.wonders_built >= WONDER_CAP and "wonder" in fields,
                                payment.total, me.coins))
        return out

    wonder_payments = [(WONDERS[w].id, book.wonder(w)) for w in me.unbuilt]
    out = []
    for slot in state.accessible:
        card = CARDS[state.structure[slot]]
        out.append({
            "card": card.id, "slot": slot,
            "build": option(f"build:{card.id}", book.card(card.index)),
            "discard": {"allowed": True, "coins": costs.sale_value(me)},
            "wonders": [option(f"wonder:{wonder}:{card.id}", payment, wonder=wonder)
                        for wonder, payment in wonder_payments],
        })
    return out


def seat_prices(game: Game, seat: int, book: PaymentBook | None = None
                ) -> dict[str, dict[str, dict[str, Any]]]:
    """What building each accessible face-up card and each unbuilt wonder of ``seat`` would
    cost that seat right now, whoever is to act: ``{"cards": {card: price}, "wonders":
    {wonder: price}}``, each price ``{"total", "coins", "trade", "chain", "affordable"}``.

    Empty outside the play phase. Both cities and the face-up cards are public, so this
    tells nobody anything new; a face-down card never appears (it has no price)."""
    state = game.state
    if state.phase != Phase.PLAY:
        return {"cards": {}, "wonders": {}}
    book = book or PaymentBook(game, seat)
    me = state.players[seat]
    structure, face_up, coins = state.structure, state.face_up, me.coins
    return {
        "cards": {CARDS[structure[slot]].id: _price(book.card(structure[slot]), coins)
                  for slot in state.accessible if face_up[slot]},
        "wonders": {WONDERS[w].id: _price(book.wonder(w), coins)
                    for w in me.unbuilt},
    }


def _price(payment: costs.Payment, coins: int) -> dict[str, Any]:
    total = payment.total
    return {"total": total, "coins": payment.coins, "trade": payment.trade,
            "chain": payment.chain, "affordable": total <= coins}


def view(game: Game, seat: int | None, *, reveal: bool = False) -> dict[str, Any]:
    """The game as ``seat`` (0 or 1) sees it; ``None`` for a spectator.

    With ``reveal`` (for admins only), the hidden identities are shown too: each face-down
    card of the structure keeps ``face_up: false`` but has its ``card`` and
    ``"revealed": true``; the Great Library's draw is in the decision whoever looks; and
    ``hidden`` lists the cards removed at setup (by age, and the guilds not in play), the
    decks of the ages not laid out yet, the progress tokens in the box, the Great Library's
    draw, the wonders out of the game and the second draft round before it is offered.

    During the play phase a seat's view also holds ``prices`` (see :func:`seat_prices`): what
    each accessible card and each of its unbuilt wonders would cost it now, on either
    seat's turn. A spectator's view has none: the board draws prices for its "you"."""
    state = game.state
    outcome = game.outcome()
    out: dict[str, Any] = {
        "viewer": seat,
        "phase": _PHASES[state.phase],
        "age": state.age,
        "first_player": state.first_player,
        "to_act": game.to_act,
        "decision": _decision(game, seat, reveal),
        "players": [_player(state, 0), _player(state, 1)],
        "military": {
            "pawn": state.pawn,
            "loot_tokens": [
                {"seat": s, "coins": coins, "available": state.loot[s][zone]}
                for s in (0, 1) for zone, coins in enumerate((2, 5))
            ],
        },
        "progress_board": _ids(state.board_tokens, TOKENS),
        "structure": _structure(state, reveal),
        "cards_left": state.cards_left,
        "discard": _ids(state.discard, CARDS),
        "wonders_built": state.wonders_built,
        "outcome": outcome.to_json() if outcome is not None else None,
    }
    if state.phase == Phase.DRAFT:
        out["draft"] = {"round": 1 if state.draft_step < 4 else 2,
                        "offer": _ids(state.draft_offer, WONDERS)}
    if seat is not None:
        out["can_take_back"] = game.can_take_back(seat)
        book = PaymentBook(game, seat)  # each payment worked out once for the whole view
        if state.phase == Phase.PLAY:
            out["prices"] = seat_prices(game, seat, book)
        if game.to_act == seat:
            out["legal_actions"] = legal_actions_with_costs(game, book)
            out["card_options"] = card_options(game, book)
    if reveal:
        out["hidden"] = _hidden(game)
    return out
