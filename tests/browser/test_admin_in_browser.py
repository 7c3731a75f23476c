"""The admin pages in a real browser: log in, open a game,
step through it, and see face-down cards revealed on the board.

The admin game page's contract (templates/admin/game.html, static/js/admin-game.js):
``#admin-game`` carries ``data-seq``, the number of actions behind the board shown; the
step buttons are ``#step-first``, ``#step-previous``, ``#step-next``, ``#step-last``; each
log row has a ``button.step-to[data-seq]``; a face-down card shown to the admin is an
element with ``data-revealed-card="<card id>"``.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import expect
from websockets.sync.client import connect

from tests.browser.conftest import ADMIN_PASSWORD as PASSWORD
from tests.browser.conftest import OpenPage

MOVES = 3


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def _receive(socket: Any, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(socket.recv(timeout=10))
        if message["type"] == kind:
            return message


def game_with_moves(base_url: str, moves: int) -> str:
    """A first-game (no draft: Age I is laid out at once) with ``moves`` actions played
    over the game socket."""
    created = _post(f"{base_url}/api/games", {"name": "Ann", "wonder_selection": "first_game",
                                              "first_player": "creator"})
    game_id = created["game_id"]
    joined = _post(f"{base_url}/api/games/{game_id}/join",
                   {"invite_code": created["invite_code"], "name": "Bo"})
    socket_url = base_url.replace("http://", "ws://") + f"/ws/games/{game_id}"
    with connect(socket_url) as first, connect(socket_url) as second:
        sockets = (first, second)
        views = []
        for seat, credentials in enumerate((created, joined)):
            sockets[seat].send(json.dumps({"type": "join", "seat": seat,
                                           "token": credentials["token"]}))
            views.append(_receive(sockets[seat], "welcome")["view"])
        for version in range(moves):
            seat = views[0]["to_act"]
            choice = views[seat]["legal_actions"][0]
            sockets[seat].send(json.dumps({"type": "action", "action": choice["notation"],
                                           "version": version, "client_id": f"a{version}"}))
            views = [_receive(socket, "update")["view"] for socket in sockets]
    return game_id


def test_an_admin_steps_through_a_game_and_sees_hidden_cards(
        server: str, open_page: OpenPage, screenshots: Path) -> None:
    game_id = game_with_moves(server, MOVES)
    admin = open_page(f"{server}/admin/games/{game_id}")
    page = admin.page
    expect(page).to_have_url(re.compile(r"/admin/login\?next="))
    page.locator("#admin-password").fill("wrong")
    page.locator("#login-button").click()
    expect(page.locator("#login-error")).to_have_text("Wrong password.")
    assert len(admin.errors) == 1 and "401" in admin.errors[0]  # the refusal's own status
    admin.errors.clear()
    page.locator("#admin-password").fill(PASSWORD)
    page.locator("#login-button").click()

    game = page.locator("#admin-game")
    expect(game).to_have_attribute("data-seq", str(MOVES))
    revealed = page.locator("#admin-board [data-revealed-card]")
    expect(revealed.first).to_be_visible()
    expect(page.locator("#hidden-body [data-hidden=removed_age1]")).not_to_have_text("none")
    expect(page.locator('.action-words[data-seq="1"]')).to_have_text(re.compile(r"^Ann "))
    expect(page.locator('.event-words[data-seq="1"] li').first).to_be_visible()

    page.locator("#step-first").click()
    expect(game).to_have_attribute("data-seq", "0")
    expect(page.locator("#step-label")).to_contain_text("Setup")
    expect(page.locator("#step-previous")).to_be_disabled()
    page.locator("#step-next").click()
    expect(game).to_have_attribute("data-seq", "1")
    page.locator("body").press("ArrowRight")
    expect(game).to_have_attribute("data-seq", "2")
    page.locator("body").press("Home")
    expect(game).to_have_attribute("data-seq", "0")
    page.locator('button.step-to[data-seq="2"]').click()
    expect(game).to_have_attribute("data-seq", "2")
    expect(page.locator('#log-table tr[data-seq="2"]')).to_have_attribute("aria-current", "step")
    page.locator("#step-last").click()
    expect(game).to_have_attribute("data-seq", str(MOVES))
    expect(revealed.first).to_be_visible()
    page.screenshot(path=str(screenshots / "admin-game.png"), full_page=True)
    page.locator("#admin-board .bd-structure").screenshot(
        path=str(screenshots / "admin-structure.png"))

    page.goto(f"{server}/admin?player=ann")
    expect(page.locator(f'#games-table tr[data-game-id="{game_id}"]')).to_be_visible()
    page.screenshot(path=str(screenshots / "admin-list.png"), full_page=True)
    admin.assert_no_errors()


def test_an_admin_imports_a_record_and_aborts_a_game(server: str, open_page: OpenPage) -> None:
    game_id = game_with_moves(server, 2)
    admin = open_page(f"{server}/admin/login?next=/admin/games/{game_id}")
    page = admin.page
    page.locator("#admin-password").fill(PASSWORD)
    page.locator("#login-button").click()
    expect(page.locator("#game-status")).to_have_text("active")
    record = page.request.get(f"{server}/admin/api/games/{game_id}/export").text()

    page.goto(f"{server}/admin/import")
    page.locator("#import-text").fill(record)
    page.locator("#import-button").click()
    expect(page.locator("#game-status")).to_have_text("imported")
    assert game_id not in page.url
    expect(page.locator("#admin-game")).to_have_attribute("data-seq", "2")

    page.goto(f"{server}/admin/games/{game_id}")
    page.locator("#abort-reason").fill("Stopped by the browser test")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#abort-button").click()
    expect(page.locator("#game-status")).to_have_text("aborted")
    expect(page.locator("#game-admin-actions")).to_contain_text("Stopped by the browser test")
    admin.assert_no_errors()
