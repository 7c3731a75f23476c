"""Browser test fixtures: the real server in a subprocess, Debian's chromium via Playwright.

The server is started much as ``make run`` starts it (``alembic upgrade head``, then the
application served by uvicorn, here through tests/browser/server.py) on a free port and a
fresh SQLite file, once per test session (per xdist worker). It deals each new game's seed
from the running test's name (written to a file before each test), so every test plays the
same games on every run, whichever tests ran before it. Chromium is the system's
``/usr/bin/chromium`` (``make test`` installs it with apt-get); Playwright's own browser
downloads are never used. Without ``/usr/bin/chromium`` the browser tests are skipped,
except under CI=true, where they fail. Screenshots go to ``test-output/browser/``. The
helpers at the end (picking a name in the lobby, making one move by clicking, playing moves
over a seat's own socket, waiting on the quick-match queue) are shared by the tests. No
helper waits a fixed time: each waits for an event or a state, within a generous bound that
only detects a failure.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import random
import re
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Error,
    Page,
    Playwright,
    WebSocketRoute,
    expect,
    sync_playwright,
)
from websockets.sync.client import connect

from tests.browser import server as server_process
from tests.browser.server import (
    QUICK_MATCH_PATH,
    SOCKET_SECONDS,
    SeatSocket,
    free_port,
    serving,
)

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent  # the virtual environment's bin/ (.venv/bin)
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-quic"]
SCREENSHOTS = ROOT / "test-output" / "browser"
IN_CI = os.environ.get("CI", "").lower() == "true"
STARTUP_SECONDS = 120.0  # a bound, not a pace: a loaded machine imports slowly
STOP_SECONDS = 10.0
# Room for a loaded machine (two cores, the server tests and other work alongside, the
# computer's moves thought at a lower priority): assertions and actions. Only a failure
# waits this long.
EXPECT_MS = 30_000
ACTION_MS = 30_000
ADMIN_PASSWORD = "browser-test-admin"
WAIT_MS = 30_000  # for one action to reach both pages

GAME_URL = re.compile(r"/games/([^/?#]+)$")

expect.set_options(timeout=EXPECT_MS)


@pytest.fixture(scope="session")
def server_workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server's database, log and running test's name."""
    return tmp_path_factory.mktemp("browser-server")


def _test_file(workdir: Path) -> Path:
    return workdir / "running-test"


_tests_started = itertools.count(1)


@pytest.fixture(autouse=True)
def _seeds_of_the_test(request: pytest.FixtureRequest, server_workdir: Path) -> None:
    """Tells the server which test runs: the games it deals from now on are this test's
    (see tests/browser/server.py). Written whole at once, so never read half-written."""
    test = request.node.nodeid.split("[")[0]  # as tests/factories.py's repeatable_seeds
    written = _test_file(server_workdir).with_suffix(".new")
    written.write_text(f"{next(_tests_started)} {test}")
    written.replace(_test_file(server_workdir))


@pytest.fixture(scope="session")
def server(server_workdir: Path) -> Iterator[str]:
    """The real server on 127.0.0.1 and a fresh SQLite database; yields its base URL."""
    workdir = server_workdir
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    env = {name: value for name, value in os.environ.items() if not name.startswith("DUEL_")}
    env["DUEL_DATABASE_URL"] = f"sqlite+aiosqlite:///{workdir / 'duel.db'}"
    env["DUEL_PUBLIC_URL"] = base_url
    # Sessions signed with a key of this run (no .duel-secret written into the checkout);
    # lobby changes sent quickly, so the tests wait little for them.
    env["DUEL_SECRET_KEY"] = secrets.token_urlsafe(32)
    env["DUEL_LOBBY_DEBOUNCE"] = "0.05"
    env["DUEL_ABANDON_AFTER"] = "2"  # an absent player's win is claimed in the tests' time
    # A first move waits out whatever a page checks first, on a machine however busy.
    env["DUEL_FIRST_MOVE_SECONDS"] = "600"
    env["DUEL_ADMIN_PASSWORD"] = ADMIN_PASSWORD
    # Every browser of the run is one address: it creates and joins more games in an hour
    # than one person may.
    env["DUEL_GAMES_PER_HOUR"] = env["DUEL_JOINS_PER_HOUR"] = "100000"
    # The tests' own sockets play whole games as fast as answers come.
    env["DUEL_SOCKET_BURST"] = "100000"
    # One rated game puts an account on the leaderboard (tests/browser/test_ratings_in_browser.py).
    env["DUEL_LEADERBOARD_MIN_GAMES"] = "1"
    # Finished games are analysed (tests/browser/test_computer_in_browser.py), with a short
    # search per position: the analysis is ready within seconds. Games against the
    # computer come from one address too.
    env["DUEL_ANALYSIS_ENABLED"] = "true"
    # The pseudo-locale, for the scan of words that escape the catalogs
    # (tests/browser/test_languages_in_browser.py).
    env["DUEL_PSEUDO_LOCALE"] = "true"
    env["DUEL_ANALYSIS_ITERATIONS"] = "8"
    env["DUEL_COMPUTER_GAMES_PER_HOUR"] = "100000"
    migrated = subprocess.run([str(BIN / "alembic"), "upgrade", "head"], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120, check=False)
    if migrated.returncode != 0:
        pytest.fail(f"alembic upgrade head failed:\n{migrated.stdout}{migrated.stderr}")
    command = [sys.executable, "-m", "tests.browser.server", "--host", "127.0.0.1",
               "--port", str(port), "--test-file", str(_test_file(workdir))]
    with serving(command, cwd=ROOT, env=env, log_path=workdir / "server.log",
                 base_url=base_url, startup_seconds=STARTUP_SECONDS,
                 stop_seconds=STOP_SECONDS) as url:
        yield url


def _chromium_required() -> None:
    if not os.access(CHROMIUM, os.X_OK):
        message = f"{CHROMIUM} is missing (apt-get install -y chromium; make test does it)"
        if IN_CI:
            pytest.fail(message + " (required when CI=true)")
        pytest.skip(message)


def _launch(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                      args=CHROMIUM_ARGS)


class _SharedChromium:
    """One chromium for a session of browser tests only; launched again should it have
    died, so that a crash fails one test, not every later one."""

    def __init__(self) -> None:
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None

    def get(self) -> Browser:
        if self._playwright is None:
            self._playwright = sync_playwright().start()
        if self._browser is None or not self._browser.is_connected():
            self._browser = _launch(self._playwright)
        return self._browser

    def close(self) -> None:
        with contextlib.suppress(Error):
            if self._browser is not None:
                self._browser.close()
        if self._playwright is not None:
            self._playwright.stop()


@pytest.fixture(scope="session")
def _shared_chromium() -> Iterator[_SharedChromium]:
    shared = _SharedChromium()
    try:
        yield shared
    finally:
        shared.close()


@pytest.fixture(scope="session")
def _browser_tests_only(request: pytest.FixtureRequest) -> bool:
    """Whether this session (this xdist worker's collection) holds browser tests alone."""
    here = Path(__file__).parent
    return all(here in item.path.parents for item in request.session.items)


@pytest.fixture
def browser(request: pytest.FixtureRequest, _browser_tests_only: bool) -> Iterator[Browser]:
    """Headless Debian chromium, launched by Playwright.

    One for the whole session (per xdist worker) when the session runs browser tests only,
    as ``make test`` does (a launch costs more than half a second); else one per test:
    while Playwright's sync API is started, its event loop counts as running in this
    thread, and the other tests of the session (``asyncio.run`` in the server fixtures)
    would fail. Either way each test starts with no browser context left by another."""
    _chromium_required()
    if _browser_tests_only:
        shared_chromium: _SharedChromium = request.getfixturevalue("_shared_chromium")
        shared = shared_chromium.get()
        yield shared
        for context in shared.contexts:
            with contextlib.suppress(Error):  # a browser that died is launched again
                context.close()
        return
    with sync_playwright() as playwright:
        launched = _launch(playwright)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """Where screenshots go: test-output/browser/."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@dataclass
class Watched:
    """A page in its own browser context (its own storage: one player's browser), with
    every console error and uncaught page error it reported, and apart, every breach of
    the server's Content-Security-Policy (which also counts as an error)."""

    page: Page
    errors: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)

    def assert_no_errors(self) -> None:
        assert not self.errors, f"errors on {self.page.url}:\n" + "\n".join(self.errors)


OpenPage = Callable[[str], Watched]

CSP_REPORTER = """document.addEventListener("securitypolicyviolation", (event) => console.error(
  `Content Security Policy violation: ${event.effectiveDirective} blocked `
  + `${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber} ${event.sample}`),
  true);"""
"""Says each breach of the policy in the console, with where it happened; chromium's own
console message (which the test sees too) says which directive and why."""
_watched_in_this_test: list[Watched] = []


@pytest.fixture(autouse=True)
def _no_csp_violations() -> Iterator[None]:
    """Every browser test fails when a page it watched breached the Content-Security-
    Policy (app/api/security.py), whether or not it asserts on the page's errors."""
    _watched_in_this_test.clear()
    yield
    breaches = [f"{watched.page.url}: {violation}" for watched in _watched_in_this_test
                for violation in watched.violations]
    _watched_in_this_test.clear()
    assert not breaches, "Content-Security-Policy violations:\n" + "\n".join(breaches)


def watch(page: Page) -> Watched:
    """The page, with every console error and uncaught error it reports from now on, and
    every breach of the Content-Security-Policy in the documents it loads from now on."""
    watched = Watched(page)
    _watched_in_this_test.append(watched)
    page.add_init_script(CSP_REPORTER)

    def on_console(message: ConsoleMessage) -> None:
        where = message.location
        if "Content Security Policy" in message.text:
            watched.violations.append(message.text)
        if message.type == "error":
            watched.errors.append(f"console.error: {message.text} "
                                  f"({where.get('url')}:{where.get('lineNumber')})")

    def on_page_error(error: Error) -> None:
        watched.errors.append(f"pageerror: {error.message}\n{error.stack or ''}")

    page.on("console", on_console)
    page.on("pageerror", on_page_error)
    return watched


@pytest.fixture
def open_page(browser: Browser) -> Iterator[OpenPage]:
    """Opens a URL in a new browser context and records its errors; closes them after."""
    contexts: list[BrowserContext] = []

    def open_(url: str) -> Watched:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        contexts.append(context)
        context.set_default_timeout(ACTION_MS)
        watched = watch(context.new_page())
        watched.page.goto(url)
        return watched

    yield open_
    for context in contexts:
        context.close()


def pick_name(page: Page, name: str) -> None:
    """Picks the player's name in the lobby's name area (the home page must be open)."""
    # Either the form or the name known already, once the page has asked the server.
    expect(page.locator("#name-form:visible, #name-known:visible")).to_have_count(1)
    if not page.locator("#name-form").is_visible():
        page.locator("#change-name").click()
    page.locator("#name-input").fill(name)
    page.locator("#save-name").click()
    expect(page.locator("#player-name")).to_have_text(name)
    expect(page.locator("#site-player")).to_contain_text(name)


# Indexes (in document order) of the clickable elements matching a selector: visible, and
# not disabled. One call, so the choice is made on one consistent snapshot of the page.
CLICKABLE = """selector => [...document.querySelectorAll(selector)]
    .map((element, index) => [element, index])
    .filter(([element]) => !element.matches(':disabled') && element.checkVisibility())
    .map(([, index]) => index)"""


def click_random(page: Page, selector: str, rng: random.Random) -> str | None:
    """Clicks one of the clickable elements matching the selector; returns its
    ``data-action`` (or ``data-card``), None when there is nothing to click."""
    indexes: list[int] = page.evaluate(CLICKABLE, selector)
    if not indexes:
        return None
    target = page.locator(selector).nth(rng.choice(indexes))
    label = (target.get_attribute("data-action") or target.get_attribute("data-card")
             or "?")
    target.click(timeout=WAIT_MS)
    return label


def play_one(page: Page, rng: random.Random,
             with_options: Callable[[], None] | None = None) -> str:
    """The acting page makes one move: an enabled action button if there is one, else a
    card of the structure and then one of its enabled options (in the card's dialog);
    ``with_options`` runs while the card's options are open."""
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-action], button[data-card]')]"
        ".some(e => !e.matches(':disabled') && e.checkVisibility())",
        timeout=WAIT_MS)
    action = click_random(page, "[data-action]", rng)
    if action is not None:
        return action
    card = click_random(page, "button[data-card]", rng)
    assert card is not None, "neither an enabled [data-action] nor a button[data-card]"
    page.wait_for_function(
        "() => [...document.querySelectorAll('dialog[open] [data-action]')]"
        ".some(e => !e.matches(':disabled') && e.checkVisibility())",
        timeout=WAIT_MS)
    if with_options is not None:
        with_options()
    action = click_random(page, "dialog[open] [data-action]", rng)
    assert action is not None, f"no enabled option for the card {card}"
    return f"{card} -> {action}"


UNAVAILABLE = {"type": "error", "code": "unavailable",
               "message": "the server cannot reach its records just now; try again shortly"}
BUSY = {"type": "error", "code": "busy", "params": {"retry_after": 1},
        "message": "the server is busy: nothing was changed; send it again in a moment"}


@dataclass
class Refused:
    """What ``fail_first_as_unavailable`` saw: every message of its type the page sent, as
    it sent them. The page's own retries are held back until ``let_through``: until then
    the page shows the refusal for as long as the test looks at it."""

    sent: list[dict[str, Any]] = field(default_factory=list)
    held: list[str | bytes] = field(default_factory=list)
    to_server: WebSocketRoute | None = None
    released: bool = False

    def let_through(self) -> None:
        """From now on the page's messages go on to the server, held ones first."""
        self.released = True
        assert self.to_server is not None, "the page opened no socket to route"
        for message in self.held:
            self.to_server.send(message)
        self.held.clear()


def fail_first_as_unavailable(page: Page, socket_path: str, message_type: str,
                              answer: dict[str, Any] = UNAVAILABLE) -> Refused:
    """From the next socket the page opens to ``socket_path``: the first message of
    ``message_type`` never reaches the server and is answered ``unavailable``, as when the
    database is down (or ``answer``, such as :data:`BUSY`); later ones wait for
    ``let_through`` (other messages go on)."""
    refused = Refused()

    def route(socket: WebSocketRoute) -> None:
        to_server = refused.to_server = socket.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message) if isinstance(message, str) else {}
            if data.get("type") == message_type:
                refused.sent.append(data)
                if len(refused.sent) == 1:
                    reply = dict(answer)
                    if "client_id" in data:  # an action's refusal names it
                        reply["client_id"] = data["client_id"]
                    socket.send(json.dumps(reply))
                    return
                if not refused.released:
                    refused.held.append(message)
                    return
            to_server.send(message)

        socket.on_message(from_page)

    page.route_web_socket(re.compile(re.escape(socket_path)), route)
    return refused


# ---------------------------------------------------------------------- without a browser




def post_json(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` to the running server as a script would (no browser): the answer."""
    return server_process.post_json(url, body, timeout=SOCKET_SECONDS)


def quick_match_waiting(server: str) -> list[str]:
    """The names of the players the server holds in its quick-match queue, longest first
    (no page shows it: a view tests/browser/server.py adds for the tests)."""
    with urllib.request.urlopen(server + QUICK_MATCH_PATH, timeout=SOCKET_SECONDS) as response:
        waiting: list[str] = json.loads(response.read())["waiting"]
        return waiting


def wait_for_queue(server: str, expected: list[str]) -> None:
    """Until the server's quick-match queue holds ``expected`` (it changes as the server
    handles a socket's closing or cancel); at most EXPECT_MS, only to detect a failure."""
    deadline = time.monotonic() + EXPECT_MS / 1000
    while (waiting := quick_match_waiting(server)) != expected:
        if time.monotonic() > deadline:
            raise AssertionError(f"the quick-match queue holds {waiting}, not {expected}")
        time.sleep(0.05)


def play_over_sockets(server: str, game_id: str, credentials: list[dict[str, Any]],
                      moves: int | None = None) -> int:
    """Random legal moves (seeded) for both seats over their own sockets, ``moves`` of
    them or until the game is over: the version then. ``credentials`` are the seats' answers
    to creating and joining (their tokens)."""
    rng = random.Random(11)
    url = server.replace("http://", "ws://") + f"/ws/games/{game_id}"
    with contextlib.ExitStack() as stack:
        sockets = [SeatSocket(stack.enter_context(connect(url, open_timeout=SOCKET_SECONDS)),
                              seat, credentials[seat]["token"]) for seat in (0, 1)]
        while sockets[0].view.get("outcome") is None and sockets[0].version != moves:
            acting = sockets[sockets[0].view["to_act"]]
            version = acting.version
            move = rng.choice(acting.view["legal_actions"])
            acting.send({"type": "action", "action": move["notation"], "version": version,
                         "client_id": f"v{version}"})
            for socket in sockets:
                socket.until("update", version + 1)
        return sockets[0].version
