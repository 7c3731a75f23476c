"""Two browsers play through the real server: create and join by the invite link, then a
whole game by clicking the page's buttons.

The game page's contract (templates/game.html, static/js/game.js, static/js/board.js):

- ``#game`` carries ``data-seat`` (this page's seat), ``data-version`` (the version of the
  state shown), ``data-to-act`` (the seat to act, empty once the game is over) and
  ``data-age``;
- every button that sends an action has ``data-action="<notation>"`` and is ``disabled``
  when the action is not allowed;
- on a player's own normal turn each accessible card of the structure is a
  ``button[data-card]`` that opens a panel of option buttons (``[data-action]``);
- ``#end-screen`` is visible once the game is over;
- ``#log`` holds one ``li`` per move, its value the move's number (the version it made);
- in the play phase, on either seat's turn, every accessible face-up card of the structure
  and each of the viewer's unbuilt wonders carries a ``.bd-price-now`` tag (its
  ``.bd-price-shown`` part: "free", or coins with "(N trade)"; an unaffordable one is
  ``.is-unaffordable``, with a "✕" and "you cannot afford it" for screen readers).

The clicks are drawn from a seeded generator (DUEL_BROWSER_SEED, default below) and the
server deals each test's games from the test's name (tests/browser/server.py), so a run
repeats the same games and the same choices. Nothing waits a fixed time: each step waits
for the pages to show what it needs, within a generous bound that only detects a failure.
"""

from __future__ import annotations

import os
import random
import re
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    GAME_URL,
    WAIT_MS,
    OpenPage,
    Watched,
    fail_first_as_unavailable,
    pick_name,
    play_one,
)

SEED = int(os.environ.get("DUEL_BROWSER_SEED", "20240607"))
MAX_ACTIONS = 400  # a game takes well under 150

@dataclass
class Players:
    game_id: str
    host: Watched  # created the game: seat 0
    guest: Watched  # joined by the invite link: seat 1


def start_game(open_page: OpenPage, base_url: str, wonder_selection: str = "draft") -> Players:
    """Ann picks her name in the lobby and creates a private game; Bo opens the invite link
    in another browser context and joins; both end up on the game's page."""
    host = open_page(base_url + "/")
    page = host.page
    pick_name(page, "Ann")
    page.locator(f"input[name=wonder_selection][value={wonder_selection}]").check()
    page.locator("input[name=visibility][value=private]").check()
    page.locator("#create-button").click()
    invite = page.locator("#invite-url")
    expect(invite).to_be_visible()
    invite_url = invite.input_value()
    assert invite_url.startswith(base_url + "/join/"), invite_url
    assert "code=" in invite_url, invite_url

    guest = open_page(invite_url)
    guest.page.locator("input[name=name]").fill("Bo")
    guest.page.locator("#join-button").click()
    guest.page.wait_for_url(GAME_URL)

    page.locator("#open-game").click()
    page.wait_for_url(GAME_URL)
    host_match = GAME_URL.search(page.url)
    guest_match = GAME_URL.search(guest.page.url)
    assert host_match and guest_match
    assert host_match.group(1) == guest_match.group(1)
    assert f"/join/{host_match.group(1)}?" in invite_url
    for watched, seat in ((host, "0"), (guest, "1")):
        expect(watched.page.locator("#game")).to_have_attribute("data-seat", seat)
        expect(watched.page.locator("#players")).to_have_text(
            re.compile(r"^Ann( \(you\))? vs Bo( \(you\))?$"))
    return Players(host_match.group(1), host, guest)


def test_create_and_join_by_invite_link(open_page: OpenPage, server: str,
                                        screenshots: Path) -> None:
    players = start_game(open_page, server)
    for watched in (players.host, players.guest):
        expect(watched.page.locator("#game")).to_have_attribute("data-version", "0")
        expect(watched.page.locator("#game")).to_have_attribute("data-to-act", re.compile("^[01]$"))
    players.host.page.screenshot(path=screenshots / "joined-seat0.png", full_page=True)
    players.guest.page.screenshot(path=screenshots / "joined-seat1.png", full_page=True)
    # Reloading keeps the seat: the credentials stay in the browser.
    for seat, watched in enumerate((players.host, players.guest)):
        watched.page.reload()
        expect(watched.page.locator("#game")).to_have_attribute("data-seat", str(seat))
        expect(watched.page.locator("#game")).to_have_attribute("data-version", "0")
    players.host.assert_no_errors()
    players.guest.assert_no_errors()


def _attribute(page: Page, name: str) -> str:
    return page.locator("#game").get_attribute(name) or ""


def _wait_for_version_above(page: Page, version: int) -> None:
    page.wait_for_function(
        "v => Number(document.querySelector('#game')?.dataset.version) > v",
        arg=version, timeout=WAIT_MS)


def _wait_for_same_version(pages: list[Page]) -> int:
    """Both pages show the same version (one may lag behind the other): the newest."""
    newest = max(int(_attribute(page, "data-version")) for page in pages)
    for page in pages:
        expect(page.locator("#game")).to_have_attribute("data-version", str(newest),
                                                        timeout=WAIT_MS)
    return newest


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


def _check_prices_shown(page: Page, seat: int, acting: bool, seen: dict[str, int]) -> None:
    """Every accessible face-up card and each of this seat's unbuilt wonders shows its
    price, on either seat's turn; a face-down card and the other city have none."""
    shown = page.evaluate(_PRICES_SHOWN)
    if not shown or shown["phase"] != "play":
        return
    where = f"seat {seat} ({'to act' if acting else 'waiting'})"
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


def test_full_game_by_clicking(open_page: OpenPage, server: str, screenshots: Path) -> None:
    rng = random.Random(SEED)
    players = start_game(open_page, server, wonder_selection="draft")
    by_seat = {0: players.host.page, 1: players.guest.page}
    pages = [by_seat[0], by_seat[1]]
    for page in pages:
        expect(page.locator("#game")).to_have_attribute("data-version", "0")

    def shoot(name: str) -> None:
        for seat, page in by_seat.items():
            page.screenshot(path=screenshots / f"{name}-seat{seat}.png", full_page=True)

    shoot("draft")
    ages_shot = {_attribute(pages[0], "data-age")} - {""}
    played: list[str] = []
    seen = {"cards": 0, "wonders": 0, "trade": 0, "unaffordable": 0, "waiting": 0}
    try:
        while len(played) < MAX_ACTIONS:
            version = _wait_for_same_version(pages)
            to_act = {_attribute(page, "data-to-act") for page in pages}
            assert len(to_act) == 1, f"the pages disagree on who acts at {version}: {to_act}"
            seat = to_act.pop()
            if seat == "":
                break
            for viewer, page in by_seat.items():
                _check_prices_shown(page, viewer, str(viewer) == seat, seen)
            if seen["unaffordable"] and "prices" not in ages_shot:
                ages_shot.add("prices")  # the first table with an unaffordable price
                shoot("prices")
            acting = by_seat[int(seat)]
            assert _attribute(acting, "data-seat") == seat
            played.append(f"v{version} seat {seat}: {play_one(acting, rng)}")
            for page in pages:
                _wait_for_version_above(page, version)
            age = _attribute(acting, "data-age")
            if age and age not in ages_shot:
                ages_shot.add(age)
                shoot(f"age{age}")
        else:
            raise AssertionError(f"no end after {MAX_ACTIONS} actions")
        for page in pages:
            expect(page.locator("#end-screen")).to_be_visible()
        shoot("end")
    except Exception as error:
        shoot("failure")
        shown = {seat: page.locator("#game-error").all_inner_texts()
                 for seat, page in by_seat.items()}
        error.add_note(f"seed {SEED}; game {players.game_id}; error boxes {shown}; "
                       f"screenshots failure-seat*.png; last actions:\n"
                       + "\n".join(played[-20:]))
        raise
    assert "1" in ages_shot, f"#game never showed data-age 1: {sorted(ages_shot)}"
    assert all(seen.values()), f"prices never shown in some case: {seen}"
    # The log has one entry per move, numbered by the move, newest first; a reloaded page
    # tells the whole game again in its log, as it was told live.
    guest = by_seat[1]
    told = guest.locator("#log li").all_inner_texts()
    assert len(told) == len(played)
    numbers = guest.locator("#log li").evaluate_all("items => items.map((i) => i.value)")
    assert numbers == list(range(len(played), 0, -1))
    guest.reload()
    expect(guest.locator("#end-screen")).to_be_visible()
    expect(guest.locator("#log li")).to_have_count(len(told))
    assert guest.locator("#log li").all_inner_texts() == told
    players.host.assert_no_errors()
    players.guest.assert_no_errors()


def test_a_move_the_server_could_not_store_is_sent_again(open_page: OpenPage,
                                                        server: str) -> None:
    """The first action the page sends is answered ``unavailable`` (as when the database
    is down; the message never reaches the server). The page says so, sends the same action
    again by itself (held back until the test has seen the refusal, however late it looks),
    and the move reaches the other screen."""
    players = start_game(open_page, server, wonder_selection="first_game")
    host, guest = players.host.page, players.guest.page
    expect(host.locator("#game")).to_have_attribute("data-to-act", re.compile("^[01]$"))
    actor, other = (host, guest) if _attribute(host, "data-to-act") == "0" else (guest, host)
    refused = fail_first_as_unavailable(actor, "/ws/games/", "action")
    actor.reload()
    expect(actor.locator("#game")).to_have_attribute("data-version", "0")
    play_one(actor, random.Random(SEED))
    expect(actor.locator("#game-error")).to_contain_text("cannot reach its records")
    expect(actor.locator("#game")).to_have_attribute("data-version", "0")
    refused.let_through()
    _wait_for_version_above(other, 0)
    expect(actor.locator("#game")).to_have_attribute("data-version", "1")
    expect(actor.locator("#game-error")).to_be_hidden()
    assert len(refused.sent) == 2 and refused.sent[1] == refused.sent[0], (
        "the same action, under the same client id")
    players.host.assert_no_errors()
    players.guest.assert_no_errors()
