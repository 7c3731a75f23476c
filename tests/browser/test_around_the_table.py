"""Around the table: what the game page does besides the board.

- While the creator waits for the opponent, the invite link stays on the game page
  (``#waiting-invite``, ``#invite-url``) with a Copy button (``#copy-invite``: the clipboard,
  or the link left selected when the clipboard refuses), and nothing on the board can be
  clicked; once the opponent joins, the box goes and play starts.
- A tab in the background (``document.visibilityState`` "hidden") whose player has a
  decision to make says so: the title starts with "● Your turn" and the favicon is the
  badged one (``favicon-turn.svg``); both come back when the tab is shown or the turn
  passes. ``#game`` carries ``data-turn-notice="on"`` meanwhile.
- The log has one entry per move, numbered by the move (``li`` value 1, 2, …, newest
  first).

Visibility is emulated in the page (``document.visibilityState`` overridden, then a
``visibilitychange`` dispatched), as a headless browser never hides its pages by itself.
Nothing waits a fixed time: each step waits for the page to show what it needs.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.conftest import CLICKABLE, GAME_URL, WAIT_MS, OpenPage, pick_name, play_one
from tests.browser.test_play_in_browser import SEED, start_game

PLAIN_TITLE = "Ann vs Bo · 7 Wonders Duel"
TURN_TITLE = re.compile(r"^● Your turn — Ann vs Bo · 7 Wonders Duel$")
PLAIN_ICON = re.compile(r"^/static/favicon\.svg\?v=[0-9a-f]+$")
TURN_ICON = re.compile(r"^/static/favicon-turn\.svg\?v=[0-9a-f]+$")
ACTIONS = "[data-action], button[data-card]"  # what sends or opens a move

SET_VISIBILITY = """state => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => state === 'hidden' });
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def _set_visibility(page: Page, state: str) -> None:
    page.evaluate(SET_VISIBILITY, state)


def _expect_plain(page: Page) -> None:
    expect(page).to_have_title(PLAIN_TITLE)
    expect(page.locator("link[rel=icon]")).to_have_attribute("href", PLAIN_ICON)
    expect(page.locator("#game")).to_have_attribute("data-turn-notice", "")


def _expect_notice(page: Page) -> None:
    expect(page).to_have_title(TURN_TITLE)
    expect(page.locator("link[rel=icon]")).to_have_attribute("href", TURN_ICON)
    expect(page.locator("#game")).to_have_attribute("data-turn-notice", "on")


def _to_act(page: Page) -> str:
    return page.locator("#game").get_attribute("data-to-act") or ""


def test_the_waiting_creator_keeps_the_invite_link_and_cannot_act(
        open_page: OpenPage, server: str, screenshots: Path) -> None:
    host = open_page(server + "/")
    page = host.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    pick_name(page, "Ann")
    page.locator("input[name=wonder_selection][value=draft]").check()
    page.locator("input[name=visibility][value=private]").check()
    page.locator("#create-button").click()
    expect(page.locator("#invite-url")).to_be_visible()
    invite_url = page.locator("#invite-url").input_value()
    page.locator("#open-game").click()
    page.wait_for_url(GAME_URL)

    game = page.locator("#game")
    expect(game).to_have_attribute("data-status", "waiting")
    expect(game).to_have_attribute("data-version", "0")  # the view is drawn
    expect(page.locator(".bd")).to_be_visible()
    box = page.locator("#waiting-invite")
    expect(box).to_be_visible()
    expect(page.locator("#invite-url")).to_have_value(invite_url)
    expect(page.locator("#turn")).to_have_text(re.compile("open the invite link"))
    # Nothing on the board can be clicked: no live "Your pick" buttons.
    expect(game).to_have_attribute("data-to-act", "")
    expect(page.locator(".bd")).not_to_contain_text("Your pick")
    assert page.evaluate(CLICKABLE, ACTIONS) == []
    page.screenshot(path=screenshots / "waiting-invite.png", full_page=True)

    # Copy: to the clipboard ...
    page.locator("#copy-invite").click()
    expect(page.locator("#copy-invite")).to_have_text("Copied")
    assert page.evaluate("() => navigator.clipboard.readText()") == invite_url
    # ... or, when the clipboard refuses, the link is left selected to copy by hand.
    page.evaluate("""() => { navigator.clipboard.writeText =
        () => Promise.reject(new DOMException('refused', 'NotAllowedError')); }""")
    page.locator("#copy-invite").click()
    expect(page.locator("#copy-invite")).to_have_text("Select and copy")
    expect(page.locator("#invite-url")).to_be_focused()
    selected = page.evaluate("""() => { const input = document.getElementById('invite-url');
        return input.value.slice(input.selectionStart, input.selectionEnd); }""")
    assert selected == invite_url

    # The opponent joins: the invite goes, play starts on both pages.
    guest = open_page(invite_url)
    guest.page.locator("input[name=name]").fill("Bo")
    guest.page.locator("#join-button").click()
    guest.page.wait_for_url(GAME_URL)
    for watched in (host, guest):
        expect(watched.page.locator("#game")).to_have_attribute("data-status", "active")
        expect(watched.page.locator("#game")).to_have_attribute("data-to-act",
                                                                re.compile("^[01]$"))
    expect(box).to_be_hidden()
    actor = page if _to_act(page) == "0" else guest.page
    play_one(actor, random.Random(SEED))
    expect(game).to_have_attribute("data-version", "1")
    host.assert_no_errors()
    guest.assert_no_errors()


def test_a_background_tab_says_it_is_your_turn(open_page: OpenPage, server: str) -> None:
    players = start_game(open_page, server, wonder_selection="draft")
    by_seat = {0: players.host.page, 1: players.guest.page}
    for page in by_seat.values():
        expect(page.locator("#game")).to_have_attribute("data-to-act", re.compile("^[01]$"))
        _expect_plain(page)  # visible: no notice, whoever acts
    first = int(_to_act(by_seat[0]))
    actor, waiter = by_seat[first], by_seat[1 - first]

    # The acting player's tab goes to the background: the notice; back: gone.
    _set_visibility(actor, "hidden")
    _expect_notice(actor)
    _set_visibility(actor, "visible")
    _expect_plain(actor)

    # The other player's hidden tab shows nothing until the turn comes to it.
    _set_visibility(waiter, "hidden")
    _expect_plain(waiter)
    rng = random.Random(SEED)
    play_one(actor, rng)
    expect(waiter.locator("#game")).to_have_attribute("data-to-act", str(1 - first))
    _expect_notice(waiter)
    # Still hidden, it plays (the draft's second player picks twice): when the turn
    # passes, the notice goes.
    for _ in range(4):
        if _to_act(waiter) != str(1 - first):
            break
        version = int(waiter.locator("#game").get_attribute("data-version") or "0")
        play_one(waiter, rng)
        waiter.wait_for_function(
            "v => Number(document.querySelector('#game')?.dataset.version) > v",
            arg=version, timeout=WAIT_MS)
    expect(waiter.locator("#game")).to_have_attribute("data-to-act", str(first))
    _expect_plain(waiter)
    _set_visibility(waiter, "visible")
    _expect_plain(waiter)

    # The log: one entry per move, numbered by the move, newest first.
    version = int(waiter.locator("#game").get_attribute("data-version") or "0")
    for page in by_seat.values():
        expect(page.locator("#game")).to_have_attribute("data-version", str(version))
        expect(page.locator("#log li")).to_have_count(version)
        values = page.locator("#log li").evaluate_all("items => items.map((i) => i.value)")
        assert values == list(range(version, 0, -1)), values
    players.host.assert_no_errors()
    players.guest.assert_no_errors()
