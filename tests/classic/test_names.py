"""The names of the 7 Wonders (3 to 7 players) cards and boards in Romanian, Portuguese,
Hungarian and Serbian (app/classic/data/names/<code>.toml), as docs/languages.md ("The
3-to-7-player game") says they are chosen: whole, distinct, the rulebooks' own where they
print one (checked against the rulebooks' lines), the Duel's where the Duel has the card, and
the boards named by their wonder and city."""

from __future__ import annotations

import tomllib
import unicodedata
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import pytest

from app.classic.cards import BOARDS, CARDS
from app.engine.cards import CARDS as DUEL_CARDS

ROOT = Path(__file__).resolve().parents[2]
NAMES = ROOT / "app" / "classic" / "data" / "names"
DUEL_NAMES = ROOT / "app" / "engine" / "data" / "names"
CODES = ("ro", "pt", "hu", "sr")
SOFT_HYPHEN = "\u00ad"


class Printed(NamedTuple):
    """A name a rulebook prints: the card or board, the name, the line of the rulebook that
    prints it and, where the OCR text garbles it, what that line shows instead."""

    id: str
    name: str
    line: int
    seen: str = ""


RULEBOOKS = {"ro": "7wonders-rules-ro.txt", "pt": "7wonders-rules-pt.txt",
             "hu": "7wonders-rules-hu.txt"}

# The Romanian first edition names its cards in English: its card list (L769-L951) shows the
# English-printed cards, its text and guild list name them so. Theater and Gardens are only in
# an OCR-damaged chain example (L299, L302) and are left out.
ROMANIAN_CARDS = [
    Printed("lumber_yard", "Lumber Yard", 769), Printed("stone_pit", "Stone Pit", 772),
    Printed("clay_pool", "Clay Pool", 775), Printed("ore_vein", "Ore Vein", 778),
    Printed("tree_farm", "Tree Farm", 781), Printed("excavation", "Excavation", 785),
    Printed("clay_pit", "Clay Pit", 789), Printed("timber_yard", "Timber Yard", 192),
    Printed("mine", "Mine", 92), Printed("loom", "Loom", 820),
    Printed("glassworks", "Glassworks", 831, "CLASSWORKS"), Printed("press", "Press", 844),
    Printed("baths", "Baths", 92), Printed("altar", "Altar", 433),
    Printed("tavern", "Tavern", 877), Printed("east_trading_post", "East Trading Post", 879),
    # The card list's West (its text says "Western Trading Post" at L1016, as "Eastern").
    Printed("west_trading_post", "West Trading Post", 883, "DINC. POST"),
    Printed("marketplace", "Marketplace", 92), Printed("stockade", "Stockade", 903),
    Printed("barracks", "Barracks", 198), Printed("guard_tower", "Guard Tower", 908, "UbARD TOWER"),
    Printed("apothecary", "Apothecary", 102), Printed("workshop", "Workshop", 932),
    Printed("scriptorium", "Scriptorium", 109), Printed("sawmill", "Sawmill", 795),
    Printed("quarry", "Quarry", 797), Printed("brickyard", "Brickyard", 800),
    Printed("foundry", "Foundry", 805),
    # The card list's spelling; the text writes "Aquaduct" (L201, L434).
    Printed("aqueduct", "Aqueduct", 862, "AC;UEDUCT"), Printed("temple", "Temple", 864),
    Printed("statue", "Statue", 870), Printed("courthouse", "Courthouse", 110),
    Printed("forum", "Forum", 276), Printed("caravansery", "Caravansery", 886, "CARAVAI\\gRY"),
    Printed("vineyard", "Vineyard", 889), Printed("bazar", "Bazar", 1148),
    Printed("training_ground", "Training Ground", 915), Printed("stables", "Stables", 921),
    Printed("laboratory", "Laboratory", 934, "g.:AgORATORY"), Printed("library", "Library", 110),
    Printed("school", "School", 949, "$CHOOL"),
    # The Town Hall and the Haven under the names the rulebook gives them.
    Printed("town_hall", "City Hall", 434, "Gity Hall"), Printed("palace", "Palace", 722, "ALACE"),
    Printed("haven", "Port", 1087), Printed("lighthouse", "Lighthouse", 1087),
    Printed("chamber_of_commerce", "Chamber of Commerce", 492), Printed("arena", "Arena", 93),
    Printed("fortifications", "Fortifications", 912), Printed("circus", "Circus", 915),
    Printed("arsenal", "Arsenal", 918), Printed("siege_workshop", "Siege Workshop", 932),
    Printed("observatory", "Observatory", 936), Printed("university", "University", 943),
    Printed("academy", "Academy", 946), Printed("study", "Study", 951),
    Printed("spies_guild", "Spies Guild", 1105),
    Printed("magistrates_guild", "Magistrates Guild", 1110),
    Printed("workers_guild", "Workers Guild", 1112),
    Printed("craftsmens_guild", "Craftmans Guild", 1114),
    Printed("traders_guild", "Traders Guild", 1116),
    Printed("philosophers_guild", "Philosophers Guild", 1118),
    Printed("builders_guild", "Builders Guild", 1126),
    Printed("shipowners_guild", "Shipowners Guild", 1130),
    Printed("strategists_guild", "Strategists Guild", 1136),
    # Also "Science Guild" in passing (L462); the guild list's name is kept.
    Printed("scientists_guild", "Scientists Guild", 1140),
]
# The boards as its wonder descriptions print them (its text has no diacritics).
ROMANIAN_BOARDS = [
    Printed("rhodos", "Colosul din Rodos", 665), Printed("alexandria", "Farul din Alexandria", 665),
    Printed("ephesos", "Templul lui Artemis din Efes", 665),
    Printed("babylon", "Grădinile suspendate din Babilon", 670),
    Printed("olympia", "Statuia lui Zeus din Olimp", 670),
    Printed("halikarnassos", "Mausoleul din Halicarnas", 670),
    Printed("gizah", "Piramidele din Ghiza", 676),
]
PORTUGUESE_CARDS = [
    Printed("marketplace", "Mercado", 88), Printed("mine", "Mina", 88),
    Printed("baths", "Banheiros", 89), Printed("arena", "Arena", 90),
    Printed("stables", "Estábulos", 95), Printed("apothecary", "Farmacêutico", 96),
    Printed("scriptorium", "Scriptorium", 99), Printed("library", "Biblioteca", 100),
    Printed("courthouse", "Palácio de Justiça", 100),
    Printed("timber_yard", "Exploração Florestal", 148),
    Printed("east_trading_post", "Casa de Comércio Oriental", 151),
    Printed("barracks", "Quartel", 163), Printed("aqueduct", "Aqueduto", 168),
    Printed("university", "Universidade", 197), Printed("forum", "Foro", 205),
    Printed("theater", "Teatro", 218), Printed("statue", "Estátua", 219),
    Printed("gardens", "Jardins", 221), Printed("altar", "Altar", 364),
    # Printed "Assembléia": the same word before the 2009 spelling reform.
    Printed("town_hall", "Assembleia Municipal", 365),
    Printed("chamber_of_commerce", "Câmara de Comércio", 393),
    Printed("west_trading_post", "Casa de Comércio Ocidental", 743),
    Printed("vineyard", "Vinhedo", 757), Printed("bazar", "Bazar", 760),
    Printed("haven", "Porto", 777), Printed("lighthouse", "Farol", 777),
    Printed("spies_guild", "Grêmio de Espiões", 784),
    Printed("magistrates_guild", "Grêmio de Magistrados", 785),
    Printed("workers_guild", "Grêmio de Trabalhadores", 786),
    Printed("craftsmens_guild", "Grêmio de Artesãos", 787),
    Printed("traders_guild", "Grêmio de Comerciantes", 788),
    Printed("philosophers_guild", "Grêmio de Filósofos", 789),
    Printed("builders_guild", "Grêmio de Construtores", 791),
    Printed("shipowners_guild", "Grêmio de Donos de Barcos (Barqueiros)", 793),
    Printed("strategists_guild", "Grêmio de Estrategistas", 795),
    Printed("scientists_guild", "Grêmio de Cientistas", 796),
]
# Side A's list, with their articles; the Lighthouse's article as at L348 (L516 omits it).
PORTUGUESE_BOARDS = [
    Printed("rhodos", "O Colosso de Rodes", 504),
    Printed("alexandria", "O Farol de Alexandria", 348),
    Printed("ephesos", "O Templo de Artemis em Éfeso", 525),
    Printed("babylon", "Os Jardins Suspensos de Babilônia", 507),
    Printed("olympia", "A Estátua de Zeus no Olimpo", 520),
    Printed("halikarnassos", "O Mausoléu de Halicarnasso", 530),
    Printed("gizah", "As Pirâmides de Gizé", 513),
]
# The second edition's examples and figures, for cards that are the same in the first
# (identified in names.csv); the text inflects some and the OCR drops accents.
HUNGARIAN_CARDS = [
    Printed("school", "Iskola", 73), Printed("guard_tower", "Őrtorony", 337, "GRTORONY"),
    Printed("lumber_yard", "Fakitermelés", 367), Printed("excavation", "Ásatás", 377),
    Printed("stockade", "Cölöpkerítés", 395), Printed("barracks", "Barakk", 409),
    Printed("scriptorium", "Scriptorium", 410), Printed("ore_vein", "Ércforrás", 414),
    Printed("theater", "Színház", 466, "Szinhdzat"), Printed("gardens", "Kertek", 467),
]
PRINTED = {
    "ro": ROMANIAN_CARDS + ROMANIAN_BOARDS,
    "pt": PORTUGUESE_CARDS + PORTUGUESE_BOARDS,
    "hu": HUNGARIAN_CARDS,
}
# Where a printed name is not ours, and why (docs/languages.md).
DEPARTURES = {
    # A slip for the card's own name: the Romanians' English cards print Craftsmens Guild.
    ("ro", "craftsmens_guild"): "Craftsmens Guild",
    # "Banheiros" reads as "restrooms" in Brazil; the Duel's Baths are Termas too.
    ("pt", "baths"): "Termas",
    # The bracketed alternative dropped, as in the Duel.
    ("pt", "shipowners_guild"): "Grêmio de Donos de Barcos",
}
# Where a Duel card of the same English name is named otherwise: the rulebook prints another.
NOT_AS_IN_THE_DUEL = {("ro", "town_hall")}

# Each board's city as the board's name writes it, and the Duel's name of its wonder.
CITIES = {
    "ro": ("Rodos", "Alexandria", "Efes", "Babilon", "Olimp", "Halicarnas", "Ghiza"),
    "pt": ("Rodes", "Alexandria", "Éfeso", "Babilônia", "Olimpo", "Halicarnasso", "Gizé"),
    "hu": ("Rodoszi", "Alexandriai", "Epheszoszi", "Babiloni", "Olümpiai", "Halikarnasszoszi",
           "Gízai"),
    "sr": ("Rodosa", "Aleksandriji", "Efesu", "Vavilonu", "Olimpiji", "Halikarnasu", "Gizi"),
}
BOARD_IDS = ("rhodos", "alexandria", "ephesos", "babylon", "olympia", "halikarnassos", "gizah")
DUEL_WONDERS = {
    "rhodos": "the_colossus", "alexandria": "the_great_lighthouse",
    "ephesos": "the_temple_of_artemis", "babylon": "the_hanging_gardens",
    "olympia": "the_statue_of_zeus", "halikarnassos": "the_mausoleum", "gizah": "the_pyramids",
}
GREAT = ("Veliki ", "Nagy ")


def _names(code: str, folder: Path = NAMES) -> dict[str, dict[str, str]]:
    with (folder / f"{code}.toml").open("rb") as file:
        return tomllib.load(file)


def _plain(text: str) -> str:
    """A name as the OCR text of a rulebook can show it: no accents, no case, no soft hyphens."""
    decomposed = unicodedata.normalize("NFKD", text.replace(SOFT_HYPHEN, ""))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


@pytest.mark.parametrize("code", CODES)
def test_every_card_and_board_has_one_name_and_no_other(code: str) -> None:
    names = _names(code)
    assert set(names) == {"cards", "boards"}
    assert sorted(names["cards"]) == sorted({card.id for card in CARDS})
    assert sorted(names["boards"]) == sorted(board.id for board in BOARDS) == sorted(BOARD_IDS)
    for kind in names.values():
        for id_, name in kind.items():
            assert isinstance(name, str) and name and name.strip() == name, (code, id_)
            assert "  " not in name and not name.startswith(SOFT_HYPHEN), (code, id_)


@pytest.mark.parametrize("code", CODES)
def test_no_two_cards_of_an_age_share_a_name(code: str) -> None:
    """Guilds are shuffled into the Age III deck. Loom, Glassworks and Press are in Age I and
    Age II under one id, so one name."""
    names = _names(code)["cards"]
    for age in (1, 2, 3):
        ids = {card.id for card in CARDS if card.age == age}
        counts = Counter(_plain(names[id_]) for id_ in ids)
        assert [name for name, count in counts.items() if count > 1] == [], (code, age)
    # Across the ages too: a name always means one card.
    assert len({_plain(name) for name in names.values()}) == len(names), code


@pytest.mark.parametrize("code", sorted(PRINTED))
def test_the_names_the_rulebooks_print_are_ours(code: str) -> None:
    names = _names(code)
    for printed in PRINTED[code]:
        kind = "boards" if printed.id in BOARD_IDS else "cards"
        expected = DEPARTURES.get((code, printed.id), printed.name)
        assert names[kind][printed.id].replace(SOFT_HYPHEN, "") == expected, (code, printed)
    assert {key for key in DEPARTURES if key[0] == code} <= \
        {(code, printed.id) for printed in PRINTED[code]}


@pytest.mark.parametrize("code", sorted(PRINTED))
def test_the_table_of_printed_names_is_what_the_rulebooks_say(rulebooks: Path, code: str) -> None:
    lines = (rulebooks / RULEBOOKS[code]).read_text(encoding="utf-8").splitlines()
    for printed in PRINTED[code]:
        line = lines[printed.line - 1]
        assert _plain(printed.seen or printed.name) in _plain(line), (code, printed, line)
    assert len({printed.id for printed in PRINTED[code]}) == len(PRINTED[code])


@pytest.mark.parametrize("code", CODES)
def test_a_card_the_duel_has_keeps_the_duel_s_name(code: str) -> None:
    """Same English name, same name, unless a rulebook of this game prints another."""
    ours, duel = _names(code)["cards"], _names(code, DUEL_NAMES)["cards"]
    duel_by_english = {card.name: duel[card.id] for card in DUEL_CARDS}
    shared = [card for card in CARDS if card.name in duel_by_english]
    assert len({card.id for card in shared}) == 50
    for card in shared:
        if (code, card.id) not in NOT_AS_IN_THE_DUEL:
            assert ours[card.id] == duel_by_english[card.name], (code, card.id)
        else:
            assert ours[card.id] != duel_by_english[card.name], (code, card.id)


@pytest.mark.parametrize("code", CODES)
def test_a_board_is_its_wonder_and_its_city(code: str) -> None:
    """The Duel's name of the wonder (the Lighthouse without its "Great": the city says which)
    with the city added; never a card's name."""
    names = _names(code)
    wonders = _names(code, DUEL_NAMES)["wonders"]
    cards = {_plain(name) for name in names["cards"].values()}
    for board, city in zip(BOARD_IDS, CITIES[code], strict=True):
        name = _plain(names["boards"][board])
        wonder = wonders[DUEL_WONDERS[board]]
        for great in GREAT:
            wonder = wonder.removeprefix(great)
        assert _plain(city) in name.split(), (code, board)
        assert _plain(wonder) in name, (code, board, wonder)
        assert name not in cards, (code, board)
