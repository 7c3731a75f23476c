"""The names of the wonders in other languages follow the documented rule (docs/languages.md,
"Names and terms"): a wonder of the base game is named as the base-game rulebook of the
language names its board, without its city; unless that would give it a card's name, when
the board's whole name is kept. No wonder bears a card's name in any language."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

NAMES = Path(__file__).resolve().parents[2] / "app" / "engine" / "data" / "names"

BOARDS = {
    # The Romanian base-game rulebook's boards (its wonder list and examples).
    "ro": {"the_colossus": "Colosul din Rodos", "the_great_lighthouse": "Farul din Alexandria",
           "the_hanging_gardens": "Grădinile suspendate din Babilon",
           "the_mausoleum": "Mausoleul din Halicarnas", "the_pyramids": "Piramidele din Ghiza",
           "the_statue_of_zeus": "Statuia lui Zeus din Olimp",
           "the_temple_of_artemis": "Templul lui Artemis din Efes"},
    # The Portuguese (Brazilian) base-game rulebook's.
    "pt": {"the_colossus": "O Colosso de Rodes", "the_great_lighthouse": "O Farol de Alexandria",
           "the_hanging_gardens": "Os Jardins Suspensos de Babilônia",
           "the_mausoleum": "O Mausoléu de Halicarnasso", "the_pyramids": "As Pirâmides de Gizé",
           "the_statue_of_zeus": "A Estátua de Zeus no Olimpo",
           "the_temple_of_artemis": "O Templo de Artemis em Éfeso"},
}
_CITY = re.compile(r" (?:din|de|no|em) [A-ZÉ][^ ]*$")
_ARTICLE = re.compile(r"^(?:O|A|Os|As) ")


def _names(code: str) -> dict[str, dict[str, str]]:
    with (NAMES / f"{code}.toml").open("rb") as file:
        return tomllib.load(file)


def _bare(name: str) -> str:
    return _ARTICLE.sub("", name).casefold()


@pytest.mark.parametrize("code", sorted(BOARDS))
def test_a_base_game_wonder_is_its_board_without_its_city(code: str) -> None:
    names = _names(code)
    cards = {_bare(name) for name in names["cards"].values()}
    for wonder, board in BOARDS[code].items():
        without_city = _CITY.sub("", board)
        assert without_city != board, board
        expected = board if _bare(without_city) in cards else without_city
        assert names["wonders"][wonder] == expected, (code, wonder)


@pytest.mark.parametrize("code", ["ro", "pt", "sr", "hu"])
def test_no_wonder_bears_a_card_s_name(code: str) -> None:
    names = _names(code)
    cards = {_bare(name) for name in names["cards"].values()}
    assert {_bare(name) for name in names["wonders"].values()} & cards == set()


def test_the_portuguese_baths_are_not_restrooms() -> None:
    """"Banheiros", the base-game rulebook's word, reads as "restrooms" in Brazil."""
    assert _names("pt")["cards"]["baths"] == "Termas"
