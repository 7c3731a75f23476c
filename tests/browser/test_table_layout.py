"""The table measured in the browser while whole games are played by clicking.

On a desktop screen (1366x768 and 1280x720) the game is one screen: the page never
scrolls, every card one may take shows its price and lies inside the window, every
decision (the wonder draft's choices, an overlay, an open dialog, the result) lies fully in
sight, and the result's score table shows all its rows, Total included. On a phone
(390x844, touch) the page scrolls down but never sideways, every control is at least
44x44 CSS px, every text at least 12 px, the structure's cards stay readable and a
decision is a bottom sheet inside the screen.

``test_whole_game_fits_one_screen`` is also the whole game played by clicking (the game
page's contract: tests/browser/test_play_in_browser.py): seat 0 at 1366x768 and seat 1
at 1280x720 play every move with the page's own buttons, and after each move, on both
pages, besides the layout: both show the same version and agree on who acts; in the play
phase every accessible face-up card and each of the viewer's unbuilt wonders shows its
price (exactly "free", coins, or coins "(N trade)", "✕" first when unaffordable, which
the tag also says in words), its label says the price, and neither a face-down card nor
the other city has one; prices with trade, unaffordable ones and the waiting seat's are
all seen in the game. At the end the log holds one entry per move, numbered by the move,
newest first, and a reloaded page tells it again the same.

``test_phone_layout`` plays a whole game too, the phone as seat 0 (by clicking) and
seat 1 over its own socket, and measures the phone after every move, with a card's
options open on each of the phone's moves and each city's dialog open once.

The pages ask for reduced motion (``prefers-reduced-motion: reduce``, which the table
honours: no card flies, nothing slides or pulses; tests/browser/test_motion.py checks
both ways), so each move is measured as soon as it is shown, and the measure also finds
nothing moving. The layout is checked in one script run in the page (``_LAYOUT``), which
lists what is wrong. The server deals each test's games from the test's name and the clicks
come from a seeded generator (``SEED``), so a run repeats the same games. Nothing waits a
fixed time: each step waits for the pages to show what it needs, within a generous bound
that only detects a failure. Screenshots of each phase go to test-output/browser/
(table-*-<width>.png, phone-*.png); a failure's note names the seed, the game, the error
boxes shown and the last moves.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from websockets.sync.client import connect

from tests.browser.conftest import (
    ACTION_MS,
    SOCKET_SECONDS,
    WAIT_MS,
    SeatSocket,
    Watched,
    play_one,
    post_json,
    watch,
)

SEED = 20240611
MAX_ACTIONS = 400  # a game takes well under 150
DESKTOPS = {0: (1366, 768), 1: (1280, 720)}  # seat: viewport
CALM = {"reduced_motion": "reduce"}  # the player asks for reduced motion
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2, **CALM}
SCORE_KEYS = ["blue", "green", "yellow", "purple", "wonders", "progress", "coins",
              "military", "total"]
NAMES = ("KONSTANTINOPOLITANISCHERDUDELSACKPFEIFER", "Maximiliana Ottilia Wilhelmina Brightmor")
"""Names as long as a name may be (40 characters), one a single word in capitals: the pages
must break them rather than widen themselves or cut them off."""

OpenSeat = Callable[..., Watched]


@contextlib.contextmanager
def seat_opener(browser: Browser, server: str) -> Iterator[OpenSeat]:
    """Opens a game's page as one seat, in a new browser context made with the given
    options (viewport, is_mobile, reduced_motion, ...), the seat's credentials in its
    localStorage as the page keeps them, and ``init_script`` (if given) run before the
    page's own; records the page's console errors and uncaught errors. Returns once the
    page shows a version of the game. Closes the contexts on leaving."""
    contexts: list[BrowserContext] = []

    def open_(game_id: str, credentials: dict[str, Any], init_script: str = "",
              **options: Any) -> Watched:
        context = browser.new_context(**options)
        contexts.append(context)
        context.set_default_timeout(ACTION_MS)
        key = f"duel.seat.{game_id}"
        value = json.dumps({"seat": credentials["seat"], "token": credentials["token"]})
        context.add_init_script(
            f"if (location.origin === {json.dumps(server)}) "
            f"localStorage.setItem({json.dumps(key)}, {json.dumps(value)});")
        if init_script:
            context.add_init_script(init_script)
        watched = watch(context.new_page())
        page = watched.page
        page.goto(f"{server}/games/{game_id}")
        expect(page.locator("#game")).to_have_attribute("data-seat", str(credentials["seat"]))
        expect(page.locator("#game")).to_have_attribute("data-status", "active")
        expect(page.locator("#game")).to_have_attribute("data-version", re.compile(r"^\d+$"))
        return watched

    try:
        yield open_
    finally:
        for context in contexts:
            context.close()


@pytest.fixture
def open_seat(browser: Browser, server: str) -> Iterator[OpenSeat]:
    """``seat_opener`` for one test."""
    with seat_opener(browser, server) as open_:
        yield open_


def new_game(server: str) -> tuple[str, list[dict[str, Any]]]:
    """A game with the wonder draft, created and joined over HTTP: its id and each seat's
    credentials (by seat)."""
    created = post_json(f"{server}/api/games", {"name": NAMES[0], "first_player": "creator",
                                                "wonder_selection": "draft"})
    game_id = created["game_id"]
    joined = post_json(f"{server}/api/games/{game_id}/join",
                       {"invite_code": created["invite_code"], "name": NAMES[1]})
    by_seat = sorted([created, joined], key=lambda credentials: credentials["seat"])
    assert [c["seat"] for c in by_seat] == [0, 1]
    return game_id, by_seat


# What a page shows now, in one consistent snapshot; `moving`: the animations running
# (a spinner's endless turning aside), none when the player asks for reduced motion.
_STATE = """() => {
  const game = document.querySelector('#game');
  const overlay = document.querySelector('.bd-prompt--overlay');
  return {
    version: game.dataset.version, toAct: game.dataset.toAct, seat: game.dataset.seat,
    phase: game.dataset.phase, age: game.dataset.age,
    overlay: overlay?.dataset.decision ?? null,
    overlayMine: Boolean(overlay?.classList.contains('is-mine')),
    cardToTake: [...document.querySelectorAll('button[data-card]')]
      .some((card) => !card.disabled && card.checkVisibility()),
    moving: document.getAnimations().filter((animation) => animation.playState === 'running'
      && animation.effect?.getComputedTiming().iterations !== Infinity)
      .map((animation) => animation.animationName ?? animation.transitionProperty
        ?? animation.effect?.target?.className ?? '?'),
  };
}"""

# What the prices on a page are (null outside a game's table).
_PRICES_SHOWN = r"""() => {
  const board = document.querySelector('.bd');
  if (!board) return null;
  const faceUp = [...document.querySelectorAll('.bd-structure .bd-card.is-accessible')]
    .filter((card) => !card.classList.contains('bd-card--back'));
  const tags = [...document.querySelectorAll('.bd-price-now')];
  const wonders = [...document.querySelectorAll('.bd-city--bottom .bd-wonder.is-unbuilt')];
  return {
    phase: board.dataset.phase,
    faceUp: faceUp.length,
    unpriced: faceUp.filter((card) => !card.querySelector('.bd-price-now'))
      .map((card) => card.getAttribute('aria-label') ?? card.textContent),
    shown: faceUp.map((card) => card.querySelector('.bd-price-shown')?.textContent ?? ''),
    // A card to click is named by its content (the words in its .bd-sr), others by aria-label.
    labelled: faceUp.every((card) => /Your price: /.test(card.getAttribute('aria-label')
      ?? card.querySelector(':scope > .bd-sr')?.textContent)),
    backsPriced: document.querySelectorAll('.bd-card--back .bd-price-now').length,
    wonders: wonders.length,
    wondersUnpriced: wonders.filter((w) => !w.querySelector('.bd-price-now')).length,
    othersPriced: document.querySelectorAll('.bd-city--top .bd-price-now').length,
    unaffordable: tags.filter((tag) => tag.classList.contains('is-unaffordable')).length,
    unaffordableMarked: tags.filter((tag) => tag.classList.contains('is-unaffordable'))
      .every((tag) => tag.textContent.includes('✕') && tag.textContent.includes('cannot afford')),
    trade: tags.filter((tag) => / trade\)/.test(tag.textContent)).length,
  };
}"""
_PRICE_TEXT = re.compile(r"^✕?(free|\d+( \(\d+ trade\))?)$")

# What is wrong with the layout now, in words (empty when nothing is): each problem as
# [what, details] (what names the element, so the same problem seen again is known again).
# `mode` "screen": the page is one screen; "phone": the page may scroll down but not
# sideways, its controls and texts are big enough to touch and read, and a choice may be
# scrolled to (down the page, or in a bottom sheet) but never cut at the sides.
_LAYOUT = r"""({ mode, width }) => {
  const problems = [];
  const phone = mode === 'phone';
  const W = innerWidth, H = innerHeight;
  const root = document.documentElement;
  const game = document.querySelector('#game');
  const name = (el) => {
    const classes = [...el.classList].slice(0, 3).map((c) => `.${c}`).join('');
    const id = el.id ? `#${el.id}` : '';
    const key = el.dataset.card ?? el.dataset.action ?? '';
    const text = (el.innerText ?? el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
    return `${el.tagName.toLowerCase()}${id}${classes}${key ? `[${key}]` : ''} "${text}"`;
  };
  const px = Math.round;
  const box = (r) => `${px(r.left)},${px(r.top)} ${px(r.width)}x${px(r.height)}`;
  const inside = (b, r) => b.left >= r.left - 1 && b.top >= r.top - 1
    && b.right <= r.right + 1 && b.bottom <= r.bottom + 1;
  // The box an element is laid out in (null: the viewport): its parent, or for a box taken
  // out of the flow, the nearest ancestor that holds it.
  const containingBlock = (el) => {
    const position = getComputedStyle(el).position;
    if (position !== 'absolute' && position !== 'fixed') return el.parentElement;
    for (let a = el.parentElement; a; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.transform !== 'none' || style.filter !== 'none' || style.perspective !== 'none'
          || /paint|layout|strict|content/.test(style.contain) || style.containerType !== 'normal'
          || (position === 'absolute' && style.position !== 'static')) return a;
    }
    return null;
  };
  // The part of the window an element may be seen in: the viewport, cut by every box that
  // clips it (its containing block's, and theirs in turn, when their overflow is not
  // visible). With `down`, only the sides count: the element may be scrolled to, down the
  // page or in a box that scrolls (not one that hides its overflow).
  const room = (el, down) => {
    const r = { left: 0, top: down ? -Infinity : 0, right: W, bottom: down ? Infinity : H };
    for (let a = containingBlock(el); a && a !== document.body; a = containingBlock(a)) {
      const style = getComputedStyle(a);
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
        const b = a.getBoundingClientRect();
        const left = b.left + a.clientLeft, top = b.top + a.clientTop;
        r.left = Math.max(r.left, left);
        r.right = Math.min(r.right, left + a.clientWidth);
        if (!down || !/auto|scroll/.test(style.overflowY)) {
          r.top = Math.max(r.top, top);
          r.bottom = Math.min(r.bottom, top + a.clientHeight);
        }
      }
    }
    return r;
  };
  // The element lies whole in sight: inside the viewport and every box that clips it.
  const inSight = (el, what, down = false) => {
    const b = el.getBoundingClientRect();
    const r = room(el, down);
    if (b.width < 1 || b.height < 1) {
      problems.push([`${what} has no size: ${name(el)}`, '']);
    } else if (!inside(b, r)) {
      const seen = { left: r.left, top: r.top, width: r.right - r.left, height: r.bottom - r.top };
      problems.push([`${what} not whole in sight: ${name(el)}`,
        `at ${box(b)}, room ${box(seen)} (window ${W}x${H})`]);
    }
  };
  const shown = (el) => el.checkVisibility({ visibilityProperty: true });
  // Each card one may take shows its price whole (on a phone: once scrolled to).
  if (game.dataset.phase === 'play') {
    const faceUp = [...document.querySelectorAll('.bd-structure .bd-card.is-accessible')]
      .filter((card) => !card.classList.contains('bd-card--back'));
    if (!faceUp.length) problems.push(['no accessible face-up card in the structure', '']);
    for (const card of faceUp) {
      const price = card.querySelector('.bd-price-now');
      if (!price) problems.push([`a card without its price: ${name(card)}`, '']);
      for (const part of price?.querySelectorAll('.bd-price-shown > *') ?? []) {
        inSight(part, 'a price', phone);
        const b = part.getBoundingClientRect(), tag = price.getBoundingClientRect();
        if (!inside(b, tag)) {
          problems.push([`a price beyond its tag: ${name(card)}`, `${box(b)} in ${box(tag)}`]);
        }
      }
      if (!phone) inSight(card, 'an accessible card');
    }
  }
  if (!phone) {
    if (root.scrollHeight > H + 1 || root.scrollWidth > W + 1) {
      problems.push(['the page scrolls',
        `${root.scrollWidth}x${root.scrollHeight} in ${W}x${H}`]);
    }
  } else {
    if (W !== width || root.scrollWidth > width + 1) {
      problems.push(['the page scrolls sideways',
        `${root.scrollWidth} wide, window ${W} (of ${width})`]);
    }
    for (const el of game.querySelectorAll('button, a, input, [data-card]')) {
      if (!shown(el)) continue;
      const b = el.getBoundingClientRect();
      if (b.width < 44 - 0.05 || b.height < 44 - 0.05) {
        problems.push([`a target under 44x44: ${name(el)}`,
          `${b.width.toFixed(1)}x${b.height.toFixed(1)}`]);
      }
    }
    const small = new Map();
    const walker = document.createTreeWalker(game, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.data.trim()) continue;
      const el = node.parentElement;
      if (!el || el.closest('.bd-sr')) continue;
      // Figures drawn in a glyph's SVG are part of the drawing, hidden from assistive technology.
      if (el.closest('svg.gl') && el.closest('[aria-hidden="true"]')) continue;
      if (!shown(el)) continue;
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < 12 - 0.01) {
        const key = `text under 12 px: ${name(el).split(' ')[0]}`;
        const text = node.data.trim().slice(0, 20);
        if (!small.has(key)) small.set(key, `${size.toFixed(2)} px, e.g. "${text}"`);
      }
    }
    problems.push(...small);
    for (const card of document.querySelectorAll('.bd-structure .bd-card')) {
      const b = card.getBoundingClientRect();
      if (b.width < 44 - 0.05) {
        problems.push(['a structure card under 44 px wide',
          `${b.width.toFixed(1)} px: ${name(card)}`]);
      }
    }
  }
  // Every decision in sight, in either mode.
  const all = (selector) => [...document.querySelectorAll(selector)].filter(shown);
  for (const el of all('.bd-prompt--overlay, #end-screen, dialog.bd-dialog[open]')) {
    inSight(el, 'a decision');
  }
  // The result's score down to its Total, with no scrolling inside the banner.
  for (const el of all('#end-screen table.bd-score tr.is-total')) inSight(el, 'the Total row');
  for (const el of all('dialog.bd-dialog[open] .bd-dialog-head')) inSight(el, "a dialog's head");
  // Every text of an open dialog can be read, once the dialog is scrolled to it: no box
  // crushed or cut off around it.
  for (const el of all('dialog.bd-dialog[open] *')) {
    if (el.closest('.bd-sr, svg')) continue;
    if ([...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.data.trim())) {
      inSight(el, 'a text in a dialog', true);
    }
  }
  for (const el of all('.bd-prompt--draft .bd-wonder-choice, .bd-prompt--overlay .bd-action')) {
    inSight(el, 'a choice', phone);
  }
  return problems;
}"""

# The result: its title, the score table's rows (by key) and the last row's label.
_RESULT = """() => {
  const banner = document.querySelector('#end-screen');
  const rows = [...banner.querySelectorAll('table.bd-score tbody tr')];
  return {
    title: banner.querySelector('.bd-outcome-title').textContent.trim(),
    rows: rows.map((row) => row.classList.contains('is-total') ? 'total'
      : [...row.classList].find((c) => c.startsWith('bd-score-row--'))?.slice(14) ?? '?'),
    totalLabel: rows.at(-1)?.querySelector('th')?.textContent.trim() ?? '',
  };
}"""


# The controls (of a selector) that a tap at their centre would miss, once scrolled to: some
# other element drawn over them.
_COVERED = r"""(selector) => [...document.querySelectorAll(selector)].filter((el) => {
  el.scrollIntoView({ block: 'center' });
  const box = el.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return !(hit && (hit === el || el.contains(hit)));
}).map((el) => el.outerHTML.slice(0, 80))"""


def _state(page: Page) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(_STATE)
    return state


def _wait_for_version(page: Page, version: int) -> None:
    """Until the page shows ``version`` (polled every frame: an ``expect`` would poll
    hundreds of milliseconds apart, on every move)."""
    page.wait_for_function("v => document.querySelector('#game')?.dataset.version === v",
                           arg=str(version), timeout=WAIT_MS)


def _wait_for_version_above(page: Page, version: int) -> None:
    page.wait_for_function(
        "v => Number(document.querySelector('#game')?.dataset.version) > v",
        arg=version, timeout=WAIT_MS)


def _wait_for_same_version(pages: list[Page]) -> int:
    """Both pages show the same version (one may lag behind the other): the newest."""
    newest = max(int(_state(page)["version"]) for page in pages)
    for page in pages:
        _wait_for_version(page, newest)
    return newest


def _assert_still(state: dict[str, Any], where: str) -> None:
    """Nothing moves on a page that asks for reduced motion."""
    assert not state["moving"], f"{where}: animations under reduced motion {state['moving']}"


def _assert_layout(page: Page, where: str, mode: str = "screen", width: int = 0) -> None:
    problems: list[list[str]] = page.evaluate(_LAYOUT, {"mode": mode, "width": width})
    if problems:
        shown = [f"{what} {details}" for what, details in problems[:8]]
        more = f"\n  and {len(problems) - 8} more" if len(problems) > 8 else ""
        raise AssertionError(f"{where}:\n  " + "\n  ".join(shown) + more)


def _check_prices_shown(page: Page, where: str, acting: bool, seen: dict[str, int]) -> int:
    """Every accessible face-up card and each of this seat's unbuilt wonders shows its
    price, on either seat's turn; a face-down card and the other city have none. Counts
    what was seen in ``seen``; returns the number of unaffordable prices shown."""
    shown = page.evaluate(_PRICES_SHOWN)
    if not shown or shown["phase"] != "play":
        return 0
    where = f"{where} ({'to act' if acting else 'waiting'})"
    assert not shown["unpriced"], f"{where}: cards without a price {shown['unpriced']}"
    assert shown["labelled"], f"{where}: a card's label does not say its price"
    assert all(_PRICE_TEXT.match(text) for text in shown["shown"]), (where, shown["shown"])
    assert shown["backsPriced"] == 0 and shown["othersPriced"] == 0, (where, shown)
    assert shown["wondersUnpriced"] == 0, f"{where}: an unbuilt wonder without a price"
    assert shown["unaffordableMarked"], f"{where}: unaffordable without ✕ and words"
    seen["cards"] += shown["faceUp"]
    seen["wonders"] += shown["wonders"]
    seen["trade"] += shown["trade"]
    seen["unaffordable"] += shown["unaffordable"]
    seen["waiting"] += 0 if acting else shown["faceUp"]
    unaffordable: int = shown["unaffordable"]
    return unaffordable




def _check_dialog_closes(page: Page, opener: str, kind: str, where: str) -> None:
    """Opens a dialog with the ``opener`` (a selector), checks it lies in sight, closes it
    with Escape and finds the focus back on the opener."""
    page.locator(opener).click()
    dialog = page.locator(f"dialog.bd-dialog--{kind}[open]")
    expect(dialog).to_be_visible()
    _assert_still(_state(page), f"{where}, the {kind} dialog open")
    _assert_layout(page, f"{where}, the {kind} dialog open")
    page.keyboard.press("Escape")
    expect(page.locator("dialog.bd-dialog")).to_have_count(0)
    expect(page.locator(opener)).to_be_focused()


def _check_result(pages: dict[int, Page], where: Callable[[int], str]) -> None:
    """The result on each page, titled by the winner (the same on both pages) or the shared
    victory, its score table's nine rows down to Total (that the banner and its Total row
    lie whole in sight, _LAYOUT checks)."""
    titles = {}
    for seat, page in pages.items():
        banner = page.locator("#end-screen")
        expect(banner).to_be_visible()
        result = page.evaluate(_RESULT)
        assert result["rows"] == SCORE_KEYS, f"{where(seat)}: score rows {result['rows']}"
        assert result["totalLabel"] == "Total", where(seat)
        total = page.locator("#end-screen table.bd-score tr.is-total")
        expect(total).to_be_visible()
        titles[seat] = result["title"]
    if "Shared victory" in titles.values():
        assert set(titles.values()) == {"Shared victory"}, titles
    else:
        winners = [seat for seat, title in titles.items() if title == "You win!"]
        assert len(winners) == 1, f"not one winner: {titles}"
        loser = 1 - winners[0]
        assert titles[loser] == f"{NAMES[winners[0]]} wins", titles


def _check_log(page: Page, moves: int) -> None:
    """The log has one entry per move, numbered by the move, newest first; the page
    reloaded tells the whole game again in its log, as it was told live."""
    told = page.locator("#log li").all_inner_texts()
    assert len(told) == moves, f"{len(told)} log entries for {moves} moves"
    numbers = page.locator("#log li").evaluate_all("items => items.map((i) => i.value)")
    assert numbers == list(range(moves, 0, -1)), numbers
    page.reload()
    expect(page.locator("#end-screen")).to_be_visible()
    expect(page.locator("#log li")).to_have_count(moves)
    assert page.locator("#log li").all_inner_texts() == told


def test_whole_game_fits_one_screen(open_seat: OpenSeat, server: str,
                                    screenshots: Path) -> None:
    rng = random.Random(SEED)
    game_id, credentials = new_game(server)
    watched = {seat: open_seat(game_id, credentials[seat],
                               viewport={"width": width, "height": height}, **CALM)
               for seat, (width, height) in DESKTOPS.items()}
    pages = {seat: w.page for seat, w in watched.items()}
    shot: set[str] = set()
    version = -1  # the version both pages show

    def where(seat: int) -> str:
        width, height = DESKTOPS[seat]
        return f"seat {seat} at {width}x{height}, version {version}"

    def shoot(seat: int, name: str) -> None:
        file = f"table-{name}-{DESKTOPS[seat][0]}.png"
        if file not in shot:
            shot.add(file)
            pages[seat].screenshot(path=screenshots / file)

    played: list[str] = []
    seen = {"cards": 0, "wonders": 0, "trade": 0, "unaffordable": 0, "waiting": 0}
    ages: set[str] = set()
    dialogs_checked = False
    try:
        while len(played) < MAX_ACTIONS:
            version = _wait_for_same_version(list(pages.values()))
            states = {seat: _state(page) for seat, page in pages.items()}
            to_act = {state["toAct"] for state in states.values()}
            assert len(to_act) == 1, f"the pages disagree on who acts at {version}: {to_act}"
            seat_to_act = to_act.pop()
            for seat, page in pages.items():
                state, here = states[seat], where(seat)
                _assert_still(state, here)
                _assert_layout(page, here)
                if _check_prices_shown(page, here, seat_to_act == str(seat), seen):
                    shoot(seat, "prices")  # the first table with an unaffordable price
                ages.add(state["age"])
                if state["phase"] == "draft":
                    shoot(seat, "draft")
                elif state["phase"] == "play":
                    shoot(seat, f"age{state['age']}")
                if state["overlayMine"]:
                    shoot(seat, "prompt")
            if seat_to_act == "":
                break
            seat = int(seat_to_act)
            acting = pages[seat]
            if not dialogs_checked and states[seat]["cardToTake"]:
                dialogs_checked = True
                for viewer, page in pages.items():
                    _check_dialog_closes(page, ".bd-city--top .bd-city-more", "city",
                                         where(viewer))
                card = acting.locator("button[data-card]:not(:disabled)").first
                _check_dialog_closes(
                    acting, f"button[data-card=\"{card.get_attribute('data-card')}\"]",
                    "card", where(seat))
            played.append(f"v{version} seat {seat}: {play_one(acting, rng)}")
            for page in pages.values():
                _wait_for_version_above(page, version)
        else:
            raise AssertionError(f"no end after {MAX_ACTIONS} actions")
        for seat in pages:
            shoot(seat, "end")
        _check_result(pages, where)
        _check_log(pages[1], len(played))
    except Exception as error:
        for seat, page in pages.items():
            page.screenshot(path=screenshots / f"table-failure-{DESKTOPS[seat][0]}.png")
        boxes = {seat: page.locator("#game-error").all_inner_texts()
                 for seat, page in pages.items()}
        error.add_note(f"seed {SEED}; game {game_id}; error boxes {boxes}; "
                       f"screenshots table-failure-*.png; last actions:\n"
                       + "\n".join(played[-20:]))
        raise
    assert dialogs_checked, "no card was ever there to take"
    assert {"1", "2", "3"} <= ages, f"#game never showed some age: {sorted(ages)}"
    assert all(seen.values()), f"prices never shown in some case: {seen}"
    missing = {f"table-{name}-{width}.png" for name in ("draft", "age1", "age2", "age3", "end")
               for width, _ in DESKTOPS.values()} - shot
    assert not missing, f"phases never seen: {sorted(missing)}"
    assert shot & {f"table-prompt-{width}.png" for width, _ in DESKTOPS.values()}, (
        "no decision overlay in the whole game")
    for w in watched.values():
        w.assert_no_errors()


def test_phone_layout(open_seat: OpenSeat, server: str, screenshots: Path) -> None:
    rng = random.Random(SEED)
    game_id, credentials = new_game(server)
    phone_width = PHONE["viewport"]["width"]
    watched = open_seat(game_id, credentials[0], **PHONE)
    phone = watched.page
    shot: set[str] = set()

    def shoot(name: str) -> None:
        if name not in shot:
            shot.add(name)
            phone.screenshot(path=screenshots / f"phone-{name}.png", full_page=True)

    # Every problem seen, with its details where it was first seen: one failure names all.
    problems: dict[str, str] = {}

    def check(where: str) -> None:
        state = _state(phone)
        if state["moving"]:
            problems.setdefault("animations under reduced motion",
                                f"{state['moving']} [{where}]")
        for what, details in phone.evaluate(_LAYOUT, {"mode": "phone", "width": phone_width}):
            problems.setdefault(what, f"{details} [{where}]")

    url = server.replace("http://", "ws://") + f"/ws/games/{game_id}"
    played: list[str] = []
    try:
        with connect(url, open_timeout=SOCKET_SECONDS) as connection:
            other = SeatSocket(connection, 1, credentials[1]["token"])
            while len(played) < MAX_ACTIONS:
                version = other.version
                _wait_for_version(phone, version)
                state = _state(phone)
                where = f"the phone at version {version} ({state['phase']}, age {state['age']})"
                check(where)
                if state["phase"] == "draft":
                    shoot("draft")
                elif state["phase"] == "play" and state["age"] == "1":
                    shoot("age1")
                if state["overlayMine"]:
                    shoot("prompt")
                if state["toAct"] == "":
                    break
                if "city-details" not in shot and state["phase"] == "play":
                    for city in ("top", "bottom"):
                        opener = phone.locator(f".bd-city--{city} .bd-city-more")
                        opener.click()
                        expect(phone.locator("dialog.bd-dialog--city[open]")).to_be_visible()
                        check(f"{where}, the {city} city's dialog open")
                        shoot("city-details")
                        phone.keyboard.press("Escape")
                        expect(phone.locator("dialog.bd-dialog")).to_have_count(0)
                        expect(opener).to_be_focused()
                    # The chat, open with a long line in it: whole, each of its buttons
                    # pressable (not under the log beside it).
                    phone.locator("#chat-open").click()
                    phone.locator("#chat input[name=text]").fill("good luck to you both " * 12)
                    phone.locator("#chat button[type=submit]").click()
                    expect(phone.locator("#chat .chat-line")).not_to_have_count(0)
                    check(f"{where}, the chat open")
                    covered = phone.evaluate(_COVERED, "#chat button, #chat input")
                    if covered:
                        problems.setdefault("the chat's controls under something else",
                                            f"{covered} [{where}]")
                    shoot("chat")
                    phone.locator("#chat-close").click()
                if state["toAct"] == "0":
                    move = play_one(phone, rng,
                                    lambda w=where: check(f"{w}, a card's options open"))
                else:
                    choice = rng.choice(other.view["legal_actions"])
                    other.send({"type": "action", "action": choice["notation"],
                                "version": version, "client_id": f"v{version}"})
                    move = choice["notation"]
                played.append(f"v{version} seat {state['toAct']}: {move}")
                other.until("update", version + 1)
            else:
                raise AssertionError(f"no end after {MAX_ACTIONS} actions")
        expect(phone.locator("#end-screen")).to_be_visible()
        shoot("end")
        if problems:
            raise AssertionError(
                f"on the phone, {len(problems)} problems (each where first seen):\n  "
                + "\n  ".join(f"{what}: {details}" for what, details in sorted(problems.items())))
    except Exception as error:
        phone.screenshot(path=screenshots / "phone-failure.png", full_page=True)
        boxes = phone.locator("#game-error").all_inner_texts()
        error.add_note(f"seed {SEED}; game {game_id}; error boxes {boxes}; "
                       f"screenshot phone-failure.png; last actions:\n"
                       + "\n".join(played[-10:]))
        raise
    assert {"draft", "age1", "city-details", "end"} <= shot, sorted(shot)
    watched.assert_no_errors()
