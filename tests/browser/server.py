"""The browser tests' server: the application ``make run`` serves, dealing repeatable seeds.

conftest.py starts it as ``python -m tests.browser.server --host H --port P --test-file F``
in place of ``uvicorn --factory app.main:create_app --host H --port P``: the same
application, built from the same ``DUEL_*`` environment, served by uvicorn with the same
options. Two things differ, both for the tests alone (no production setting):

- each new game's seed is dealt from the name of the browser test running, which
  conftest.py writes to the file F before each test (``<n> <test name>``, ``n`` counting the
  tests of the session): the first game a test creates gets the same seed on every run, the
  second the same second seed, and so on, whatever ran before, as ``repeatable_seeds`` in
  tests/factories.py deals them to the in-process servers;
- ``GET /_test/quick-match`` tells who waits in the quick-match queue, which no page shows:
  a test waits on it for the server to have seen a player leave the queue.
"""

from __future__ import annotations

import argparse
import random
import zlib
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI, Request

from app.main import create_app
from app.services.games import SEED_BITS

QUICK_MATCH_PATH = "/_test/quick-match"


class SeedsOfTheTest:
    """Seeds from the running test's name, read from ``path`` at each new game; a new test
    (a new line in the file) starts its own sequence."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.stamp: str | None = None
        self.source = random.Random()

    def __call__(self) -> int:
        try:
            stamp = self.path.read_text()
        except FileNotFoundError:  # between sessions' tests: no test is running
            stamp = ""
        if stamp != self.stamp:
            self.stamp = stamp
            test = stamp.partition(" ")[2]
            self.source = random.Random(zlib.crc32(test.encode()))
        return self.source.getrandbits(SEED_BITS)


def build(test_file: Path) -> FastAPI:
    app = create_app()
    app.state.seeds = SeedsOfTheTest(test_file)

    @app.get(QUICK_MATCH_PATH, include_in_schema=False)
    async def quick_match(request: Request) -> dict[str, Any]:
        """The names of the players waiting, longest first."""
        return {"waiting": [player.name for player in request.app.state.quick_match.waiting()]}

    return app


def main() -> None:
    parser = argparse.ArgumentParser(
        description="The browser tests' server, dealing repeatable seeds.")
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--test-file", type=Path, required=True,
                        help="where conftest.py writes the running test's name")
    arguments = parser.parse_args()
    uvicorn.run(build(arguments.test_file), host=arguments.host, port=arguments.port)


if __name__ == "__main__":
    main()
