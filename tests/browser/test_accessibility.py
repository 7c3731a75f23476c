"""axe-core on every page a player or an admin sees: 0 violations.

axe-core comes from the ``axe-playwright-python`` package (dev dependency), which ships
axe's own script; it runs in the page, with axe's default rule set (WCAG 2 A/AA and best
practices) plus ``label-content-name-mismatch`` (WCAG 2.5.3, experimental in axe and off
by default). Pages are checked once they show what they are for: the lobby with a name
picked, the join page of a fresh invite, the game during the draft, during Age I (the
player to act and the one waiting) and over, the admin's login, list and game.
"""

from __future__ import annotations

import json
import re
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    ADMIN_PASSWORD,
    OpenPage,
    pick_name,
    play_over_sockets,
    post_json,
)
from tests.browser.test_play_in_browser import start_game

OPTIONS: dict[str, Any] = {
    "resultTypes": ["violations"],
    "rules": {"label-content-name-mismatch": {"enabled": True}},
}


def assert_accessible(page: Page, what: str) -> None:
    """axe finds no violation on the page as it is now."""
    results = Axe().run(page, options=OPTIONS)
    violations = results.response["violations"]
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"]:
            lines.append(f"    {node['target']}: {node.get('failureSummary', '')!r}"[:400])
    assert not violations, f"axe on {what} ({page.url}):\n" + "\n".join(lines)


def _created(server: str, wonder_selection: str) -> tuple[dict[str, Any], str]:
    created = post_json(f"{server}/api/games", {"name": "Ann", "first_player": "creator",
                                                "wonder_selection": wonder_selection})
    return created, created["game_id"]


def test_home_and_join_pages(open_page: OpenPage, server: str) -> None:
    home = open_page(server + "/")
    page = home.page
    expect(page.locator("#name-form:visible, #name-known:visible")).to_have_count(1)
    assert_accessible(page, "the home page before a name")
    pick_name(page, "Ann")
    assert_accessible(page, "the lobby")

    created, _ = _created(server, "draft")
    join = open_page(created["invite_url"])
    expect(join.page.locator("#join-button")).to_be_visible()
    assert_accessible(join.page, "the join page")
    home.assert_no_errors()
    join.assert_no_errors()


def test_game_page_during_the_draft(open_page: OpenPage, server: str) -> None:
    players = start_game(open_page, server, wonder_selection="draft")
    for watched in (players.host, players.guest):
        game = watched.page.locator("#game")
        expect(game).to_have_attribute("data-version", "0")
        expect(game).to_have_attribute("data-to-act", re.compile("^[01]$"))
        expect(watched.page.locator(".bd")).to_have_attribute("data-phase", "draft")
        assert_accessible(watched.page, f"the draft, seat {game.get_attribute('data-seat')}")
        watched.assert_no_errors()


def test_game_page_during_age_one(open_page: OpenPage, server: str) -> None:
    players = start_game(open_page, server, wonder_selection="first_game")
    for watched in (players.host, players.guest):
        game = watched.page.locator("#game")
        expect(game).to_have_attribute("data-version", "0")
        expect(game).to_have_attribute("data-to-act", re.compile("^[01]$"))
        expect(watched.page.locator(".bd")).to_have_attribute("data-phase", "play")
        expect(watched.page.locator(".bd-price-now").first).to_be_visible()
    acting = players.host if players.host.page.locator("#game").get_attribute(
        "data-to-act") == "0" else players.guest
    waiting = players.guest if acting is players.host else players.host
    assert_accessible(acting.page, "Age I, the player to act")
    assert_accessible(waiting.page, "Age I, the player waiting")
    # The player to act opens a card's options.
    card = acting.page.locator("button[data-card]:not(:disabled)").first
    card.click()
    expect(acting.page.locator("[data-action]:not(:disabled)").first).to_be_visible()
    assert_accessible(acting.page, "Age I, a card's options open")
    acting.assert_no_errors()
    waiting.assert_no_errors()


def test_game_page_at_the_end(open_page: OpenPage, server: str) -> None:
    created, game_id = _created(server, "first_game")
    joined = post_json(f"{server}/api/games/{game_id}/join",
                       {"invite_code": created["invite_code"], "name": "Bo"})
    play_over_sockets(server, game_id, [created, joined])
    watched = open_page(server + "/")
    page = watched.page
    seat = {"seat": created["seat"], "token": created["token"]}
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"duel.seat.{game_id}", json.dumps(seat)])
    page.goto(f"{server}/games/{game_id}")
    expect(page.locator("#game")).to_have_attribute("data-status", "finished")
    expect(page.locator("#game")).to_have_attribute("data-seat", str(created["seat"]))
    expect(page.locator("#end-screen")).to_be_visible()
    assert_accessible(page, "the end of a game")
    watched.assert_no_errors()


def test_admin_pages(open_page: OpenPage, server: str) -> None:
    created, game_id = _created(server, "first_game")
    joined = post_json(f"{server}/api/games/{game_id}/join",
                       {"invite_code": created["invite_code"], "name": "Bo"})
    play_over_sockets(server, game_id, [created, joined], 3)
    admin = open_page(f"{server}/admin/login?next=/admin/games/{game_id}")
    page = admin.page
    expect(page.locator("#admin-password")).to_be_visible()
    assert_accessible(page, "the admin login")
    page.locator("#admin-password").fill(ADMIN_PASSWORD)
    page.locator("#login-button").click()
    expect(page.locator("#admin-game")).to_have_attribute("data-seq", "3")
    expect(page.locator("#admin-board [data-revealed-card]").first).to_be_visible()
    assert_accessible(page, "an admin game page")
    page.goto(f"{server}/admin")
    expect(page.locator("main")).to_contain_text("Bo")
    assert_accessible(page, "the admin game list")
    admin.assert_no_errors()
