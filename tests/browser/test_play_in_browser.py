"""Two browsers play through the real server: create and join by the invite link, and a
move the server could not store is sent again by the page. The whole game played by
clicking, with the prices and the log this contract promises, is
tests/browser/test_table_layout.py's ``test_whole_game_fits_one_screen`` (it measures the
layout on every move too).

The game page's contract (templates/game.html, static/js/game.js, static/js/table/), which
the browser tests rely on:

- ``#game`` carries ``data-seat`` (this page's seat), ``data-version`` (the version of the
  state shown), ``data-to-act`` (the seat to act, empty once the game is over),
  ``data-status``, ``data-phase`` and ``data-age``;
- every button that sends an action has ``data-action="<notation>"`` and is ``disabled``
  when the action is not allowed;
- on a player's own normal turn each accessible card of the structure is a
  ``button[data-card]`` that opens a dialog of option buttons (``[data-action]``);
- ``#end-screen`` is visible once the game is over;
- ``#log`` holds one ``li`` per move, its value the move's number (the version it made),
  newest first; a reloaded page tells the same log;
- in the play phase, on either seat's turn, every accessible face-up card of the structure
  and each of the viewer's unbuilt wonders carries a ``.bd-price-now`` tag (its
  ``.bd-price-shown`` part: "free", or coins with "(N trade)"; an unaffordable one is
  ``.is-unaffordable``, with a "✕" and "you cannot afford it" for screen readers), and the
  card's label says "Your price: …"; a face-down card and the other city show none.

The clicks are drawn from a seeded generator (DUEL_BROWSER_SEED, default below; also used
by test_around_the_table.py) and the server deals each test's games from the test's name
(tests/browser/server.py), so a run repeats the same games and the same choices. Nothing
waits a fixed time: each step waits for the pages to show what it needs, within a
generous bound that only detects a failure.
"""

from __future__ import annotations

import os
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    BUSY,
    GAME_URL,
    UNAVAILABLE,
    WAIT_MS,
    OpenPage,
    Watched,
    fail_first_as_unavailable,
    pick_name,
    play_one,
)
from tests.browser.server import CLOCK_PATH, post_json

SEED = int(os.environ.get("DUEL_BROWSER_SEED", "20240607"))


@dataclass
class Players:
    game_id: str
    host: Watched  # created the game: seat 0
    guest: Watched  # joined by the invite link: seat 1


def start_game(open_page: OpenPage, base_url: str, wonder_selection: str = "draft",
               clock: tuple[int, int] | None = None) -> Players:
    """Ann picks her name in the lobby and creates a private game (untimed, or real-time
    with ``clock``: minutes and seconds of increment); Bo opens the invite link in another
    browser context and joins; both end up on the game's page."""
    host = open_page(base_url + "/")
    page = host.page
    pick_name(page, "Ann")
    page.locator(f"input[name=wonder_selection][value={wonder_selection}]").check()
    if clock is not None:
        page.locator("input[name=clock][value=custom]").check()
        page.locator("input[name=minutes]").fill(str(clock[0]))
        page.locator("input[name=increment]").fill(str(clock[1]))
    page.locator("input[name=visibility][value=private]").check()
    page.locator("#create-button").click()
    invite = page.locator("#invite-url")
    expect(invite).to_be_visible()
    invite_url = invite.input_value()
    assert invite_url.startswith(base_url + "/join/"), invite_url
    assert "#code=" in invite_url, invite_url  # in the fragment: sent to no server

    guest = open_page(invite_url)
    if clock is not None:  # the invited player is told the clock before joining
        expect(guest.page.locator("#join-summary")).to_contain_text(
            f"Clock: {clock[0]} min + {clock[1]} s.")
    guest.page.locator("input[name=name]").fill("Bo")
    guest.page.locator("#join-button").click()
    guest.page.wait_for_url(GAME_URL)

    page.locator("#open-game").click()
    page.wait_for_url(GAME_URL)
    host_match = GAME_URL.search(page.url)
    guest_match = GAME_URL.search(guest.page.url)
    assert host_match and guest_match
    assert host_match.group(1) == guest_match.group(1)
    assert f"/join/{host_match.group(1)}#" in invite_url
    for watched, seat in ((host, "0"), (guest, "1")):
        expect(watched.page.locator("#game")).to_have_attribute("data-seat", seat)
        expect(watched.page.locator("#players")).to_have_text(
            re.compile(r"^Ann( \(you\))? vs Bo( \(you\))?$"))
    return Players(host_match.group(1), host, guest)


def test_create_and_join_by_invite_link(open_page: OpenPage, server: str,
                                        server_workdir: Path, screenshots: Path) -> None:
    players = start_game(open_page, server)
    # The invite code travels in the link's fragment: the join page was asked for, the
    # code never reached the server (nor its access log).
    invite_url = players.host.page.evaluate(
        "key => JSON.parse(localStorage.getItem(key)).invite_url", f"duel.seat.{players.game_id}")
    code = invite_url.partition("#code=")[2]
    log = (server_workdir / "server.log").read_text()
    assert code and f"/join/{players.game_id}" in log
    assert code not in log, "the invite code reached the server's log"
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


@pytest.mark.parametrize(("answer", "words"), [(UNAVAILABLE, "cannot reach its records"),
                                               (BUSY, "server is busy")],
                         ids=["unavailable", "busy"])
def test_a_move_the_server_could_not_store_is_sent_again(
        open_page: OpenPage, server: str, answer: dict[str, Any], words: str) -> None:
    """The first action the page sends is answered ``unavailable`` (as when the database
    is down; the message never reaches the server) or ``busy`` (an overloaded server).
    The page says so, sends the same action again by itself (held back until the test has
    seen the refusal, however late it looks), and the move reaches the other screen."""
    players = start_game(open_page, server, wonder_selection="first_game")
    host, guest = players.host.page, players.guest.page
    expect(host.locator("#game")).to_have_attribute("data-to-act", re.compile("^[01]$"))
    actor, other = (host, guest) if _attribute(host, "data-to-act") == "0" else (guest, host)
    refused = fail_first_as_unavailable(actor, "/ws/games/", "action", answer)
    actor.reload()
    expect(actor.locator("#game")).to_have_attribute("data-version", "0")
    play_one(actor, random.Random(SEED))
    expect(actor.locator("#game-error")).to_contain_text(words)
    expect(actor.locator("#game")).to_have_attribute("data-version", "0")
    refused.let_through()
    _wait_for_version_above(other, 0)
    expect(actor.locator("#game")).to_have_attribute("data-version", "1")
    expect(actor.locator("#game-error")).to_be_hidden()
    assert len(refused.sent) == 2 and refused.sent[1] == refused.sent[0], (
        "the same action, under the same client id")
    players.host.assert_no_errors()
    players.guest.assert_no_errors()


def test_a_take_back_asked_and_accepted_then_an_abort(
        open_page: OpenPage, server: str, screenshots: Path) -> None:
    """The player who moved asks to take the move back; the other declines, is asked
    again and accepts; both tables are as before the move and the log says so. Nothing is
    at stake then: the other player aborts (asked to confirm first), and both pages say
    who aborted the game."""
    players = start_game(open_page, server, wonder_selection="first_game")
    host, guest = players.host.page, players.guest.page
    expect(host.locator("#game")).to_have_attribute("data-to-act", re.compile("^[01]$"))
    seat = _attribute(host, "data-to-act")
    actor, other = (host, guest) if seat == "0" else (guest, host)
    expect(actor.locator("[data-take-back=offer]")).to_have_count(0)  # nothing to take back
    play_one(actor, random.Random(SEED))  # a first card of Age I uncovers nothing
    _wait_for_version_above(other, 0)
    # Declined once: each page words it for its own player.
    actor.locator("[data-take-back=offer]").click()
    other.locator("[data-take-back=decline]").click()
    expect(other.locator("#play-controls")).to_contain_text("You declined the take-back.")
    expect(actor.locator("#play-controls")).to_contain_text("declined your take-back.")
    actor.locator("[data-take-back=offer]").click()
    expect(other.locator("#play-controls")).to_contain_text("asks to take their last move back")
    expect(actor.locator("#play-controls")).to_contain_text("You asked")
    other.screenshot(path=screenshots / "take-back-asked.png", full_page=True)
    # On a phone, where the side column comes below the table, the question comes above it.
    other.set_viewport_size({"width": 390, "height": 844})
    asked, board = (other.locator(selector).bounding_box()
                    for selector in ("#play-controls", "#board"))
    assert asked and board and asked["y"] + asked["height"] <= board["y"], (asked, board)
    other.screenshot(path=screenshots / "phone-take-back-asked.png")
    other.set_viewport_size({"width": 1400, "height": 1000})
    other.locator("[data-take-back=accept]").click()
    for page in (actor, other):
        expect(page.locator("#game")).to_have_attribute("data-version", "2")
        expect(page.locator("#game")).to_have_attribute("data-to-act", seat)
        expect(page.locator("#log li").first).to_contain_text("last move back")
        expect(page.locator("#play-controls .play-offer")).to_have_count(0)

    # The take-back undid the only decision made: nothing is at stake, and either player
    # may abort (asked to confirm first) where the resign button was.
    expect(other.locator("[data-resign=ask]")).to_have_count(0)
    expect(other.locator("#first-move")).to_contain_text("first move")
    other.locator("[data-abort=ask]").click()
    expect(other.locator("#play-controls")).to_contain_text("Abort this game?")
    other.screenshot(path=screenshots / "abort-confirm.png", full_page=True)
    other.locator("[data-abort=confirm]").click()
    for page in (actor, other):
        expect(page.locator("#aborted-banner")).to_be_visible()
        expect(page.locator("#play-controls")).to_have_count(0)
    expect(other.locator("#aborted-banner")).to_contain_text("You aborted this game")
    expect(actor.locator("#aborted-banner")).to_contain_text("aborted this game: no result")
    actor.screenshot(path=screenshots / "aborted-by-the-opponent.png", full_page=True)
    players.host.assert_no_errors()
    players.guest.assert_no_errors()


def test_chat_both_ways_as_text_with_quick_phrases_and_a_mute(
        open_page: OpenPage, server: str, screenshots: Path) -> None:
    """Ann writes something that looks like markup: Bob, told of a new message, opens the
    chat and reads it as text (no element made of it). Bob answers with a quick phrase.
    Muted, Ann's chat shows only her own lines."""
    players = start_game(open_page, server, wonder_selection="first_game")
    ann, bob = players.host.page, players.guest.page
    ann.locator("#chat-open").click()
    expect(ann.locator("#chat")).to_be_visible()
    markup = '<img src=x onerror="window.pwned=1"> <b>hi</b>'
    ann.locator("#chat input[name=text]").fill(markup)
    ann.locator("#chat button[type=submit]").click()
    expect(ann.locator("#chat .chat-line")).to_have_count(1)
    expect(bob.locator("#chat-open")).to_have_text("Chat (1 new)")
    bob.locator("#chat-open").click()
    line = bob.locator("#chat .chat-line").first
    expect(line).to_contain_text(markup)
    assert bob.locator("#chat img, #chat b").count() == 0
    assert bob.evaluate("window.pwned === undefined")
    bob.locator("#chat [data-phrase=well_played]").click()
    expect(ann.locator("#chat .chat-line").nth(1)).to_contain_text("Well played!")
    ann.screenshot(path=screenshots / "chat-open.png", full_page=True)
    ann.locator("#chat-mute").click()
    expect(ann.locator("#chat .chat-line")).to_have_count(1)
    expect(ann.locator("#chat-mute")).to_have_attribute("aria-pressed", "true")
    players.host.assert_no_errors()
    players.guest.assert_no_errors()


def _move_time_on(server: str, seconds: float) -> list[str]:
    ended: list[str] = post_json(server + CLOCK_PATH, {"seconds": seconds})["ended"]
    return ended


def test_a_real_time_game_lost_on_time(open_page: OpenPage, server: str,
                                       screenshots: Path) -> None:
    """A two-minute game: both pages show both clocks, the running one marked; a player
    low on time sees it in red; the one who lets the clock run out loses on time, and both
    pages say so. (The server's time is moved on by the test: nothing waits a minute.)"""
    players = start_game(open_page, server, wonder_selection="first_game", clock=(2, 0))
    host, guest = players.host.page, players.guest.page
    for page in (host, guest):
        expect(page.locator("#clocks .clock")).to_have_count(2)
        expect(page.locator("#clocks .clock.running")).to_have_count(0)  # a first decision
    expect(host.locator("#game")).to_have_attribute("data-to-act", re.compile(r"^[01]$"))
    seat = _attribute(host, "data-to-act")
    actor, other = (host, guest) if seat == "0" else (guest, host)
    play_one(actor, random.Random(SEED))  # each seat's first decision costs it no time
    _wait_for_version_above(other, 0)
    play_one(other, random.Random(SEED + 1))
    _wait_for_version_above(actor, 1)
    running = f"#clocks .clock[data-seat='{seat}']"
    expect(other.locator(running)).to_have_attribute("data-running", "yes")
    assert players.game_id not in _move_time_on(server, 110)  # (other tests' games may end)
    play_one(actor, random.Random(SEED + 2))  # with some 10 s left: low (a tenth)
    _wait_for_version_above(other, 2)
    for page in (actor, other):
        expect(page.locator(running)).to_have_attribute("data-low", "yes")
        expect(page.locator(running)).to_have_attribute("data-running", "no")
    actor.screenshot(path=screenshots / "clocks-low.png", full_page=True)
    assert players.game_id in _move_time_on(server, 121)  # the other's time ran out
    for page in (actor, other):
        expect(page.locator("#end-screen")).to_be_visible()
        expect(page.locator("#end-screen")).to_contain_text("clock ran out")
    expect(actor.locator("#end-screen h2")).to_contain_text("You win")
    actor.screenshot(path=screenshots / "won-on-time.png", full_page=True)
    players.host.assert_no_errors()
    players.guest.assert_no_errors()


def test_the_creator_waiting_on_the_game_page_sees_the_clocks_start(
        open_page: OpenPage, server: str) -> None:
    """Ann waits on her timed game's page, its invite link shown; when Bo joins, her page
    shows the clocks without a reload (none running during the first decision)."""
    host = open_page(server + "/")
    page = host.page
    pick_name(page, "Ann")
    page.locator("input[name=visibility][value=private]").check()
    page.locator("input[name=minutes]").fill("3")  # chooses a custom real-time clock
    page.locator("#create-button").click()
    expect(page.locator("#invite-url")).to_be_visible()
    invite_url = page.locator("#invite-url").input_value()
    page.locator("#open-game").click()
    page.wait_for_url(GAME_URL)
    expect(page.locator("#waiting-invite #invite-url")).to_have_value(invite_url)
    expect(page.locator("#waiting-control")).to_have_text("Time control: 3 min + 10 s")
    expect(page.locator("#clocks")).to_have_count(0)
    guest = open_page(invite_url)
    guest.page.locator("input[name=name]").fill("Bo")
    guest.page.locator("#join-button").click()
    guest.page.wait_for_url(GAME_URL)
    for watched in (host, guest):
        expect(watched.page.locator("#clocks .clock")).to_have_count(2)
        # No clock runs during a first decision: its own deadline is said instead.
        expect(watched.page.locator("#clocks .clock.running")).to_have_count(0)
        expect(watched.page.locator("#first-move")).to_contain_text("first move")
        expect(watched.page.locator("#clocks")).to_have_attribute(
            "title", "Time control: 3 min + 10 s")
    expect(page.locator("#waiting-invite")).to_have_count(0)
    host.assert_no_errors()
    guest.assert_no_errors()


def test_the_win_is_claimed_from_an_opponent_who_left(
        open_page: OpenPage, server: str, screenshots: Path) -> None:
    """Bo closes his tab: Ann is told he left and, once he has been away long enough
    (DUEL_ABANDON_AFTER, two seconds here), may claim the win or keep waiting; she keeps
    waiting, then claims it. Both results say so. (Before both have made a first move
    there is no win to claim: the missed first move aborts the game.)"""
    players = start_game(open_page, server, wonder_selection="first_game")
    ann = players.host.page
    expect(ann.locator("#game")).to_have_attribute("data-to-act", re.compile("^[01]$"))
    seat = _attribute(ann, "data-to-act")
    first, second = (ann, players.guest.page) if seat == "0" else (players.guest.page, ann)
    play_one(first, random.Random(SEED))
    _wait_for_version_above(second, 0)
    play_one(second, random.Random(SEED + 1))
    _wait_for_version_above(ann, 1)
    players.guest.page.close()
    expect(ann.locator("#presence")).to_contain_text("Bo is away")
    expect(ann.locator("#absence")).to_have_attribute("data-claim", "ready")
    expect(ann.locator("#absence")).to_contain_text("Bo left the game")
    ann.screenshot(path=screenshots / "claim-win.png", full_page=True)
    ann.locator("[data-claim-win=wait]").click()
    expect(ann.locator("#absence")).to_have_attribute("data-claim", "folded")
    ann.locator("[data-claim-win=yes]").click()
    expect(ann.locator("#end-screen")).to_be_visible()
    expect(ann.locator("#end-screen")).to_contain_text("abandonment")
    expect(ann.locator("#end-screen h2")).to_contain_text("You win")
    players.host.assert_no_errors()


def test_an_invite_link_made_before_the_code_moved_still_works(
        open_page: OpenPage, server: str) -> None:
    """Links sent before the code moved to the fragment carry it in the query."""
    created = post_json(f"{server}/api/games", {"name": "Ann", "wonder_selection": "first_game"})
    old_link = created["invite_url"].replace("#code=", "?code=")
    guest = open_page(old_link)
    guest.page.locator("input[name=name]").fill("Bo")
    guest.page.locator("#join-button").click()
    guest.page.wait_for_url(GAME_URL)
    expect(guest.page.locator("#game")).to_have_attribute("data-seat", "1")
    guest.assert_no_errors()
