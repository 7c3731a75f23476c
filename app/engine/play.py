"""Play one seeded random game in the terminal: ``python -m app.engine.play [--seed N]``.

Every move is chosen uniformly among the legal ones; the log shows each action in notation
with the events it caused, then the final score table.
"""

from __future__ import annotations

import argparse
import random
import sys

from . import Game, Options
from .scoring import score_table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=None, help="game seed (default: random)")
    parser.add_argument("--first-game", action="store_true", help="first-game wonders, no draft")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    options = Options(wonder_selection="first_game" if args.first_game else "draft")
    game = Game.new(seed, options)
    chooser = random.Random(seed)
    print(f"seed {seed}, first player: seat {game.state.first_player}")
    while not game.is_over:
        seat = game.to_act
        action = chooser.choice(game.legal_actions())
        events = game.apply(action)
        details = ", ".join(e.TYPE for e in events)
        print(f"  seat {seat}: {action!s:<44} {details}")
    outcome = game.outcome()
    assert outcome is not None
    print(f"\n{score_table(outcome)}")
    print(f"state hash {game.state_hash()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
