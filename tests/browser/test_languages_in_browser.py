"""The site in each of its languages, in a real browser at 1366x768: the lobby, a game
against the computer's random level through its wonder draft into Age I, and a card's
options (a prompt), each saved as a screenshot (test-output/browser/language-<code>-*.png)
and measured: the page in the language picked (``<html lang>``), no error, nothing reaching
past the window or cut off inside its box (long Hungarian and Portuguese words included),
and the table's own layout rules (tests/browser/test_table_layout.py: one screen, every
price and every decision in sight).

The pseudo-locale (``qps``: every word from a catalog marked ⟦…⟧) plays the same way, and
there every text and every label shown or spoken must be marked: a word that did not go
through a catalog is named. The picker itself is tried once, by clicking.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from app import i18n
from app.services.computer import MIN_ACTIONS
from tests.api.test_languages import unmarked
from tests.browser.conftest import (
    ACTION_MS,
    ADMIN_PASSWORD,
    Watched,
    click_random,
    pick_name,
    watch,
)
from tests.browser.test_computer_in_browser import (
    _BEYOND,
    play_our_move,
    play_the_random_computer,
    version_at_our_turn,
)
from tests.browser.test_table_layout import _LAYOUT

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
NAME = "Ann"
NOBODY = "nobody-here"
"""A username no one has: its profile page says so."""
DATA = (NAME, NOBODY)
"""What the pseudo-locale shows unmarked by design: the players' names."""

_CLIPPED_AXIS_LABELS = """() => [...document.querySelectorAll('#analysis .an-axis')]
  .filter((label) => label.getBoundingClientRect().left
    < label.ownerSVGElement.getBoundingClientRect().left)
  .map((label) => label.textContent)"""
"""The chart's axis labels that begin left of the chart: cut off."""
DRAFT = 8
"""Actions of the wonder draft: after them, Age I's table."""

_CLIPPED = r"""() => {
  const shown = (el) => el.checkVisibility({ visibilityProperty: true });
  const problems = [];
  for (const el of document.querySelectorAll('body *')) {
    if (!shown(el) || el.closest('svg, .bd-sr, .language-picker')) continue;
    if (![...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.data.trim())) continue;
    const style = getComputedStyle(el);
    const id = el.id ? '#' + el.id : '';
    const name = `${el.tagName.toLowerCase()}${id}.${[...el.classList].join('.')}`;
    const text = el.textContent.replace(/\s+/g, ' ').trim().slice(0, 50);
    // Cut off inside its own box: hidden overflow, or an ellipsis.
    if (style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`${name} cut off sideways (${el.scrollWidth} > ${el.clientWidth}): "${text}"`);
    }
    if (style.overflowY !== 'visible' && style.overflowY !== 'auto' && style.overflowY !== 'scroll'
        && el.scrollHeight > el.clientHeight + 1) {
      problems.push(`${name} cut off below (${el.scrollHeight} > ${el.clientHeight}): "${text}"`);
    }
    // Spilling out of its own box (into a neighbour, or cut by a parent that clips).
    if (style.overflowX === 'visible' && style.display !== 'inline'
        && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`${name} spills out of its box (${el.scrollWidth} > ${el.clientWidth}):`
        + ` "${text}"`);
    }
    // Past the window's right edge.
    const box = el.getBoundingClientRect();
    if (box.right > innerWidth + 1) problems.push(`${name} past the window: "${text}"`);
  }
  return problems.slice(0, 12);
}"""

_SHOWN_TEXT = r"""() => {
  // The page's text in document order (a message with markup spans several nodes), and each
  // label shown or spoken; leaving out what is not words: scripts, styles, code, data as
  // data (pre), times, names (translate="no": people's, and the picker's languages).
  const skipped = (el) => el.closest(
    'script, style, noscript, code, pre, time, [translate="no"], [hidden]');
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.data.trim() && !skipped(node.parentElement)) texts.push(node.data.trim());
  }
  const labels = [];
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
    if (skipped(el)) continue;
    for (const name of ['title', 'aria-label', 'placeholder', 'alt']) {
      const value = el.getAttribute(name);
      if (value && value.trim()) labels.push(value.trim());
    }
  }
  return [texts.join(' '), ...labels, document.title];
}"""


def _check(page: Page, code: str, what: str, screenshots: Path) -> None:
    page.screenshot(path=screenshots / f"language-{code}-{what}.png")
    clipped = page.evaluate(_CLIPPED)
    assert not clipped, f"{code}, {what}: text cut off or past the window:\n" + "\n".join(clipped)
    if page.locator("#game").count():
        problems = page.evaluate(_LAYOUT, {"mode": "desktop", "width": LAPTOP["width"]})
        assert not problems, f"{code}, {what}: the table's layout: {problems}"
    if code == i18n.PSEUDO.code:
        left = unmarked(page.evaluate(_SHOWN_TEXT), DATA)
        assert not left, f"{what}: words that are not from a catalog: {left[:10]}"


def _computer_game(page: Page, code: str, screenshots: Path) -> str:
    """From the lobby, a game against the random level, through the draft to Age I's
    table with the player to act (checked at the draft and at the table): its id."""
    game_id = play_the_random_computer(page)
    game = page.locator("#game")
    expect(page.locator(".bd-prompt--draft")).to_be_visible()
    _check(page, code, "draft", screenshots)
    rng = random.Random(16)
    # Read at our turn: read sooner, the draft's last pick (the computer's) may not have come
    # yet, and the loop would make Age I's first move.
    while version_at_our_turn(page) < DRAFT:
        play_our_move(page, rng)
    expect(game).to_have_attribute("data-phase", "play")
    expect(page.locator(".bd-structure button[data-card]").first).to_be_visible()
    _check(page, code, "table", screenshots)
    return game_id


def _open_as(browser: Browser, server: str, code: str) -> tuple[BrowserContext, Watched]:
    context = browser.new_context(viewport=LAPTOP, reduced_motion="reduce")
    context.set_default_timeout(ACTION_MS)
    context.add_cookies([{"name": i18n.COOKIE, "value": code, "url": server}])
    return context, watch(context.new_page())


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
def test_a_game_in_each_language(browser: Browser, server: str, screenshots: Path,
                                 code: str) -> None:
    tag = i18n.LANGUAGES[code].tag
    context, watched = _open_as(browser, server, code)
    page = watched.page
    try:
        page.goto(server + "/")
        expect(page.locator("html")).to_have_attribute("lang", tag)
        pick_name(page, NAME)
        expect(page.locator("#computer-play")).to_be_visible()
        expect(page.locator("#lobby-connection")).to_have_attribute("data-state", "online")
        if code != i18n.DEFAULT:  # the page's words and its scripts' are the language's
            expect(page.locator("#quick-title")).not_to_have_text("Quick match")
            expect(page.locator("#lobby-connection")).not_to_have_text("Live")
        _check(page, code, "lobby", screenshots)
        _computer_game(page, code, screenshots)
        # A prompt: a card's options, the choices of the turn.
        assert click_random(page, ".bd-structure button[data-card]", random.Random(3))
        expect(page.locator("dialog[open] [data-action]").first).to_be_visible()
        _check(page, code, "options", screenshots)
        page.keyboard.press("Escape")
        expect(page.locator("dialog[open]")).to_have_count(0)
        # The same table on a phone's width: the phone's layout rules (no sideways scroll,
        # every price inside its tag, targets of 44 px, no text under 12 px).
        page.set_viewport_size(PHONE)
        page.wait_for_function("w => innerWidth === w", arg=PHONE["width"])
        page.screenshot(path=screenshots / f"language-{code}-phone.png", full_page=True)
        problems = page.evaluate(_LAYOUT, {"mode": "phone", "width": PHONE["width"]})
        assert not problems, f"{code}, on a phone: {problems} {page.evaluate(_BEYOND)}"
        watched.assert_no_errors()
    finally:
        context.close()


def test_no_word_escapes_the_catalogs_anywhere(browser: Browser, server: str,
                                              screenshots: Path) -> None:
    """The pseudo-locale on the same lobby, draft, table and card options, and on what the
    test above does not reach: a city's dialog, the chat, the result, the replay, the other
    pages (drawn by their scripts), the admin's game. Not
    the statistics: the server keeps its figures for a minute, and a visit here would hide
    the games other tests end meanwhile (their words are scanned as served, in
    tests/api/test_languages.py)."""
    code = i18n.PSEUDO.code
    context, watched = _open_as(browser, server, code)
    page = watched.page
    try:
        page.goto(server + "/")
        pick_name(page, NAME)
        expect(page.locator("#lobby-connection")).to_have_attribute("data-state", "online")
        _check(page, code, "lobby", screenshots)
        game_id = _computer_game(page, code, screenshots)
        assert click_random(page, ".bd-structure button[data-card]", random.Random(3))
        expect(page.locator("dialog[open] [data-action]").first).to_be_visible()
        _check(page, code, "options", screenshots)
        page.keyboard.press("Escape")
        page.locator(".bd-city-more").first.click()
        expect(page.locator("dialog[open]")).to_be_visible()
        _check(page, code, "city", screenshots)
        page.keyboard.press("Escape")
        page.locator("#chat-open").click()
        expect(page.locator("#chat")).to_be_visible()
        _check(page, code, "chat", screenshots)
        rng = random.Random(5)
        while version_at_our_turn(page) < MIN_ACTIONS:  # a game long enough to be analysed
            play_our_move(page, rng)
        page.locator("[data-resign=ask]").click()
        page.locator("[data-resign=yes]").click()
        expect(page.locator("#end-screen")).to_be_visible()
        # The whole analysis (its chart shows while it fills in too), its labels too.
        expect(page.locator("#analysis")).to_have_attribute("data-status", "done", timeout=30_000)
        expect(page.locator("#analysis svg")).to_be_visible()
        clipped = page.evaluate(_CLIPPED_AXIS_LABELS)
        assert not clipped, f"{code}: the chart's axis labels cut at its left edge: {clipped}"
        _check(page, code, "end", screenshots)
        for path, ready in ((f"/replay/{game_id}", "#replay-board .bd-structure"),
                            ("/my-games", "#done-games .entry, #done-games li"),
                            ("/leaderboard", "#leaderboard-page:not([data-state=loading])"),
                            (f"/players/{NOBODY}", "#profile-error:visible"),
                            ("/account", "#login-form"),
                            ("/how-to-play", "#how-title")):
            page.goto(server + path)
            expect(page.locator(ready).first).to_be_attached()
            _check(page, code, path.strip("/").split("/")[0] or "home", screenshots)
        page.goto(server + f"/admin/login?next=/admin/games/{game_id}")
        page.locator("#admin-password").fill(ADMIN_PASSWORD)
        page.locator("#login-button").click()
        expect(page.locator("#admin-game .action-words").first).not_to_be_empty()
        # Every action in words, the resignation too (no action shown as its data).
        words = page.locator("#log-table .action-words").all_inner_texts()
        assert words and not [line for line in words if "{" in line], words
        _check(page, code, "admin-game", screenshots)
        # The one error expected: the profile of nobody is a 404, which the page says.
        watched.errors = [error for error in watched.errors if NOBODY not in error]
        watched.assert_no_errors()
    finally:
        context.close()


def test_the_picker_changes_the_language_of_every_page(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport=LAPTOP)
    context.set_default_timeout(ACTION_MS)
    watched = watch(context.new_page())
    page = watched.page
    try:
        page.goto(server + "/how-to-play")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        picker = page.locator(".language-picker")
        picker.locator("summary").click()
        picker.get_by_role("link", name="Magyar").click()
        page.wait_for_url(server + "/how-to-play")
        expect(page.locator("html")).to_have_attribute("lang", "hu")
        expect(picker.locator("summary")).to_contain_text("Magyar")
        expect(page.locator("#how-title")).not_to_contain_text("How to play")
        # Remembered: the next page is in Hungarian too, its scripts' words included.
        page.goto(server + "/leaderboard")
        expect(page.locator("html")).to_have_attribute("lang", "hu")
        expect(page.locator("#leaderboard-page")).not_to_have_attribute("data-state", "loading")
        expect(page.locator("#leaderboard-title")).not_to_have_text("Leaderboard")
        expect(page.locator("#leaderboard-note")).not_to_contain_text("rated game")
        watched.assert_no_errors()
    finally:
        context.close()
