"""The admin pages in a real browser: log in, open a game,
step through it, and see face-down cards revealed on the board.

The admin game page's contract (templates/admin/game.html, static/js/admin-game.js):
``#admin-game`` carries ``data-seq``, the number of actions behind the board shown; the
step buttons are ``#step-first``, ``#step-previous``, ``#step-next``, ``#step-last``; each
log row has a ``button.step-to[data-seq]``; a face-down card shown to the admin is an
element with ``data-revealed-card="<card id>"``.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.conftest import ADMIN_PASSWORD as PASSWORD
from tests.browser.conftest import OpenPage, play_over_sockets, post_json

MOVES = 3


def game_with_moves(base_url: str, moves: int) -> str:
    """A first-game (no draft: Age I is laid out at once) with ``moves`` actions played
    over the game socket."""
    created = post_json(f"{base_url}/api/games", {"name": "Ann", "first_player": "creator",
                                                  "wonder_selection": "first_game"})
    game_id: str = created["game_id"]
    joined = post_json(f"{base_url}/api/games/{game_id}/join",
                       {"invite_code": created["invite_code"], "name": "Bo"})
    assert play_over_sockets(base_url, game_id, [created, joined], moves) == moves
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
