"""The admin's revealed view: ``view(game, None, reveal=True)`` shows every identity the
players may not know, and nothing else differs from the spectator's view.

What is hidden is what the leak test says is hidden (``hidden_ids`` of
``tests/factories.py``): the revealed view must show exactly that set, each
face-down card in its own slot."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from app.engine import Game, Options, view
from app.engine.cards import CARDS, TOKENS
from app.engine.state import DecisionKind
from tests.factories import hidden_ids as _hidden_ids
from tests.factories import strings_in as _strings

pytestmark = pytest.mark.compiled

GAMES = 8
MAX_ACTIONS = 400


def _conceal(revealed: dict[str, Any]) -> dict[str, Any]:
    """The revealed view with every revealed identity taken out again, as a spectator
    would be sent it."""
    out = copy.deepcopy(revealed)
    del out["hidden"]
    for slot in out["structure"]:
        if slot.pop("revealed", False):
            slot["card"] = None
    decision = out["decision"]
    if decision is not None and decision["kind"] == "choose_library_token":
        decision["count"] = len(decision.pop("options"))
    return out


def _revealed_ids(revealed: dict[str, Any]) -> set[str]:
    shown = {slot["card"] for slot in revealed["structure"] if slot.get("revealed")}
    return shown | _strings(revealed["hidden"], keys=False)


def _check(game: Game) -> None:
    revealed = view(game, None, reveal=True)
    assert _conceal(revealed) == view(game, None)
    assert _revealed_ids(revealed) == _hidden_ids(game, None)
    state = game.state
    for slot in revealed["structure"]:
        if slot.get("revealed"):
            assert slot["face_up"] is False
            assert slot["card"] == CARDS[state.structure[slot["slot"]]].id
    decision = game.decision
    draw = revealed["hidden"]["library_draw"]
    if decision is not None and decision.kind == DecisionKind.CHOOSE_LIBRARY_TOKEN:
        tokens = [TOKENS[t].id for t in decision.options]
        assert draw == {"seat": decision.seat, "tokens": tokens}
        assert revealed["decision"]["options"] == tokens
    else:
        assert draw is None


def _fond_of_the_great_library(game: Game, chooser: random.Random) -> Any:
    """A random legal action, The Great Library's pick or build whenever possible (its
    private draw is the rarest hidden thing)."""
    legal = game.legal_actions()
    library = [a for a in legal if getattr(a, "wonder", None) == "the_great_library"]
    return chooser.choice(library or legal)


@pytest.mark.parametrize("seed", range(GAMES))
def test_revealed_view_shows_exactly_the_hidden_identities(seed: int) -> None:
    options = Options(wonder_selection="first_game" if seed % 4 == 3 else "draft")
    game = Game.new(1000 + seed, options)
    chooser = random.Random(seed)
    _check(game)
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            break
        game.apply(_fond_of_the_great_library(game, chooser))
        _check(game)
    assert game.is_over


def test_the_great_library_draw_is_revealed_to_the_admin_only() -> None:
    for seed in range(200):
        game = Game.new(seed)
        chooser = random.Random(seed)
        while not game.is_over:
            decision = game.decision
            if decision is not None and decision.kind == DecisionKind.CHOOSE_LIBRARY_TOKEN:
                tokens = [TOKENS[t].id for t in decision.options]
                other = 1 - decision.seat
                assert set(tokens).isdisjoint(_strings(view(game, other)))
                assert set(tokens).isdisjoint(_strings(view(game, None)))
                assert view(game, None, reveal=True)["decision"]["options"] == tokens
                return
            game.apply(_fond_of_the_great_library(game, chooser))
    pytest.fail("no game drew tokens with The Great Library")


def test_setup_secrets_are_listed_by_kind() -> None:
    game = Game.new(5, Options(first_player=0))
    hidden = view(game, None, reveal=True)["hidden"]
    state = game.state
    removed = hidden["removed_cards"]
    assert [len(removed[key]) for key in ("age1", "age2", "age3", "guilds")] == [3, 3, 3, 4]
    assert all(CARDS[c].is_guild for c in state.removed_cards[9:])
    assert hidden["decks"] == {f"age{age}": [CARDS[c].id for c in state.decks[age]]
                               for age in (1, 2, 3)}
    assert len(hidden["box_tokens"]) == 5
    assert len(hidden["unused_wonders"]) == 4
    assert len(hidden["draft_round_2"]) == 4
    assert "hidden" not in view(game, None)
    assert "hidden" not in view(game, 0)
