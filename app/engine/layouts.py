"""The three age structures as laid out on the table.

Each age lays 20 cards in rows. A card sits at a horizontal position ``x`` measured in half
card widths; the card at (row r, x) is covered by the cards at (r+1, x-1) and (r+1, x+1).
Rows are numbered from the one laid first (farthest from the players, row 0 here); odd rows
of the rulebook (even indices here) are dealt face up, the others face down. Slots are
numbered row by row, left to right.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Layout:
    age: int
    row: tuple[int, ...]
    """Row of each slot (0 = laid first, covered by everything below it)."""
    x: tuple[int, ...]
    face_up: tuple[bool, ...]
    """Whether the card in each slot is dealt face up."""
    covered_by: tuple[tuple[int, ...], ...]
    covers: tuple[tuple[int, ...], ...]
    cover_count: tuple[int, ...]
    """How many cards cover each slot when the age is laid out."""
    accessible: tuple[int, ...]
    """The slots nothing covers when the age is laid out."""

    @property
    def size(self) -> int:
        return len(self.row)

    def initially_accessible(self) -> tuple[int, ...]:
        return self.accessible


def _layout(age: int, rows: list[list[int]]) -> Layout:
    row_of: list[int] = []
    x_of: list[int] = []
    for r, xs in enumerate(rows):
        for x in xs:
            row_of.append(r)
            x_of.append(x)
    position = {(r, x): slot for slot, (r, x) in enumerate(zip(row_of, x_of, strict=True))}
    covered_by = tuple(
        tuple(position[(r + 1, nx)] for nx in (x - 1, x + 1) if (r + 1, nx) in position)
        for r, x in zip(row_of, x_of, strict=True)
    )
    covers = tuple(
        tuple(slot for slot in range(len(row_of)) if s in covered_by[slot])
        for s in range(len(row_of))
    )
    return Layout(
        age=age, row=tuple(row_of), x=tuple(x_of),
        face_up=tuple(r % 2 == 0 for r in row_of), covered_by=covered_by, covers=covers,
        cover_count=tuple(len(c) for c in covered_by),
        accessible=tuple(slot for slot, c in enumerate(covered_by) if not c),
    )


LAYOUTS: Final[dict[int, Layout]] = {
    # Age I: a pyramid of 2-3-4-5-6 cards.
    1: _layout(1, [[4, 6], [3, 5, 7], [2, 4, 6, 8], [1, 3, 5, 7, 9], [0, 2, 4, 6, 8, 10]]),
    # Age II: the inverted pyramid, 6-5-4-3-2.
    2: _layout(2, [[0, 2, 4, 6, 8, 10], [1, 3, 5, 7, 9], [2, 4, 6, 8], [3, 5, 7], [4, 6]]),
    # Age III: 2-3-4-2-4-3-2, the row of two leaving a gap in the middle.
    3: _layout(3, [[3, 5], [2, 4, 6], [1, 3, 5, 7], [2, 6], [1, 3, 5, 7], [2, 4, 6], [3, 5]]),
}
