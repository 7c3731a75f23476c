"""Record the golden games: seeded games that together cover every way a game can go.

    python -m tests.engine.golden.record          # rewrites tests/engine/golden/*.json

Searches seeded games played by biased random choosers (a favourite colour, wonders first,
science tokens first, ...) and keeps each game that covers something the kept ones do not,
until everything is covered (:func:`coverage`): the three victories (and a shared one), every
wonder built, every progress token taken (from the board and from the Great Library), the
Mausoleum and both destroy effects. Each file holds the seed, the options, the action log,
what the game shows (:func:`coverage`) and what it must end with. Record again only when a
rule change is intended (and then bump ``ENGINE_VERSION``); tests/engine/test_golden.py
fails on any other change.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from app.engine import (
    CARD_BY_ID,
    ENGINE_VERSION,
    FORFEITS,
    TOKENS,
    WONDERS,
    Action,
    BuildCard,
    BuildWonder,
    ChooseProgressToken,
    Event,
    Game,
    Options,
    Victory,
    events_json,
)
from app.engine.events import (
    CardBuiltFromDiscard,
    CardDestroyed,
    GameEnded,
    ProgressTokenTaken,
    WonderBuilt,
)

HERE = Path(__file__).resolve().parent
MAX_ACTIONS = 200
MIN_GAMES = 30

Chooser = Callable[[list[Action], random.Random], Action]


def _prefer(wanted: Callable[[Action], bool]) -> Chooser:
    def choose(legal: list[Action], rng: random.Random) -> Action:
        preferred = [a for a in legal if wanted(a)]
        return rng.choice(preferred or legal)
    return choose


def _colour(name: str) -> Callable[[Action], bool]:
    return lambda a: isinstance(a, BuildCard) and CARD_BY_ID[a.card].color.name.lower() == name


CHOOSERS: dict[str, Chooser] = {
    "uniform": lambda legal, rng: rng.choice(legal),
    "green": _prefer(_colour("green")),
    "red": _prefer(_colour("red")),
    "blue": _prefer(_colour("blue")),
    "wonders": _prefer(lambda a: isinstance(a, BuildWonder)),
    "builder": _prefer(lambda a: isinstance(a, BuildCard | BuildWonder)),
    "scholar": _prefer(lambda a: (isinstance(a, ChooseProgressToken) and a.token == "law")
                       or _colour("green")(a)),
}
"""How each kind of player picks among the legal actions (ties broken by its generator)."""

OPTIONS = (Options(), Options(first_player=0), Options(first_player=1),
           Options(wonder_selection="first_game"))


def play(seed: int, options: Options, chooser: str) -> tuple[Game, list[list[Event]]]:
    """A seeded game of ``chooser``; returns it and each action's events."""
    game = Game.new(seed, options)
    rng = random.Random(f"{chooser}:{seed}")
    choose = CHOOSERS[chooser]
    events: list[list[Event]] = []
    while not game.is_over and len(game.log) < MAX_ACTIONS:
        events.append(game.apply(choose(game.legal_actions(), rng)))
    return game, events


def events_digest(events: Iterable[list[Event]]) -> str:
    """A digest of every event of a game, private fields included."""
    text = json.dumps([events_json(e) for e in events], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def coverage(events: Iterable[list[Event]]) -> set[str]:
    """What a game shows, as names: ``victory:<kind>`` (``victory:shared``),
    ``wonder:<id>`` built, ``token:<id>`` taken, ``library:<id>`` taken from the Great
    Library's draw, ``mausoleum`` and ``destroy:<wonder>``."""
    out: set[str] = set()
    destroyer = ""
    for action_events in events:
        for event in action_events:
            if isinstance(event, WonderBuilt):
                out.add(f"wonder:{event.wonder}")
                destroyer = event.wonder
            elif isinstance(event, ProgressTokenTaken):
                out.add(f"token:{event.token}")
                if event.source == "great_library":
                    out.add(f"library:{event.token}")
            elif isinstance(event, CardBuiltFromDiscard):
                out.add("mausoleum")
            elif isinstance(event, CardDestroyed):
                out.add(f"destroy:{destroyer}")
            elif isinstance(event, GameEnded):
                out.add(f"victory:{event.victory}")
                if event.winner is None:
                    out.add("victory:shared")
    return out


REQUIRED: frozenset[str] = frozenset(
    {f"victory:{kind}" for kind in Victory if kind not in FORFEITS}
    | {"victory:shared", "mausoleum"}
    | {f"wonder:{w.id}" for w in WONDERS} | {f"token:{t.id}" for t in TOKENS}
    | {"destroy:the_statue_of_zeus", "destroy:circus_maximus"}
)
"""What the golden games must cover together; a token from the Great Library counts too, but
not every token can be required there (the draw is random)."""
LIBRARY_TOKENS_REQUIRED = 3
"""At least this many different tokens taken from the Great Library's draw."""


def record(game: Game, events: list[list[Event]], chooser: str) -> dict[str, Any]:
    outcome = game.outcome()
    assert outcome is not None
    return {
        "engine_version": ENGINE_VERSION,
        "seed": game.seed,
        "options": game.options.to_json(),
        "chooser": chooser,
        "actions": [str(a) for a in game.log],
        "shows": sorted(coverage(events)),
        "expected": {
            "state_hash": game.state_hash(),
            "events_digest": events_digest(events),
            "winner": outcome.winner,
            "victory": outcome.victory.value,
            "totals": [sheet.total for sheet in outcome.scores],
        },
    }


def _missing(covered: set[str], library: set[str]) -> set[str]:
    missing = set(REQUIRED - covered)
    if len(library) < LIBRARY_TOKENS_REQUIRED:
        missing.add("library")
    return missing


def search(max_seed: int) -> list[dict[str, Any]]:
    """Greedy: keep each game that adds coverage, until everything is covered, then fill up
    to MIN_GAMES with games of each chooser."""
    kept: list[dict[str, Any]] = []
    covered: set[str] = set()
    library: set[str] = set()
    spare: list[dict[str, Any]] = []
    for seed in range(max_seed):
        for chooser in CHOOSERS:
            options = OPTIONS[seed % len(OPTIONS)]
            game, events = play(seed, options, chooser)
            if not game.is_over:
                continue
            shows = coverage(events)
            new_library = {s for s in shows if s.startswith("library:")} - library
            if (shows & REQUIRED) - covered or (new_library and len(library)
                                                 < LIBRARY_TOKENS_REQUIRED):
                kept.append(record(game, events, chooser))
                covered |= shows
                library |= {s for s in shows if s.startswith("library:")}
            elif len(spare) < MIN_GAMES and seed % 5 == 0:
                spare.append(record(game, events, chooser))
        if not _missing(covered, library) and len(kept) + len(spare) >= MIN_GAMES:
            break
    missing = _missing(covered, library)
    if missing:
        raise SystemExit(f"not covered within {max_seed} seeds: {sorted(missing)}")
    return kept + spare[: max(0, MIN_GAMES - len(kept))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-seed", type=int, default=20_000)
    args = parser.parse_args()
    games = search(args.max_seed)
    for old in HERE.glob("*.json"):
        old.unlink()
    for game in games:
        name = f"{game['chooser']}-{game['seed']}.json"
        (HERE / name).write_text(json.dumps(game, indent=1) + "\n")
    print(f"{len(games)} games written to {HERE}")


if __name__ == "__main__":
    main()
