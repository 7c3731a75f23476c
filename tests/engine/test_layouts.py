"""The three age structures (app.engine.layouts.LAYOUTS) against the tables of
../shared/reference/pyramids.md, plus fixture-free checks and the structure as a game
shows it (what becomes accessible and is turned face up when cards are taken)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.engine.actions import ChooseStarter, DiscardCard
from app.engine.cards import CARDS
from app.engine.events import CardRevealed
from app.engine.layouts import LAYOUTS
from app.engine.scenario import finish_age, new_game

pytestmark = pytest.mark.compiled

AGES = {"I": 1, "II": 2, "III": 3}
INITIALLY_ACCESSIBLE = {1: (14, 15, 16, 17, 18, 19), 2: (18, 19), 3: (18, 19)}


def _slots(text: str) -> set[int]:
    text = text.strip()
    return set() if text in ("-", "") else {int(s) for s in text.split(",")}


def parse_pyramids(text: str) -> dict[int, dict[str, object]]:
    """{age: {"rows": [(slot, row, x, face_up, covered_by, covers)], "accessible": set}}."""
    out: dict[int, dict[str, object]] = {}
    age = None
    for line in text.splitlines():
        heading = re.match(r"## Age (I+)\b", line)
        if heading:
            age = AGES[heading.group(1)]
            out[age] = {"rows": [], "accessible": None}
            continue
        if line.startswith("## "):
            age = None
        if age is None:
            continue
        accessible = re.match(r"Accessible at the start of the Age: slots ([\d, ]+)\.", line)
        if accessible:
            out[age]["accessible"] = _slots(accessible.group(1))
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0].isdigit():
            slot, row, x, face, covered_by, covers = cells
            assert face in ("up", "down"), line
            out[age]["rows"].append(  # type: ignore[union-attr]
                (int(slot), int(row), int(x), face == "up", _slots(covered_by), _slots(covers))
            )
    return out


@pytest.fixture(scope="module")
def reference(reference_dir: Path) -> dict[int, dict[str, object]]:
    return parse_pyramids((reference_dir / "pyramids.md").read_text(encoding="utf-8"))


def test_reference_tables_parsed(reference: dict[int, dict[str, object]]) -> None:
    assert sorted(reference) == [1, 2, 3]
    for age in (1, 2, 3):
        rows = reference[age]["rows"]
        assert [r[0] for r in rows] == list(range(20)), age  # type: ignore[union-attr]
        assert reference[age]["accessible"], age


@pytest.mark.parametrize("age", [1, 2, 3])
def test_layout_matches_reference(reference: dict[int, dict[str, object]], age: int) -> None:
    layout = LAYOUTS[age]
    rows = reference[age]["rows"]
    assert layout.size == len(rows)  # type: ignore[arg-type]
    mismatches = []
    for slot, row, x, face_up, covered_by, covers in rows:  # type: ignore[union-attr]
        # The reference numbers rows from 1, the engine from 0.
        actual = (layout.row[slot] + 1, layout.x[slot], layout.face_up[slot],
                  set(layout.covered_by[slot]), set(layout.covers[slot]))
        expected = (row, x, face_up, covered_by, covers)
        if actual != expected:
            mismatches.append(f"age {age} slot {slot}: engine {actual}, reference {expected}")
    assert not mismatches, "\n".join(mismatches)
    assert set(layout.initially_accessible()) == reference[age]["accessible"]


# ---------------------------------------------------------------- fixture-free

@pytest.mark.parametrize("age", [1, 2, 3])
def test_twenty_slots_twelve_up_eight_down(age: int) -> None:
    layout = LAYOUTS[age]
    assert layout.size == 20
    assert len(layout.x) == len(layout.face_up) == len(layout.covered_by) == 20
    assert sum(layout.face_up) == 12
    assert layout.face_up.count(False) == 8


@pytest.mark.parametrize("age", [1, 2, 3])
def test_initially_accessible(age: int) -> None:
    assert LAYOUTS[age].initially_accessible() == INITIALLY_ACCESSIBLE[age]
    # Every card accessible at the start is face up: nobody takes a card blind.
    assert all(LAYOUTS[age].face_up[s] for s in INITIALLY_ACCESSIBLE[age])


@pytest.mark.parametrize("age", [1, 2, 3])
def test_covering_relations_are_consistent(age: int) -> None:
    layout = LAYOUTS[age]
    for slot in range(layout.size):
        for above in layout.covered_by[slot]:
            assert slot in layout.covers[above]
            assert layout.row[above] == layout.row[slot] + 1
            assert abs(layout.x[above] - layout.x[slot]) == 1
        for below in layout.covers[slot]:
            assert slot in layout.covered_by[below]
    # Slots are numbered row by row, left to right.
    order = sorted(range(layout.size), key=lambda s: (layout.row[s], layout.x[s]))
    assert order == list(range(layout.size))
    # Face-up rows alternate with face-down rows, starting face up.
    assert all(layout.face_up[s] == (layout.row[s] % 2 == 0) for s in range(layout.size))


def test_age_three_gap_in_the_middle() -> None:
    layout = LAYOUTS[3]
    # Each card of the third row is covered by exactly one of the two cards of row 4.
    assert [layout.covered_by[s] for s in (5, 6, 7, 8)] == [(9,), (9,), (10,), (10,)]
    assert [set(layout.covered_by[s]) for s in (9, 10)] == [{11, 12}, {13, 14}]


# ---------------------------------------------------------------- in a game

def test_taking_cards_uncovers_and_reveals() -> None:
    game = new_game(seed=3)
    state = game.state
    hidden = state.structure[9]
    assert state.face_up[9] is False
    game.apply(DiscardCard(CARDS[state.structure[14]].id))
    # Slot 9 is still covered by slot 15: not accessible, still face down.
    assert 9 not in state.accessible
    assert state.face_up[9] is False
    events = game.apply(DiscardCard(CARDS[state.structure[15]].id))
    assert 9 in state.accessible
    assert state.face_up[9] is True
    assert CardRevealed(age=1, slot=9, card=CARDS[hidden].id) in events
    # Slot 10 is still under slot 16.
    assert 10 not in state.accessible


def test_each_age_starts_with_its_layout() -> None:
    game = new_game(11)
    assert sorted(game.state.accessible) == list(INITIALLY_ACCESSIBLE[1])
    for age in (2, 3):
        finish_age(game)
        assert game.state.age == age
        assert sorted(game.state.accessible) == list(INITIALLY_ACCESSIBLE[age])
        assert game.state.face_up == list(LAYOUTS[age].face_up)
        assert game.state.cards_left == 20
        game.apply(ChooseStarter(0))
        accessible_cards = {CARDS[game.state.structure[s]].id for s in game.state.accessible}
        offered = {a.card for a in game.legal_actions() if isinstance(a, DiscardCard)}
        assert offered == accessible_cards
