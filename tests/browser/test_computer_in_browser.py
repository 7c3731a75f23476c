"""A game against the computer in a real browser, played by clicking: the lobby's "Play the
computer" card, the draft and Age I turns answered by the computer, a resignation, the
analysis on the end screen and on the replay page, and "Play again".

The pages' contract (static/js/lobby-computer.js, static/js/game.js, static/js/table/):

- ``#computer-form`` holds the level (``input[name=level]``), who starts
  (``input[name=computer_starts]``) and the wonders (``input[name=computer_wonders]``);
  ``#computer-play-button`` starts the game;
- the game page names the computer's seat from its level ("Computer · Random");
- ``#analysis`` (``data-status``: ``pending``, ``done``, …) holds the chart (``svg``) and
  the mistakes (``.an-pick`` buttons on the replay page, each with its ``data-version``).

The page asks for reduced motion (the table at rest for axe). The computer plays at the
"random" level (it answers at once) and the server analyses with a few iterations per
position (tests/browser/conftest.py): the analysis is there within seconds. No fixed
sleep: every wait is for a state of the page.
"""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

from playwright.sync_api import Page, ViewportSize, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import WAIT_MS, OpenPage, pick_name, play_one
from tests.browser.test_accessibility import assert_accessible
from tests.browser.test_lobby_in_browser import game_id_of

LAPTOP: ViewportSize = {"width": 1366, "height": 768}
PHONE: ViewportSize = {"width": 390, "height": 844}
MOVES = 16
"""Actions before resigning: the draft's 8 and 8 of Age I (at least 10 are analysed)."""
ANALYSIS_MS = 30_000
"""A generous bound on the analysis, only to detect a failure (it takes a few seconds)."""


_BEYOND = """() => {
  const past = (e) => e.getBoundingClientRect().right > innerWidth + 1;
  return [...document.querySelectorAll('body *')]
    .filter((e) => past(e) && ![...e.children].some(past)).slice(0, 5)
    .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${(e.textContent || '').slice(0, 40)}`);
}"""
"""The innermost elements reaching past the window's right edge: named in a failure."""


def no_overflow(page: Page) -> None:
    """Nothing reaches past the window's right edge, once the page has laid itself out
    for the window's new size (the chart and the table measure their room when a
    ResizeObserver tells them: a frame or two after the resize)."""
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function("() => document.documentElement.scrollWidth <= innerWidth",
                               timeout=5_000)
    overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    beyond = page.evaluate(_BEYOND)
    assert overflow <= 0, f"{page.url} is {overflow} px wider than the window: {beyond}"


def at_both_sizes(page: Page, path: Path, what: str, *, full_page: bool = True) -> None:
    """Screenshots at 1366x768 and 390x844 (``-phone``), no sideways scrolling at either,
    and axe clean. (``full_page=False`` for a page whose bottom sheet is fixed to the
    window: a full-page shot would draw it mid-page.)"""
    page.set_viewport_size(LAPTOP)
    no_overflow(page)
    page.screenshot(path=path.with_suffix(".png"))
    assert_accessible(page, what)
    page.set_viewport_size(PHONE)
    no_overflow(page)
    page.screenshot(path=path.with_name(f"{path.name}-phone.png"), full_page=full_page)
    page.set_viewport_size(LAPTOP)


def version(page: Page) -> int:
    return int(page.locator("#game").get_attribute("data-version") or "0")


def version_at_our_turn(page: Page) -> int:
    """The version once seat 0 is to act (drawn with the turn): read sooner, the computer's
    answer to our last move may not have come yet."""
    expect(page.locator("#game")).to_have_attribute("data-to-act", "0", timeout=WAIT_MS)
    return version(page)


def play_the_random_computer(page: Page) -> str:
    """From the lobby's computer card: a game against the random level, the player first
    (seat 0); the game's id once its page shows the seat."""
    card = page.locator("#computer-play")
    card.locator("input[name=level][value=random]").check()
    card.locator("input[name=computer_starts][value=me]").check()
    page.locator("#computer-play-button").click()
    game_id = game_id_of(page)
    expect(page.locator("#game")).to_have_attribute("data-seat", "0")
    return game_id


def play_our_move(page: Page, rng: random.Random) -> None:
    """Seat 0, to act, makes a move by clicking; back once the page shows it."""
    expect(page.locator("#game")).to_have_attribute("data-to-act", "0", timeout=WAIT_MS)
    before = version(page)
    play_one(page, rng)
    page.wait_for_function("v => Number(document.querySelector('#game').dataset.version) > v",
                           arg=before, timeout=WAIT_MS)


def test_a_game_against_the_computer_played_by_clicking(open_page: OpenPage, server: str,
                                                        screenshots: Path) -> None:
    player = open_page(server + "/")
    page = player.page
    # No motion: axe then reads the table at rest (a card in flight is half transparent).
    page.emulate_media(reduced_motion="reduce")
    page.set_viewport_size(LAPTOP)
    pick_name(page, "Ann")
    card = page.locator("#computer-play")
    expect(card).to_be_visible()
    expect(card.locator("input[name=level]")).to_have_count(5)
    expect(card).to_contain_text("plays any legal move")
    at_both_sizes(page, screenshots / "computer-lobby", "the lobby's computer card")

    game_id = play_the_random_computer(page)
    game = page.locator("#game")
    expect(page.locator("#players")).to_have_text("Ann (you) vs Computer · Random")

    # The draft and Age I by clicking; after each move of ours the computer answers (its
    # moves are the versions we did not make).
    rng = random.Random(7)
    ours = 0
    shown = False
    while version_at_our_turn(page) < MOVES:
        play_our_move(page, rng)
        ours += 1
        if version(page) >= 11 and not shown:  # Age I, the computer's answer seen
            shown = True
            expect(game).to_have_attribute("data-to-act", "0", timeout=WAIT_MS)
            expect(page.locator("#presence")).not_to_contain_text("away")
            expect(page.locator("[data-take-back]")).to_have_count(0)
            at_both_sizes(page, screenshots / "computer-game", "a game against the computer")
    assert version(page) - ours >= 6, "the computer answered too seldom"

    page.locator("[data-resign=ask]").click()
    page.locator("[data-resign=yes]").click()
    expect(game).to_have_attribute("data-status", "finished")
    total = version(page)  # the resignation is the last action
    end = page.locator("#end-screen")
    expect(end).to_contain_text("Computer · Random wins")
    expect(end.locator("[data-rematch=offer]")).to_have_text("Play again")
    analysis = end.locator("#analysis")
    expect(analysis).to_have_attribute("data-status", "done", timeout=ANALYSIS_MS)
    expect(analysis.locator("svg[role=img]")).to_be_visible()
    expect(analysis.locator("svg title").first).to_have_text(
        "Ann's chance of winning, move by move")
    expect(analysis.locator("svg")).to_contain_text("Computer · Random ahead")
    at_both_sizes(page, screenshots / "computer-end", "the end of a game against the computer",
                  full_page=False)
    page.set_viewport_size(PHONE)  # the result is a bottom sheet: its chart further down
    analysis.locator("svg").scroll_into_view_if_needed()
    page.screenshot(path=screenshots / "computer-end-phone-analysis.png")
    page.set_viewport_size(LAPTOP)

    # The lobby lists the game against the computer by its level.
    lobby = page.context.new_page()
    lobby.goto(server + "/")
    expect(lobby.locator(f"#my-games li[data-game-id='{game_id}']")).to_contain_text(
        "vs Computer · Random")
    lobby.close()

    # The replay: the same analysis; a mistake (or a point of the chart) steps there.
    replay = page.context.new_page()
    replay.set_viewport_size(LAPTOP)
    replay.goto(f"{server}/replay/{game_id}")
    panel = replay.locator("#analysis-panel #analysis")
    expect(panel).to_have_attribute("data-status", "done")
    expect(panel.locator("svg")).to_have_attribute("data-last", str(total))
    expect(replay.locator("#replay")).to_have_attribute("data-seq", str(total))
    mistakes = panel.locator(".an-pick")
    if mistakes.count():
        target = mistakes.first.get_attribute("data-version")
        mistakes.first.click()
        expect(replay.locator("#replay")).to_have_attribute("data-seq", str(target))
    chart = panel.locator("svg")
    box = chart.bounding_box()
    assert box is not None
    chart.click(position={"x": box["width"] * 0.3, "y": box["height"] / 2})
    expect(replay.locator("#replay")).not_to_have_attribute("data-seq", str(total))
    replay.screenshot(path=screenshots / "computer-replay.png", full_page=True)
    assert_accessible(replay, "the replay's analysis")
    no_overflow(replay)
    replay.close()

    # An analysis in progress (its answer held at 5 positions read): how far it is, and the
    # chart drawn as far as it goes over the whole game's width; then the rest comes.
    an_analysis_in_progress_on_the_replay(page, server, game_id, total, screenshots)

    # Play again: the computer accepts at once, the seats swap.
    end.locator("[data-rematch=offer]").click()
    game_id_of(page, leaving=game_id)
    expect(game).to_have_attribute("data-seat", "1")
    expect(page.locator("#players")).to_have_text("Computer · Random vs Ann (you)")
    player.assert_no_errors()


def an_analysis_in_progress_on_the_replay(page: Page, server: str, game_id: str, total: int,
                                   screenshots: Path) -> None:
    url = f"{server}/api/games/{game_id}/analysis"
    done = page.request.get(url).json()
    read = 5
    held = {"status": "pending", "read": read, "total": len(done["positions"]),
            "positions": done["positions"][:read]}
    replay = page.context.new_page()
    replay.set_viewport_size(LAPTOP)
    replay.route(url, lambda route: route.fulfill(json=held))
    replay.goto(f"{server}/replay/{game_id}")
    panel = replay.locator("#analysis-panel #analysis")
    expect(panel).to_have_attribute("data-status", "pending")
    expect(panel.locator(".an-progress")).to_have_text(
        f"Analysing: {read} of {len(done['positions'])} positions")
    expect(panel.locator("progress")).to_have_attribute("value", str(read))
    chart = panel.locator("svg")
    expect(chart).to_have_attribute("data-last", str(total))
    points = chart.locator("polyline.an-line").get_attribute("points") or ""
    assert len(points.split()) == read
    replay.screenshot(path=screenshots / "computer-replay-analysing.png", full_page=True)
    assert_accessible(replay, "an analysis in progress")
    replay.set_viewport_size(PHONE)
    no_overflow(replay)
    replay.screenshot(path=screenshots / "computer-replay-analysing-phone.png", full_page=True)
    replay.unroute(url)  # the next ask gets the whole analysis
    expect(panel).to_have_attribute("data-status", "done", timeout=ANALYSIS_MS)
    replay.close()
