"""Bytes a browser transfers to show a game: a first load with an empty cache, then a reload.

    python bench/delivery.py            # the figures, and each request of both loads
    python bench/delivery.py --quiet    # the figures only

Starts the server as ``make run`` does (``alembic upgrade head``, then uvicorn) on
127.0.0.1, a free port and a SQLite file in a temporary directory; creates a game and takes
its second seat over HTTP; then opens the game page as seat 0 in Debian's chromium (driven
by Playwright, as the browser tests do) with an empty cache, and reloads it. The bytes are
what Chrome DevTools counts as transferred: ``encodedDataLength`` of every
``Network.loadingFinished`` (headers and compressed bodies; nothing for what the cache
served). The socket's messages are printed apart: they are the game itself, not the page.
Issue 10's targets: a first load of at most 60 KB, a reload of at most 10 KB. A figure, not
a test: it never fails on size.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.browser.server
from tests.browser.server import free_port, post_json, serving

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-quic"]
STARTUP_SECONDS = 30.0
TARGETS = {"first load": 60_000, "reload": 10_000}


@contextmanager
def running_server(workdir: Path) -> Iterator[str]:
    """The application on a fresh SQLite file, as ``make run`` serves it: its base URL."""
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    env = {name: value for name, value in os.environ.items() if not name.startswith("DUEL_")}
    env.update(DUEL_DATABASE_URL=f"sqlite+aiosqlite:///{workdir / 'duel.db'}",
               DUEL_PUBLIC_URL=base_url, DUEL_SECRET_KEY=secrets.token_urlsafe(32))
    subprocess.run([sys.executable, "-m", "alembic", "upgrade", "head"], cwd=ROOT, env=env,
                   check=True, capture_output=True, timeout=120)
    command = [sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app",
               "--host", "127.0.0.1", "--port", str(port), "--ws-max-size", "1048576",
               "--http", "app.serving:HttpProtocol", "--ws", "app.serving:SocketProtocol",
               "--no-server-header"]
    try:
        with serving(command, cwd=ROOT, env=env, log_path=workdir / "server.log",
                     base_url=base_url, startup_seconds=STARTUP_SECONDS) as url:
            yield url
    except RuntimeError as error:
        raise SystemExit(str(error)) from None


@dataclass
class Transfer:
    """What one page load fetched, from the DevTools protocol's Network events."""

    requests: dict[str, dict[str, Any]] = field(default_factory=dict)
    socket_bytes: int = 0
    socket_messages: int = 0

    def on_response(self, event: dict[str, Any]) -> None:
        response = event["response"]
        headers = {name.lower(): value for name, value in response["headers"].items()}
        self.requests.setdefault(event["requestId"], {}).update(
            url=response["url"], status=response["status"],
            encoding=headers.get("content-encoding", "-"),
            cache=headers.get("cache-control", "-"))

    def on_wire(self, event: dict[str, Any]) -> None:
        """The status on the wire: 304 where the cache revalidated (the page sees 200)."""
        self.requests.setdefault(event["requestId"], {})["wire"] = event["statusCode"]

    def on_cached(self, event: dict[str, Any]) -> None:
        self.requests.setdefault(event["requestId"], {})["wire"] = "cache"

    def on_finished(self, event: dict[str, Any]) -> None:
        entry = self.requests.setdefault(event["requestId"], {})
        entry["bytes"] = int(event["encodedDataLength"])

    def on_frame(self, event: dict[str, Any]) -> None:
        self.socket_messages += 1
        self.socket_bytes += len(event["response"]["payloadData"].encode())

    @property
    def total(self) -> int:
        return sum(entry.get("bytes", 0) for entry in self.requests.values())


def load(page: Any, cdp: Any, action: Any, *, base_url: str, verbose: bool, what: str) -> int:
    """Runs ``action`` (a navigation) and prints what it transferred: the total."""
    transfer = Transfer()
    handlers = {"Network.responseReceived": transfer.on_response,
                "Network.responseReceivedExtraInfo": transfer.on_wire,
                "Network.requestServedFromCache": transfer.on_cached,
                "Network.loadingFinished": transfer.on_finished,
                "Network.webSocketFrameReceived": transfer.on_frame}
    for name, handler in handlers.items():
        cdp.on(name, handler)
    action()
    # Ready: the page shows the game's state, and no request is left open.
    page.wait_for_function("() => document.querySelector('#game')?.dataset.version === '0'",
                           timeout=30_000)
    page.wait_for_load_state("networkidle")
    for name, handler in handlers.items():
        cdp.remove_listener(name, handler)
    total = transfer.total
    target = TARGETS[what]
    verdict = "within" if total <= target else "OVER"
    cached = sum(entry.get("wire") == "cache" for entry in transfer.requests.values())
    print(f"{what}: {total / 1000:.1f} KB transferred ({verdict} the {target // 1000} KB "
          f"target); {len(transfer.requests)} requests, {cached} served by the cache; "
          f"socket: {transfer.socket_messages} messages, "
          f"{transfer.socket_bytes / 1000:.1f} KB of payload, not counted")
    if verbose:
        for entry in sorted(transfer.requests.values(), key=lambda e: -e.get("bytes", 0)):
            url = str(entry.get("url", "?")).removeprefix(base_url)
            print(f"  {entry.get('bytes', 0):>7} B  {entry.get('wire', '-'):<5}  "
                  f"{entry.get('encoding', '-'):<5} {url}  [{entry.get('cache', '-')}]")
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quiet", action="store_true", help="the totals only")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="duel-delivery-") as workdir, \
            running_server(Path(workdir)) as base_url:
        created = post_json(base_url + "/api/games", {"name": "Ann"})
        game_id = created["game_id"]
        post_json(f"{base_url}/api/games/{game_id}/join",
                  {"invite_code": created["invite_code"], "name": "Bo"})
        seat = json.dumps({"seat": 0, "token": created["token"]})
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                 args=CHROMIUM_ARGS)
            try:
                context = browser.new_context(viewport={"width": 1366, "height": 768})
                # The browser holds seat 0's credentials, as after creating the game.
                context.add_init_script(
                    f"localStorage.setItem({json.dumps('duel.seat.' + game_id)}, {seat!r})")
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Network.enable")
                url = f"{base_url}/games/{game_id}"
                print(f"the game page of a started game, seat 0: {url}")
                for what, action in (("first load", lambda: page.goto(url)),
                                     ("reload", page.reload)):
                    load(page, cdp, action, base_url=base_url, verbose=not args.quiet,
                         what=what)
            finally:
                browser.close()


if __name__ == "__main__":
    main()
