"""``make run PORT=…`` serves, with no setting but a database and a key (as from a fresh
clone), and an invite link made on that address opens on it: the two players meet, their
sockets open (each page's own origin, on 127.0.0.1), and HEAD / answers 200 with no body.
The port is a free one rather than 9000 itself, which another run may hold."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import GAME_URL, ROOT, STARTUP_SECONDS, STOP_SECONDS, OpenPage
from tests.browser.server import free_port, post_json
from tests.browser.test_play_in_browser import start_game
from tests.factories import answers_ok


@pytest.fixture
def made_to_run(tmp_path: Path) -> Iterator[str]:
    """``make run HOST=127.0.0.1 PORT=<free>`` in its own process group; yields its URL."""
    port = free_port()
    env = {name: value for name, value in os.environ.items() if not name.startswith("DUEL_")}
    env["DUEL_DATABASE_URL"] = f"sqlite+aiosqlite:///{tmp_path / 'duel.db'}"
    env["DUEL_SECRET_KEY"] = secrets.token_urlsafe(32)  # no .duel-secret in the checkout
    log_path = tmp_path / "make-run.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(["make", "--no-print-directory", "run", "HOST=127.0.0.1",
                                    f"PORT={port}"], cwd=ROOT, env=env, stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS * 2  # the migration first
        while not answers_ok(url + "/healthz"):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"make run did not serve {url}:\n{log_path.read_text()}")
            time.sleep(0.1)
        yield url
    finally:
        # make and the uvicorn it started: the group this test made.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_make_run_on_another_port_gives_invite_links_to_it(
        open_page: OpenPage, made_to_run: str) -> None:
    request = urllib.request.Request(made_to_run + "/", method="HEAD")
    with urllib.request.urlopen(request, timeout=5) as answer:
        assert answer.status == 200 and answer.read() == b""
        assert answer.headers["content-type"].startswith("text/html")
    # start_game checks the link starts with this address, opens it, and seats both.
    players = start_game(open_page, made_to_run)
    for watched in (players.host, players.guest):
        expect(watched.page.locator("#game")).to_have_attribute("data-status", "active")
        assert watched.page.url.startswith(made_to_run + "/games/")
        watched.assert_no_errors()


def test_an_invite_link_cut_before_its_code_says_so_before_sending(
        open_page: OpenPage, server: str, screenshots: Path) -> None:
    """The friend was sent /join/<id> without "#code=…": the page says what is missing and
    where the whole link is, and sends no join the server would refuse."""
    created = post_json(server + "/api/games", {"name": "Ann"})
    guest = open_page(f"{server}/join/{created['game_id']}")
    page = guest.page
    error = page.locator("#join-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("invite code")
    expect(error).to_contain_text("Ask your opponent for the whole link")
    joins: list[str] = []
    page.on("request", lambda sent: joins.append(sent.url) if "/join" in sent.url
            and sent.method == "POST" else None)
    page.locator("input[name=name]").fill("Bo")
    page.locator("#join-button").click()
    expect(error).to_contain_text("Ask your opponent for the whole link")
    expect(page.locator("#join-button")).to_be_enabled()
    assert joins == []
    page.screenshot(path=screenshots / "join-without-code.png")
    guest.assert_no_errors()
    # The whole link seats the friend.
    whole = open_page(created["invite_url"])
    expect(whole.page.locator("#join-summary")).to_contain_text("Ann invites you")
    expect(whole.page.locator("#join-error")).to_be_hidden()
    whole.page.locator("input[name=name]").fill("Bo")
    whole.page.locator("#join-button").click()
    whole.page.wait_for_url(GAME_URL)
    whole.assert_no_errors()
