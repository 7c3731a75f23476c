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
  a test waits on it for the server to have seen a player leave the queue;
- ``POST /_test/clock`` moves the server's time on (``{"seconds": s}``) and lets its watch
  for fallen flags look at once: a test plays to a time loss without waiting for it.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import subprocess
import time
import urllib.error
import urllib.request
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI, Request

from app.main import create_app
from app.services.games import SEED_BITS
from app.serving import HttpProtocol, SocketProtocol

QUICK_MATCH_PATH = "/_test/quick-match"
CLOCK_PATH = "/_test/clock"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return int(response.status) == 200
    except (urllib.error.URLError, OSError):
        return False


@contextmanager
def serving(command: list[str], *, cwd: Path, env: dict[str, str], log_path: Path,
            base_url: str, startup_seconds: float = 30.0,
            stop_seconds: float = 10.0) -> Iterator[str]:
    """Run a server ``command`` (its output in ``log_path``) until it answers at
    ``base_url``; yields that URL, and stops the server on the way out. A server that
    exits or stays silent past ``startup_seconds`` raises RuntimeError with its log."""
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=log,
                                   stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + startup_seconds
        while not _answers(base_url + "/"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not answer at {base_url}:\n"
                                   + log_path.read_text(errors="replace"))
            time.sleep(0.1)
        yield base_url
    finally:
        process.terminate()
        try:
            process.wait(timeout=stop_seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def post_json(url: str, body: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
    """POST ``body`` to the running server as a script would (no browser): the answer."""
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


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
        return {"waiting": await request.app.state.quick_match.waiting()}

    @app.post(CLOCK_PATH, include_in_schema=False)
    async def move_time_on(request: Request) -> dict[str, Any]:
        """The games whose flag fell once the time moved on."""
        seconds = float((await request.json())["seconds"])
        request.app.state.wall.offset += timedelta(seconds=seconds)
        return {"ended": await request.app.state.flags.sweep()}

    return app


def main() -> None:
    parser = argparse.ArgumentParser(
        description="The browser tests' server, dealing repeatable seeds.")
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--test-file", type=Path, required=True,
                        help="where conftest.py writes the running test's name")
    arguments = parser.parse_args()
    uvicorn.run(build(arguments.test_file), host=arguments.host, port=arguments.port,
                proxy_headers=False, http=HttpProtocol, ws=SocketProtocol)


if __name__ == "__main__":
    main()


SOCKET_SECONDS = 30.0
"""How long a seat's socket waits for one message, by default (a bound, never a pace)."""


class SeatSocket:
    """A seat's own socket on a game (the browser tests' and bench/render.py's): its latest
    view and version, and moves sent without clicking. ``seconds`` bounds each wait."""

    def __init__(self, connection: Any, seat: int, token: str,
                 seconds: float = SOCKET_SECONDS) -> None:
        self.connection = connection
        self.seconds = seconds
        self.view: dict[str, Any] = {}
        self.version = -1
        self.send({"type": "join", "seat": seat, "token": token})
        self.until("welcome")

    def send(self, message: dict[str, Any]) -> None:
        self.connection.send(json.dumps(message))

    def until(self, kind: str, version: int | None = None) -> dict[str, Any]:
        """Reads (answering pings) until a ``kind`` message (of ``version``, if given)."""
        deadline = time.monotonic() + self.seconds
        while True:
            message = json.loads(self.connection.recv(timeout=deadline - time.monotonic()))
            if message["type"] == "ping":
                self.send({"type": "pong"})
            if message["type"] == "error":
                raise AssertionError(f"refused: {message}")
            if message["type"] in ("welcome", "update"):
                self.view, self.version = message["view"], message["version"]
            if message["type"] == kind and (version is None or message["version"] == version):
                return message
