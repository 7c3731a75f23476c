"""What each screen size shows first: the table at 1366x768, 1280x720 and on a 390x844
phone in every phase (the wonder draft, each age, the result), the replay and the lobby,
each saved as a screenshot (test-output/browser/screen-<what>-<width>.png) and measured.

- The table and the replay never scroll on the laptop sizes.
- On the phone, when the player is to take a card (or pick a wonder), the words that say
  so and every card (or wonder) that can be taken lie within the first 844 px.
- No card, wonder, progress token or player name is broken inside a word, at any size and
  in each of the five languages (``_BROKEN_WORDS``: each word's rendered boxes, one line
  each). A name too long for its box is shortened with an ellipsis instead, its whole
  text in its title.
- The lobby's first screen holds the name, Play, Play the computer and the open games.

A game is played with the long names of tests/browser/test_table_layout.py (one a single
40-letter word) by random legal moves over the seats' own sockets, while three pages of
seat 0, one at each size, are measured at every version.
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from websockets.sync.client import connect

from app import i18n
from tests.browser.conftest import (
    ACTION_MS,
    SOCKET_SECONDS,
    WAIT_MS,
    SeatSocket,
    pick_name,
    play_over_sockets,
    post_json,
    watch,
)
from tests.browser.test_table_layout import CALM, NAMES, PHONE, new_game

SIZES = {1366: {"viewport": {"width": 1366, "height": 768}, **CALM},
         1280: {"viewport": {"width": 1280, "height": 720}, **CALM},
         390: PHONE}
LAPTOPS = (1366, 1280)
MAX_ACTIONS = 400

LABELS = (".bd-card-name, .bd-wonder-name, .bd-token-label, .bd-token-name, .bd-ghost-card, "
          ".bd-ghost-who, .bd-mini-name, .bd-back-label, .bd-name, .player-name, .bd-city-title, "
          ".bd-score th, .entry-names, .site-player, .name-known, .steps output, .turn, .presence, "
          ".bd-prompt-title, .bd-last-list, .log li, .bd-outcome-title, .bd-outcome-kind")
"""Every label that names a card, a wonder, a token or a player, and the sentences about the
game that hold a name."""

# The labels (of a selector) whose text is broken inside a word: a word (letters between
# spaces, hyphens or slashes) whose first and last letters are drawn on different lines. A
# soft hyphen (U+00AD) is a break the catalog's translator chose: it parts words too.
_BROKEN_WORDS = r"""(selector) => {
  const broken = [];
  const range = document.createRange();
  const letter = (node, at) => {
    range.setStart(node, at);
    range.setEnd(node, at + 1);
    // Its last box: a letter just after a soft hyphen's break also gets the hyphen's box.
    return [...range.getClientRects()].findLast((box) => box.width > 0.5);
  };
  for (const el of document.querySelectorAll(selector)) {
    if (!el.checkVisibility({ visibilityProperty: true }) || el.closest('.bd-sr')) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest('.bd-sr')) continue;
      for (const word of node.data.matchAll(/[^\s\-\u00ad\u2010-\u2014\/]{2,}/gu)) {
        const first = letter(node, word.index);
        const last = letter(node, word.index + word[0].length - 1);
        if (first && last && Math.abs(first.top - last.top) > first.height / 2) {
          broken.push(`"${word[0]}" broken in `
            + `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`);
        }
      }
    }
  }
  return [...new Set(broken)];
}"""

# What on the first screen a phone's player needs to move: the words that ask (the draft's
# title or the status line's turn), and each card or wonder to take, in page coordinates.
_FIRST_SCREEN = r"""() => {
  const shown = (el) => el.checkVisibility({ visibilityProperty: true });
  const draft = document.querySelector('.bd-prompt--draft .bd-prompt-title');
  const ask = draft && shown(draft) ? draft : document.querySelector('#turn');
  const takeable = [...document.querySelectorAll('.bd-structure button[data-card]:not(:disabled), '
    + '.bd-prompt--draft button.bd-wonder-choice:not(:disabled)')].filter(shown);
  const place = (el) => {
    const box = el.getBoundingClientRect();
    return { what: (el.getAttribute('aria-label') ?? el.textContent).trim().slice(0, 40),
             top: box.top + scrollY, bottom: box.bottom + scrollY,
             left: box.left + scrollX, right: box.right + scrollX };
  };
  return { ask: ask ? { ...place(ask), text: ask.textContent.trim() } : null,
           takeable: takeable.map(place) };
}"""

_SCROLLS = "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"


def broken_words(page: Page) -> list[str]:
    broken: list[str] = page.evaluate(_BROKEN_WORDS, LABELS)
    return broken


def assert_one_screen(page: Page, width: int, height: int, where: str) -> None:
    scroll_width, scroll_height = page.evaluate(_SCROLLS)
    assert scroll_height <= height + 1 and scroll_width <= width + 1, (
        f"{where}: the page is {scroll_width}x{scroll_height} in {width}x{height}")


def first_screen_problems(page: Page) -> list[str]:
    """What a phone's player to move would have to scroll to."""
    height = PHONE["viewport"]["height"]
    width = PHONE["viewport"]["width"]
    found = page.evaluate(_FIRST_SCREEN)
    problems = []
    if found["ask"] is None:
        problems.append("no words ask the player to move")
    elif found["ask"]["bottom"] > height:
        problems.append(f"'{found['ask']['text']}' ends {found['ask']['bottom']:.0f} px down")
    countdown = page.locator(".first-move--status")
    if countdown.count():  # a first decision: its deadline is in view
        box = countdown.bounding_box()
        if box is None or box["y"] + box["height"] > height:
            problems.append(f"the first move's countdown at {box}")
    if not found["takeable"]:
        problems.append("nothing to take")
    for card in found["takeable"]:
        if card["bottom"] > height or card["right"] > width + 1 or card["left"] < -1:
            problems.append(f"'{card['what']}' at {card['left']:.0f},{card['top']:.0f}-"
                            f"{card['right']:.0f},{card['bottom']:.0f}")
    return problems


@contextlib.contextmanager
def seat_pages(browser: Browser, server: str, game_id: str, credentials: dict[str, Any],
               code: str) -> Iterator[dict[int, Page]]:
    """The seat's page at each size (by width), in the language ``code``."""
    contexts: list[BrowserContext] = []
    try:
        pages = {}
        for width, options in SIZES.items():
            context = browser.new_context(**options)
            contexts.append(context)
            context.set_default_timeout(ACTION_MS)
            context.add_cookies([{"name": i18n.COOKIE, "value": code, "url": server}])
            key = f"duel.seat.{game_id}"
            value = f'{{"seat": {credentials["seat"]}, "token": "{credentials["token"]}"}}'
            context.add_init_script(f"localStorage.setItem({key!r}, {value!r});")
            page = watch(context.new_page()).page
            page.goto(f"{server}/games/{game_id}")
            expect(page.locator("#game")).to_have_attribute("data-status", "active")
            pages[width] = page
        yield pages
    finally:
        for context in contexts:
            context.close()


def _wait_for(page: Page, version: int) -> None:
    page.wait_for_function("v => document.querySelector('#game')?.dataset.version === v",
                           arg=str(version), timeout=WAIT_MS)


def _phase_of(page: Page) -> str:
    phase, age, over = page.evaluate(
        "() => { const g = document.querySelector('#game'); return [g.dataset.phase,"
        " g.dataset.age, Boolean(document.querySelector('#end-screen'))]; }")
    if over:
        return "end"
    return "draft" if phase == "draft" else f"age{age}"


@pytest.mark.parametrize("code", [
    # A whole game a language: English in every run, the others in `make test-long`.
    pytest.param(code, marks=() if code == i18n.DEFAULT else pytest.mark.long)
    for code in i18n.LANGUAGES])
def test_the_table_at_each_size(browser: Browser, server: str, screenshots: Path,
                                code: str) -> None:
    """A whole game seen from seat 0 at the three sizes, in one language."""
    game_id, credentials = new_game(server)
    rng = random.Random(31)
    url = server.replace("http://", "ws://") + f"/ws/games/{game_id}"
    problems: dict[str, str] = {}  # each problem once, where first seen
    shot: set[str] = set()
    with contextlib.ExitStack() as stack:
        pages = stack.enter_context(seat_pages(browser, server, game_id, credentials[0], code))
        sockets = [SeatSocket(stack.enter_context(connect(url, open_timeout=SOCKET_SECONDS)),
                              seat, credentials[seat]["token"]) for seat in (0, 1)]
        for _ in range(MAX_ACTIONS):
            version = sockets[0].version
            view = sockets[0].view
            for width, page in pages.items():
                _wait_for(page, version)
                if view.get("outcome") is not None:
                    expect(page.locator("#end-screen")).to_be_visible()
                phase = _phase_of(page)
                where = f"{code} at {width}, version {version} ({phase})"
                if width in LAPTOPS:
                    height = SIZES[width]["viewport"]["height"]
                    scroll = page.evaluate(_SCROLLS)
                    if scroll[1] > height + 1 or scroll[0] > width + 1:
                        problems.setdefault(f"the page scrolls at {width}",
                                            f"{scroll[0]}x{scroll[1]} [{where}]")
                elif view.get("to_act") == 0 and not page.locator(
                        ".bd-prompt--overlay.is-mine").count():
                    for problem in first_screen_problems(page):
                        problems.setdefault(f"below the first screen: {problem}", f"[{where}]")
                for word in broken_words(page):
                    problems.setdefault(f"broken at {width}: {word}", f"[{where}]")
                name = f"screen-{phase}-{width}.png" if code == i18n.DEFAULT else (
                    f"screen-{code}-{phase}-{width}.png")
                if name not in shot and (view.get("to_act") == 0 or phase == "end") and (
                        code == i18n.DEFAULT or width == 390 or phase == "age3"):
                    shot.add(name)
                    page.screenshot(path=screenshots / name)
            if view.get("outcome") is not None:
                break
            acting = sockets[view["to_act"]]
            move = rng.choice(acting.view["legal_actions"])
            acting.send({"type": "action", "action": move["notation"], "version": version,
                         "client_id": f"v{version}"})
            for socket in sockets:
                socket.until("update", version + 1)
        else:
            raise AssertionError(f"no end after {MAX_ACTIONS} actions")
    phases = {name.rsplit("-", 2)[-2] for name in shot}
    assert {"draft", "age1", "age2", "age3", "end"} <= phases, sorted(shot)
    assert not problems, f"{code}: {len(problems)} problems (each where first seen):\n  " + (
        "\n  ".join(f"{what} {where}" for what, where in sorted(problems.items())))


# The bottom of each element (of a list of selectors) in page coordinates (null: not shown).
_BOTTOMS = """(selectors) => selectors.map((selector) => {
  const el = document.querySelector(selector);
  if (!el || !el.checkVisibility({ visibilityProperty: true })) return null;
  return el.getBoundingClientRect().bottom + scrollY;
})"""


def _below(page: Page, selectors: list[str], height: int) -> dict[str, float | None]:
    """The selectors whose element is not shown whole on the first ``height`` px."""
    bottoms = page.evaluate(_BOTTOMS, selectors)
    return {selector: bottom for selector, bottom in zip(selectors, bottoms, strict=True)
            if bottom is None or bottom > height}


def test_the_replay_at_each_size(browser: Browser, server: str, screenshots: Path) -> None:
    """A finished game's replay: one screen on the laptops, the board and the step controls;
    on the phone the controls and the structure's top on the first screen."""
    game_id, credentials = new_game(server)
    play_over_sockets(server, game_id, credentials)
    for width, options in SIZES.items():
        context = browser.new_context(**options)
        try:
            watched = watch(context.new_page())
            page = watched.page
            page.goto(f"{server}/replay/{game_id}#seq=30")
            expect(page.locator("#replay")).to_have_attribute("data-seq", "30")
            expect(page.locator(".bd-structure")).to_be_visible()
            height = options["viewport"]["height"]
            page.screenshot(path=screenshots / f"screen-replay-{width}.png",
                            full_page=width not in LAPTOPS)
            if width in LAPTOPS:
                assert_one_screen(page, width, height, f"the replay at {width}")
                wanted = ["#step-next", "#step-slider", ".bd-city--top", ".bd-city--bottom"]
            else:
                wanted = ["#step-next", "#step-slider", "#step-label"]
            assert not _below(page, wanted, height), (width, _below(page, wanted, height))
            if width not in LAPTOPS:
                top = page.evaluate("() => document.querySelector('.bd-structure')"
                                    ".getBoundingClientRect().top + scrollY")
                assert top < height / 2, f"the replay's structure starts {top:.0f} px down"
            assert not broken_words(page), (width, broken_words(page))
            page.keyboard.press("End")  # the result, with the score table's names
            expect(page.locator("#replay")).to_have_attribute("data-seq", re.compile(r"^[1-9]"))
            expect(page.locator(".bd-result-folded, #end-screen").first).to_be_visible()
            if width in LAPTOPS:
                assert_one_screen(page, width, height, f"the replay's end at {width}")
            assert not broken_words(page), (width, broken_words(page))
            page.screenshot(path=screenshots / f"screen-replay-end-{width}.png",
                            full_page=width not in LAPTOPS)
            watched.assert_no_errors()
        finally:
            context.close()


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
def test_the_lobby_at_each_size(browser: Browser, server: str, screenshots: Path,
                                code: str) -> None:
    """A guest's lobby, once named, with a game open: the name, Play, Play the computer and
    the open games on the first screen at each size, in each language."""
    post_json(f"{server}/api/games", {"name": NAMES[1], "listed": True})  # an open game
    for width, options in SIZES.items():
        context = browser.new_context(**options)
        context.add_cookies([{"name": i18n.COOKIE, "value": code, "url": server}])
        try:
            watched = watch(context.new_page())
            page = watched.page
            page.goto(f"{server}/")
            height = options["viewport"]["height"]
            expect(page.locator("#name-input")).to_be_visible()
            page.screenshot(path=screenshots / f"screen-lobby-guest-{code}-{width}.png")
            first = ["#name-input", "#play-button", "#computer-play-button", "#open-title"]
            assert not _below(page, first, height), (code, width, _below(page, first, height))
            pick_name(page, NAMES[0])
            expect(page.locator("#open-games .entry").first).to_be_visible()
            page.screenshot(path=screenshots / f"screen-lobby-{code}-{width}.png")
            first = ["#name-known", "#play-button", "#computer-play-button",
                     "#open-games .entry"]
            assert not _below(page, first, height), (code, width, _below(page, first, height))
            assert not broken_words(page), (code, width, broken_words(page))
            watched.assert_no_errors()
        finally:
            context.close()
