"""The lobby in real browsers: quick match, listed games joined with one click, leaving the
queue by leaving the page, rematch, and an admin's abort.

Each person is a separate browser context (their own cookies, so their own player
session). The lobby page's contract (templates/home.html, static/js/lobby.js):

- ``#lobby`` carries ``data-connection`` (``online`` once the lobby socket sent its first
  picture) and ``data-queue`` (``idle``, ``joining`` until the server confirms the wait,
  ``waiting``, ``matched``);
- ``#name-form`` / ``#name-input`` / ``#save-name`` pick the name; ``#player-name`` shows it;
- ``#play-button`` and ``#cancel-play`` run quick match;
- ``#open-games``, ``#live-games`` and ``#my-games`` hold ``li[data-game-id]`` entries; an
  open game's one-click join is ``button[data-join]``.

The game page adds ``data-status`` on ``#game``, ``#players`` (both names), the rematch
controls ``[data-rematch=offer|accept|decline|withdraw]`` and ``#aborted-banner``.

No test waits a fixed time: what the server must have done before a step (dropped a player
who left the queue, say) is waited for on the server's queue, which the tests' server shows
them (tests/browser/server.py), with a generous bound that only detects a failure.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, Route, ViewportSize, expect
from websockets.sync.client import connect

from tests.browser.conftest import (
    ADMIN_PASSWORD,
    GAME_URL,
    OpenPage,
    Watched,
    fail_first_as_unavailable,
    pick_name,
    play_one,
    play_over_sockets,
    post_json,
    wait_for_queue,
    watch,
)
from tests.browser.server import SOCKET_SECONDS, SeatSocket
from tests.browser.test_accessibility import assert_accessible

LAPTOP: ViewportSize = {"width": 1366, "height": 768}
PHONE: ViewportSize = {"width": 390, "height": 844}


def open_lobby(open_page: OpenPage, server: str, name: str) -> Watched:
    """A new person opens the lobby and picks a name; their lobby socket is live."""
    watched = open_page(server + "/")
    pick_name(watched.page, name)
    expect(watched.page.locator("#lobby")).to_have_attribute("data-connection", "online")
    return watched


def game_id_of(page: Page, leaving: str | None = None) -> str:
    """The id of the game the page shows, once it shows one (other than ``leaving``)."""
    page.wait_for_url(lambda url: bool((found := GAME_URL.search(url))
                                       and found.group(1) != leaving))
    found = GAME_URL.search(page.url)
    assert found, page.url
    return found.group(1)


def press_play(page: Page) -> None:
    page.locator("#play-button").click()
    expect(page.locator("#lobby")).to_have_attribute("data-queue", "waiting")
    expect(page.locator("#queue-waiting")).to_be_visible()


def expect_names(page: Page, seat: int, names: tuple[str, str]) -> None:
    """The game page names both players and marks this page's own seat."""
    shown = [f"{name} (you)" if s == seat else name for s, name in enumerate(names)]
    expect(page.locator("#players")).to_have_text(f"{shown[0]} vs {shown[1]}")


def test_quick_match_puts_two_players_in_one_game(open_page: OpenPage, server: str,
                                                  screenshots: Path) -> None:
    ann = open_lobby(open_page, server, "Ann")
    bo = open_lobby(open_page, server, "Bo")
    ann.page.set_viewport_size(LAPTOP)
    ann.page.screenshot(path=screenshots / "lobby.png", full_page=True)

    press_play(ann.page)
    # The clock runs: any reading past 0:00 (the page ticks each second, the test may look
    # late on a loaded machine).
    expect(ann.page.locator("#queue-elapsed")).to_have_text(re.compile(r"^(?!0:00$)\d+:\d\d$"))
    ann.page.screenshot(path=screenshots / "lobby-waiting.png", full_page=True)
    ann.page.set_viewport_size(PHONE)
    ann.page.screenshot(path=screenshots / "lobby-waiting-phone.png", full_page=True)
    bo.page.locator("#play-button").click()

    game_id = game_id_of(ann.page)
    assert game_id_of(bo.page) == game_id
    # Ann waited longer: seat 0. Neither page had a token: their sessions opened the seats.
    for seat, watched in enumerate((ann, bo)):
        page = watched.page
        expect(page.locator("#game")).to_have_attribute("data-seat", str(seat))
        expect(page.locator("#game")).to_have_attribute("data-version", "0")
        expect_names(page, seat, ("Ann", "Bo"))
        assert page.evaluate(f"localStorage.getItem('duel.seat.{game_id}')") is None

    to_act = ann.page.locator("#game").get_attribute("data-to-act")
    assert to_act in ("0", "1")
    acting, watching = (ann.page, bo.page) if to_act == "0" else (bo.page, ann.page)
    play_one(acting, random.Random(5))
    for page in (acting, watching):
        expect(page.locator("#game")).to_have_attribute("data-version", "1")
    ann.page.screenshot(path=screenshots / "quick-match-seat0.png", full_page=True)

    # Another tab of Ann's browser finds the game in her lobby and resumes it as her seat.
    tab = watch(ann.page.context.new_page()).page
    tab.goto(server + "/")
    entry = tab.locator(f"#my-games li[data-game-id='{game_id}']")
    expect(entry).to_contain_text("vs Bo")
    expect(entry).to_contain_text("Your turn" if to_act == "1" else "Bo's turn")
    expect(tab.locator(f"#live-games li[data-game-id='{game_id}']")).to_contain_text("Ann vs Bo")
    tab.set_viewport_size(PHONE)
    tab.screenshot(path=screenshots / "lobby-your-games-phone.png", full_page=True)
    entry.get_by_role("link", name=re.compile("Resume")).click()
    tab.wait_for_url(f"**/games/{game_id}")
    expect(tab.locator("#game")).to_have_attribute("data-seat", "0")
    expect(tab.locator("#game")).to_have_attribute("data-version", "1")
    ann.assert_no_errors()
    bo.assert_no_errors()


def test_play_refused_as_unavailable_is_pressed_again_by_the_page(
        open_page: OpenPage, server: str) -> None:
    """The first "play" is answered ``unavailable`` (as when the database is down; it never
    reaches the server). The page says so, keeps waiting and asks again by itself (held
    back until the test has seen the refusal, however late it looks)."""
    ann = open_lobby(open_page, server, "Ann")
    plays = fail_first_as_unavailable(ann.page, "/ws/lobby", "play")
    ann.page.reload()
    expect(ann.page.locator("#lobby")).to_have_attribute("data-connection", "online")
    ann.page.locator("#play-button").click()
    expect(ann.page.locator("#queue-status")).to_contain_text("cannot reach its records")
    expect(ann.page.locator("#queue-waiting")).to_be_visible()
    expect(ann.page.locator("#lobby")).to_have_attribute("data-queue", "joining")
    plays.let_through()
    expect(ann.page.locator("#lobby")).to_have_attribute("data-queue", "waiting")
    expect(ann.page.locator("#queue-status")).to_have_text("")
    assert len(plays.sent) == 2
    bo = open_lobby(open_page, server, "Bo")
    bo.page.locator("#play-button").click()
    game_id = game_id_of(ann.page)
    assert game_id_of(bo.page) == game_id
    expect(ann.page.locator("#game")).to_have_attribute("data-seat", "0")
    ann.assert_no_errors()
    bo.assert_no_errors()


def test_a_listed_game_appears_live_and_is_joined_in_one_click(
        open_page: OpenPage, server: str, screenshots: Path) -> None:
    ann = open_lobby(open_page, server, "Ann")
    bo = open_lobby(open_page, server, "Bo")
    expect(ann.page.locator("input[name=visibility][value=listed]")).to_be_checked()
    ann.page.locator("input[name=wonder_selection][value=first_game]").check()
    ann.page.locator("#create-button").click()
    game_id = game_id_of(ann.page)
    expect(ann.page.locator("#game")).to_have_attribute("data-status", "waiting")
    expect(ann.page.locator("#turn")).to_have_text(re.compile("join from the lobby"))

    entry = bo.page.locator(f"#open-games li[data-game-id='{game_id}']")
    expect(entry).to_contain_text("Ann")  # arrived on the socket: no reload
    expect(entry).to_contain_text("the rulebook's wonders")
    bo.page.screenshot(path=screenshots / "lobby-open-game.png", full_page=True)
    entry.locator(f"button[data-join='{game_id}']").click()

    assert game_id_of(bo.page) == game_id
    for seat, watched in enumerate((ann, bo)):
        page = watched.page
        expect(page.locator("#game")).to_have_attribute("data-seat", str(seat))
        expect(page.locator("#game")).to_have_attribute("data-status", "active")
        expect(page.locator("#game")).to_have_attribute("data-to-act", re.compile("^[01]$"))
        expect_names(page, seat, ("Ann", "Bo"))
    ann.assert_no_errors()
    bo.assert_no_errors()


def test_a_creator_cancels_a_listed_game_it_leaves_the_lobby_and_its_link_says_so(
        open_page: OpenPage, server: str, screenshots: Path) -> None:
    ann = open_lobby(open_page, server, "Ann")
    bo = open_lobby(open_page, server, "Bo")
    ann.page.locator("#create-button").click()
    game_id = game_id_of(ann.page)
    expect(ann.page.locator("#game")).to_have_attribute("data-status", "waiting")
    entry = bo.page.locator(f"#open-games li[data-game-id='{game_id}']")
    expect(entry).to_contain_text("Ann")
    ann.page.locator("[data-abort=ask]").click()  # asked once more first
    expect(ann.page.locator("#play-controls")).to_contain_text("Cancel this game?")
    ann.page.locator("[data-abort=confirm]").click()
    expect(ann.page.locator("#aborted-banner")).to_contain_text("You cancelled this game")
    expect(ann.page.locator("#game")).to_have_attribute("data-status", "aborted")
    expect(entry).to_have_count(0)  # gone from Bo's lobby at once, on its socket
    ann.page.screenshot(path=screenshots / "cancelled-by-its-creator.png")
    bo.page.goto(f"{server}/join/{game_id}")
    expect(bo.page.locator("#join-error")).to_contain_text("cancelled")
    ann.assert_no_errors()
    bo.assert_no_errors()


def test_leaving_the_lobby_page_leaves_the_queue(open_page: OpenPage, server: str) -> None:
    """Who waits is read from the server's queue (a view for the tests): before the next
    player presses Play, the server has handled the leaving, so nothing rests on timing.
    A page in the ``waiting`` state has the server's word that it waits; pressing Play
    pairs at once or waits, so a waiting player is never paired later with one who left."""
    ann = open_lobby(open_page, server, "Ann")
    press_play(ann.page)
    wait_for_queue(server, ["Ann"])
    ann.page.goto("about:blank")  # Ann leaves while waiting
    wait_for_queue(server, [])  # her socket closed: the server drops her

    cy = open_lobby(open_page, server, "Cy")
    press_play(cy.page)  # waiting: not paired with Ann, who left
    wait_for_queue(server, ["Cy"])
    lobby = ann.page.context.request.get(server + "/api/lobby").json()
    assert lobby["player"]["name"] == "Ann"
    assert lobby["mine"] == [], lobby["mine"]

    # Cancel leaves the queue too: Di, pressing Play next, waits alone...
    cy.page.locator("#cancel-play").click()
    expect(cy.page.locator("#lobby")).to_have_attribute("data-queue", "idle")
    expect(cy.page.locator("#queue-status")).to_have_text("You left the queue.")
    wait_for_queue(server, [])  # the server had the cancel
    di = open_lobby(open_page, server, "Di")
    press_play(di.page)
    wait_for_queue(server, ["Di"])
    # ...until Cy presses Play again: Di waited longer and gets seat 0.
    cy.page.locator("#play-button").click()
    game_id = game_id_of(di.page)
    assert game_id_of(cy.page) == game_id
    expect(di.page.locator("#game")).to_have_attribute("data-seat", "0")
    expect(cy.page.locator("#game")).to_have_attribute("data-seat", "1")
    expect_names(di.page, 0, ("Di", "Cy"))
    for watched in (ann, cy, di):
        watched.assert_no_errors()


def test_name_is_asked_before_playing(open_page: OpenPage, server: str,
                                      screenshots: Path) -> None:
    """Without a name the lists show; Play first asks for one, then goes on to wait."""
    eve = open_page(server + "/")
    page = eve.page
    expect(page.locator("#lobby")).to_have_attribute("data-connection", "online")
    expect(page.locator("#my-games")).to_contain_text("Pick a name")
    expect(page.locator("#site-player")).to_be_hidden()
    page.locator("#play-button").click()
    expect(page.locator("#name-input")).to_be_focused()
    expect(page.locator("#name-hint")).to_contain_text("we find you an opponent")
    page.locator("#save-name").click()  # empty: refused here, with a reason
    expect(page.locator("#name-error")).to_have_text("Type a name first.")
    page.locator("#name-input").fill("   Eve   Smith ")
    page.locator("#save-name").click()
    expect(page.locator("#player-name")).to_have_text("Eve Smith")
    expect(page.locator("#site-player")).to_contain_text("Eve Smith")
    expect(page.locator("#lobby")).to_have_attribute("data-queue", "waiting")
    page.screenshot(path=screenshots / "lobby-named-waiting.png", full_page=True)
    page.locator("#cancel-play").click()
    expect(page.locator("#lobby")).to_have_attribute("data-queue", "idle")
    wait_for_queue(server, [])  # nobody left waiting for the next test's Play
    eve.assert_no_errors()


# ------------------------------------------------------------------------------ rematch


def stored_seat(page: Page, game_id: str) -> dict[str, Any] | None:
    stored = page.evaluate(f"localStorage.getItem('duel.seat.{game_id}')")
    return None if stored is None else dict(json.loads(stored))


@contextlib.contextmanager
def _posted(page: Page, path: str) -> Iterator[list[dict[str, Any]]]:
    """The JSON answers to the page's POSTs to ``path`` within the block (read as they pass:
    the page goes on to another at once, and a body is not kept past that)."""
    answers: list[dict[str, Any]] = []

    def keep(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        answer = route.fetch()
        answers.append(answer.json())
        route.fulfill(response=answer)

    page.route(f"**{path}", keep)
    try:
        yield answers
    finally:
        page.unroute(f"**{path}", keep)


def listed_game(open_page: OpenPage, server: str
                ) -> tuple[str, Watched, Watched, list[dict[str, Any]]]:
    """Ann creates a listed game (the rulebook's wonders), Bo joins it from his lobby: the
    game, their pages and the server's answers to their create and join."""
    ann = open_lobby(open_page, server, "Ann")
    bo = open_lobby(open_page, server, "Bo")
    ann.page.locator("input[name=wonder_selection][value=first_game]").check()
    with _posted(ann.page, "/api/games") as created:  # until the page moved on with it
        ann.page.locator("#create-button").click()
        game_id = game_id_of(ann.page)
    with _posted(bo.page, f"/api/games/{game_id}/join") as joined:
        bo.page.locator(f"button[data-join='{game_id}']").click()
        assert game_id_of(bo.page) == game_id
    for seat, watched in enumerate((ann, bo)):
        expect(watched.page.locator("#game")).to_have_attribute("data-seat", str(seat))
        expect(watched.page.locator("#game")).to_have_attribute("data-status", "active")
    return game_id, ann, bo, [*created, *joined]


def test_rematch_by_clicking_swaps_the_seats(open_page: OpenPage, server: str,
                                             screenshots: Path) -> None:
    game_id, ann, bo, credentials = listed_game(open_page, server)
    assert [c["seat"] for c in credentials] == [0, 1]
    # The pages keep no token: their players' sessions hold the seats.
    for watched, seat in ((ann, 0), (bo, 1)):
        kept = stored_seat(watched.page, game_id)
        assert kept is not None and kept["seat"] == seat and "token" not in kept
    # Both step away while their seats' own sockets play the game out fast (no page redraws
    # to wait for), then come back to the finished game.
    for watched in (ann, bo):
        watched.page.goto("about:blank")
    last = play_over_sockets(server, game_id, credentials)
    for watched in (ann, bo):
        watched.page.goto(f"{server}/games/{game_id}")
        expect(watched.page.locator("#game")).to_have_attribute("data-version", str(last))
        expect(watched.page.locator("#end-screen")).to_be_visible()
        expect(watched.page.locator("#game")).to_have_attribute("data-status", "finished")

    # Cy watches from the lobby's link: no rematch buttons for a spectator.
    cy = open_page(f"{server}/games/{game_id}")
    expect(cy.page.locator("#game")).to_have_attribute("data-status", "finished")
    expect(cy.page.locator("#game")).to_have_attribute("data-seat", "")
    expect(cy.page.locator("#rematch")).to_be_hidden()

    ann.page.locator("[data-rematch=offer]").click()
    expect(ann.page.locator("#rematch")).to_contain_text("Waiting for Bo…")
    expect(bo.page.locator("#rematch")).to_contain_text("Ann offers a rematch:")
    expect(cy.page.locator("#rematch")).to_have_text("Ann offers a rematch.")
    expect(cy.page.locator("#rematch button")).to_have_count(0)
    bo.page.set_viewport_size(PHONE)
    bo.page.screenshot(path=screenshots / "rematch-offered-phone.png")
    bo.page.set_viewport_size(LAPTOP)
    bo.page.screenshot(path=screenshots / "rematch-offered.png")
    # Declined once, offered again, then accepted.
    bo.page.locator("[data-rematch=decline]").click()
    expect(ann.page.locator("#rematch")).to_contain_text("Bo declined the rematch.")
    ann.page.locator("[data-rematch=offer]").click()
    bo.page.locator("[data-rematch=accept]").click()

    new_id = game_id_of(ann.page, leaving=game_id)
    assert game_id_of(bo.page, leaving=game_id) == new_id
    # The spectator stays, and is shown the way to the new game.
    expect(cy.page.locator("#rematch-link")).to_have_attribute("href", f"/games/{new_id}")
    expect(cy.page.locator("#rematch-link")).to_have_text("Watch the rematch")
    # Seats swapped: Ann now holds seat 1, Bo seat 0, by their sessions.
    for watched, seat in ((ann, 1), (bo, 0)):
        expect(watched.page.locator("#game")).to_have_attribute("data-seat", str(seat))
        expect(watched.page.locator("#game")).to_have_attribute("data-version", "0")
    expect_names(ann.page, 1, ("Bo", "Ann"))
    expect_names(bo.page, 0, ("Bo", "Ann"))
    for watched in (ann, bo, cy):
        watched.assert_no_errors()


def test_an_admin_abort_reaches_both_players(open_page: OpenPage, server: str,
                                             screenshots: Path) -> None:
    game_id, ann, bo, _ = listed_game(open_page, server)
    admin = open_page(server + "/admin/login")
    admin.page.locator("input[name=password]").fill(ADMIN_PASSWORD)
    admin.page.locator("input[name=password]").press("Enter")
    admin.page.wait_for_url(re.compile(r"/admin(/games)?/?$"))
    aborted = admin.page.context.request.post(
        f"{server}/admin/api/games/{game_id}/abort",
        data={"reason": "Testing the abort"}, headers={"content-type": "application/json"})
    assert aborted.ok, aborted.text()

    for watched in (ann, bo):
        page = watched.page
        expect(page.locator("#aborted-banner")).to_have_text(
            "An admin aborted this game: Testing the abort")
        expect(page.locator("#game")).to_have_attribute("data-status", "aborted")
        expect(page.locator("#game")).to_have_attribute("data-to-act", "")
        enabled = page.evaluate("""() => [...document.querySelectorAll(
            '[data-action], button[data-card]')].filter(e => !e.matches(':disabled')).length""")
        assert enabled == 0, f"{enabled} move buttons still enabled"
    ann.page.set_viewport_size(LAPTOP)
    ann.page.screenshot(path=screenshots / "aborted-seat0.png")
    # After a reload the page still knows, reason and all (from the welcome).
    bo.page.reload()
    expect(bo.page.locator("#aborted-banner")).to_have_text(
        "An admin aborted this game: Testing the abort")
    expect(bo.page.locator("#game")).to_have_attribute("data-to-act", "")
    ann.assert_no_errors()
    bo.assert_no_errors()


def test_the_invite_link_knows_the_players_session(open_page: OpenPage, server: str,
                                                   browser: Browser) -> None:
    """Ann's session in a browser without her token: her own invite link says it is her
    game, and the game page opens her seat by the session alone."""
    ann = open_lobby(open_page, server, "Ann")
    ann.page.locator("input[name=visibility][value=private]").check()
    ann.page.locator("#create-button").click()
    expect(ann.page.locator("#invite-url")).to_have_value(re.compile("/join/.+code="))
    invite_url = ann.page.locator("#invite-url").input_value()
    game_id = invite_url.split("/join/", 1)[1].split("#", 1)[0]

    elsewhere = browser.new_context()
    try:
        elsewhere.add_cookies(ann.page.context.cookies())
        page = watch(elsewhere.new_page()).page
        page.goto(invite_url)
        expect(page.locator("input[name=name]")).to_have_value("Ann")
        expect(page.locator("#join-summary")).to_have_text(
            "Ann invites you to play. Clock: untimed.")
        page.locator("#join-button").click()
        expect(page.locator("#join-error")).to_contain_text("This is your own game")
        page.get_by_role("link", name="Go to your game").click()
        page.wait_for_url(f"**/games/{game_id}")
        expect(page.locator("#game")).to_have_attribute("data-seat", "0")
        expect(page.locator("#game")).to_have_attribute("data-status", "waiting")
        expect(page.locator("#turn")).to_have_text(re.compile("open the invite link"))
    finally:
        elsewhere.close()
    ann.assert_no_errors()


def test_my_games_page_follows_whose_turn_and_tells_a_background_tab(
        open_page: OpenPage, server: str, screenshots: Path) -> None:
    """Ann's timed game shows on her My games page with the clocks and whose turn it is;
    when Bo's move makes it her turn while the tab is in the background, the title says
    so. Her finished and waiting games are listed apart."""
    ann = open_page(server + "/")
    page = ann.page
    pick_name(page, "Ann")
    created = page.evaluate("""async () => (await fetch("/api/games", {method: "POST",
        headers: {"content-type": "application/json"},
        body: JSON.stringify({first_player: "creator", wonder_selection: "first_game",
                              time_control: {kind: "fischer", minutes: 10, increment: 5}})
      })).json()""")
    game_id = created["game_id"]
    joined = post_json(f"{server}/api/games/{game_id}/join",
                       {"invite_code": created["invite_code"], "name": "Bo"})
    page.goto(server + "/my-games")
    entry = page.locator(f"#ongoing-games [data-game-id='{game_id}']")
    expect(entry).to_contain_text("Your turn")
    expect(entry).to_contain_text("10 min + 5 s")
    expect(entry.locator(".entry-clock")).to_have_count(2)
    expect(entry.locator(".entry-clock.running")).to_have_count(0)  # a first decision
    url = server.replace("http://", "ws://") + f"/ws/games/{game_id}"
    with connect(url, open_timeout=SOCKET_SECONDS) as first, \
            connect(url, open_timeout=SOCKET_SECONDS) as second:
        seats = [SeatSocket(first, 0, created["token"]), SeatSocket(second, 1, joined["token"])]
        seats[0].send({"type": "action", "action": seats[0].view["legal_actions"][0]["notation"],
                       "version": 0, "client_id": "ann-1"})
        seats[0].until("ack")
        expect(entry).to_contain_text("Bo's turn")
        page.evaluate("""() => {  // as when the player switches to another tab
            Object.defineProperty(document, "visibilityState",
                                  {value: "hidden", configurable: true});
            document.dispatchEvent(new Event("visibilitychange"));
        }""")
        seats[1].until("update", 1)
        seats[1].send({"type": "action", "action": seats[1].view["legal_actions"][0]["notation"],
                       "version": 1, "client_id": "bo-1"})
        seats[1].until("ack")
        expect(entry).to_contain_text("Your turn")
        expect(page).to_have_title(re.compile("^● Your turn"))
        # Both have made their first decision: Ann's clock runs from her second.
        expect(entry.locator(".entry-clock.running")).to_have_count(1)
    assert_accessible(page, "My games")
    page.screenshot(path=screenshots / "my-games.png", full_page=True)
    ann.assert_no_errors()
