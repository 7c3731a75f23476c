"""Replay a game record and check it: ``python -m app.engine.replay FILE``.

FILE is a record as the server gives it (``GET /api/games/{id}/record``, JSON or text:
docs/records.md). Prints the result and the score table, and exits 1, saying why, when
the record does not replay to its final state hash (a tampered record among others)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .record import RecordError, read, replay_record
from .scoring import score_table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", type=Path, help="the record (JSON or text)")
    args = parser.parse_args(argv)
    try:
        replayed = replay_record(read(args.file.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, RecordError) as error:
        print(f"{args.file}: {error}", file=sys.stderr)
        return 1
    print(f"{replayed.actions} actions replayed to state hash {replayed.state_hash}, "
          "as recorded")
    if replayed.outcome is None:
        print("the game is not over")
    else:
        print(score_table(replayed.outcome))
    return 0


if __name__ == "__main__":
    sys.exit(main())
