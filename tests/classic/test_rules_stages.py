"""Every stage of both sides of the seven boards, built through a turn: what it gives.

Side A (RO L659-678, PT L496-539): stage 1 = 3 points, stage 3 = 7 points, stage 2 the
board's power. Side B (RO L681-712, PT L540-612)."""

from __future__ import annotations

import pytest

from app.classic.cards import CARDS, RESOURCES
from app.classic.scenario import coins, hand, put, stages, table

from .helpers import close, legal, pile, produce, sheet

# (board, side, stage): (points, coins, shields, power, the rulebook lines)
STAGES = {
    ("rhodos", "A", 1): (3, 0, 0, None, "RO L661, PT L501"),
    ("rhodos", "A", 2): (0, 0, 2, None, "RO L665-666, PT L504-506"),
    ("rhodos", "A", 3): (7, 0, 0, None, "RO L662, PT L502"),
    ("rhodos", "B", 1): (3, 3, 1, None, "RO L685-686, PT L544-546"),
    ("rhodos", "B", 2): (4, 4, 1, None, "RO L687, PT L547-548"),
    ("alexandria", "A", 1): (3, 0, 0, None, "RO L661, PT L501"),
    ("alexandria", "A", 2): (0, 0, 0, "raw_choice", "RO L665-667, PT L516-519"),
    ("alexandria", "A", 3): (7, 0, 0, None, "RO L662, PT L502"),
    ("alexandria", "B", 1): (0, 0, 0, "raw_choice", "RO L685-686, PT L575-577"),
    ("alexandria", "B", 2): (0, 0, 0, "goods_choice", "RO L687-688, PT L578-580"),
    ("alexandria", "B", 3): (7, 0, 0, None, "RO L689, PT L581"),
    ("ephesos", "A", 1): (3, 0, 0, None, "RO L661, PT L501"),
    ("ephesos", "A", 2): (0, 9, 0, None, "RO L665-666, PT L525-529"),
    ("ephesos", "A", 3): (7, 0, 0, None, "RO L662, PT L502"),
    ("ephesos", "B", 1): (2, 4, 0, None, "RO L685, PT L600-602"),
    ("ephesos", "B", 2): (3, 4, 0, None, "RO L686, PT L603-604"),
    ("ephesos", "B", 3): (5, 4, 0, None, "RO L687-689, PT L605-607"),
    ("babylon", "A", 1): (3, 0, 0, None, "RO L661, PT L501"),
    ("babylon", "A", 2): (0, 0, 0, "wildcard", "RO L670-672, PT L507-512"),
    ("babylon", "A", 3): (7, 0, 0, None, "RO L662, PT L502"),
    ("babylon", "B", 1): (3, 0, 0, None, "RO L694, PT L551"),
    ("babylon", "B", 2): (0, 0, 0, "seventh", "RO L695-698, PT L552-556"),
    ("babylon", "B", 3): (0, 0, 0, "wildcard", "RO L699, PT L557-566"),
    ("olympia", "A", 1): (3, 0, 0, None, "RO L661, PT L501"),
    ("olympia", "A", 2): (0, 0, 0, "free_build", "RO L671, PT L520-522"),
    ("olympia", "A", 3): (7, 0, 0, None, "RO L662, PT L502"),
    ("olympia", "B", 1): (0, 0, 0, "discount", "RO L694-696, PT L585-587"),
    ("olympia", "B", 2): (5, 0, 0, None, "RO L697, PT L588"),
    ("olympia", "B", 3): (0, 0, 0, "copy_guild", "RO L698-699, PT L589-591"),
    ("halikarnassos", "A", 1): (3, 0, 0, None, "RO L661, PT L501"),
    ("halikarnassos", "A", 2): (0, 0, 0, "discard_build", "RO L671-674, PT L530-534"),
    ("halikarnassos", "A", 3): (7, 0, 0, None, "RO L662, PT L502"),
    ("halikarnassos", "B", 1): (2, 0, 0, "discard_build", "RO L694-696, PT L609-612"),
    ("halikarnassos", "B", 2): (1, 0, 0, "discard_build", "RO L697-698, PT L613-615"),
    ("halikarnassos", "B", 3): (0, 0, 0, "discard_build", "RO L700-703, PT L616-618"),
    ("gizah", "A", 1): (3, 0, 0, None, "RO L661, PT L501"),
    ("gizah", "A", 2): (5, 0, 0, None, "RO L676-678, PT L513-515"),
    ("gizah", "A", 3): (7, 0, 0, None, "RO L662, PT L502"),
    ("gizah", "B", 1): (3, 0, 0, None, "RO L710-712, PT L571-573"),
    ("gizah", "B", 2): (5, 0, 0, None, "RO L710-712, PT L571-573"),
    ("gizah", "B", 3): (5, 0, 0, None, "RO L710-712, PT L571-573"),
    ("gizah", "B", 4): (7, 0, 0, None, "RO L710-712, PT L571-573"),
}


@pytest.mark.parametrize(("board", "side", "number"), list(STAGES),
                         ids=[f"{b}-{s}{n}" for b, s, n in STAGES])
def test_every_stage(board: str, side: str, number: int) -> None:
    points, gained, shields, power, _lines = STAGES[board, side, number]
    others = [b for b in ("gizah", "rhodos", "olympia", "babylon") if b != board][:2]
    game = table(board, *others, sides=side)
    stages(game, 0, number - 1)
    city = game.cities[0]
    stage = city.stages[number - 1]
    produce(game, 0, **{RESOURCES[r]: n for r, n in enumerate(stage.cost) if n})
    pile(game, "altar")
    before = (sheet(game, 0).wonder, city.coins, city.shields, sheet(game, 0).science)
    hand(game, 0, "palace", "tavern")
    close(game, {0: "wonder:palace:0:0"})
    assert city.built == number and CARDS[city.tucked[-1]].id == "palace"
    assert sheet(game, 0).wonder - before[0] == points
    assert city.coins - before[1] == gained
    assert city.shields - before[2] == shields
    if power == "raw_choice":
        coins(game, 0, 0)
        hand(game, 0, "stockade")  # wood: neither neighbour makes it
        assert legal(game, 0)[0] == "build:stockade:0:0"
    elif power == "goods_choice":
        coins(game, 0, 0)
        hand(game, 0, "scriptorium")  # papyrus: neither neighbour makes it
        assert legal(game, 0)[0] == "build:scriptorium:0:0"
    elif power == "wildcard":
        assert sheet(game, 0).science - before[3] == 1  # a symbol of choice alone: 1
    elif power == "seventh":
        assert city.seventh
    elif power == "free_build":
        hand(game, 0, "palace")
        assert "olympia:palace" in legal(game, 0)
    elif power == "discount":
        put(game, 1, "stone_pit")
        hand(game, 0, "baths")
        assert [a for a in legal(game, 0) if a.startswith("build")] == ["build:baths:1:0"]
    elif power == "copy_guild":
        put(game, 1, "magistrates_guild")
        put(game, 2, "altar")
        assert sheet(game, 0).copied_guild == "magistrates_guild"
    elif power == "discard_build":
        assert game.phase == "discard_build" and game.interrupt == 0
        game.apply(0, "halikarnassos:altar")
        assert "altar" in city.names
    else:
        assert power is None
