"""Ratings in the browser: two accounts play a rated game (created with the lobby's "Rated"
box, joined by its invite link, a move each by clicking, then a resignation); both profiles
show the new ratings and the game, the leaderboard lists both, the lobby and "My games"
mark the game rated with the accounts' ratings, the statistics count it; and a logged-out
browser replays it from its shared link.

The pages' contract: ``#leaderboard-page``, ``#profile-page`` and ``#stats-page`` carry
``data-state`` (``ready`` once drawn); the leaderboard's rows are ``tr[data-username]``, a
profile's recent games ``li[data-game-id]`` (with ``data-result``), its chart an
``svg[data-points]``; the lists' rated games are ``li[data-rated]``.
"""

from __future__ import annotations

import random
import re
import secrets
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.conftest import GAME_URL, OpenPage, Watched, play_one
from tests.browser.test_accessibility import assert_accessible
from tests.browser.test_lobby_in_browser import LAPTOP, PHONE, open_lobby

PASSWORD = "correct horse battery"
START = 1500
"""Every account's rating before its first rated game."""
RATING = re.compile(r"^(\d+)\??$")


def register(open_page: OpenPage, server: str, name: str) -> tuple[Watched, str]:
    """A guest picks a name in the lobby (offered no rated game), then registers."""
    username = f"{name.lower()}_{secrets.token_hex(3)}"  # the run's server is shared
    watched = open_lobby(open_page, server, name)
    page = watched.page
    expect(page.locator("#create-rated")).to_have_count(0)
    expect(page.locator("#play-rated")).to_have_count(0)
    page.locator(".site-header a[href='/account']").click()
    form = page.locator("#register-form")
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.locator("#account-username")).to_have_text(username)
    expect(page.locator("#own-profile")).to_have_attribute("href", f"/players/{username}")
    return watched, username


def rating_on(page: Page, username: str, server: str) -> int:
    """The rating the profile shows (without the provisional "?")."""
    page.goto(f"{server}/players/{username}")
    expect(page.locator("#profile-page")).to_have_attribute("data-state", "ready")
    shown = page.locator("#profile-rating").inner_text()
    found = RATING.match(shown)
    assert found, shown
    return int(found.group(1))


def both_sizes(page: Page, path: Path) -> None:
    """The page at a laptop's size and a phone's, whole, with nothing wider than the screen."""
    for size, name in ((LAPTOP, path.name), (PHONE, path.stem + "-phone.png")):
        page.set_viewport_size(size)
        overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 0, f"{page.url} is {overflow} px wider than {size['width']}"
        page.screenshot(path=path.with_name(name), full_page=True)
    page.set_viewport_size(LAPTOP)


def test_a_rated_game_moves_both_ratings(open_page: OpenPage, server: str,
                                         screenshots: Path) -> None:
    ann, ann_name = register(open_page, server, "Ann")
    bo, bo_name = register(open_page, server, "Bo")
    host, guest = ann.page, bo.page

    # Ann creates a rated game with an invite link; Bo, logged in, joins by the link.
    host.goto(server + "/")
    expect(host.locator("#lobby")).to_have_attribute("data-connection", "online")
    expect(host.locator("#play-rated")).to_be_visible()
    host.locator("#create-rated").check()
    host.locator("input[name=visibility][value=private]").check()
    host.locator("#create-button").click()
    invite = host.locator("#invite-url")
    expect(invite).to_be_visible()
    guest.goto(invite.input_value())
    expect(guest.locator("#join-summary")).to_contain_text("A rated game")
    expect(guest.locator("input[name=name]")).to_have_value("Bo")
    guest.locator("#join-button").click()
    guest.wait_for_url(GAME_URL)
    host.locator("#open-game").click()
    host.wait_for_url(GAME_URL)
    found = GAME_URL.search(host.url)
    assert found and found.group(1) in guest.url
    game_id = found.group(1)

    # A move each, by clicking, then Bo resigns.
    rng = random.Random(14)
    seats = {host: "0", guest: "1"}
    for page in (host, guest):
        expect(page.locator("#game")).to_have_attribute("data-to-act", re.compile("^[01]$"))
    first = host if host.locator("#game").get_attribute("data-to-act") == "0" else guest
    second = guest if first is host else host
    play_one(first, rng)
    expect(second.locator("#game")).to_have_attribute("data-to-act", seats[second])
    play_one(second, rng)
    for page in (host, guest):
        expect(page.locator("#game")).to_have_attribute("data-version", "2")
    guest.locator("[data-resign=ask]").click()
    guest.locator("[data-resign=yes]").click()
    expect(host.locator("#end-screen")).to_contain_text("You win by resignation")
    expect(guest.locator("#end-screen")).to_contain_text("You resigned")
    # Each end screen says what the game did to both ratings, the same on both.
    for page in (host, guest):
        expect(page.locator("#rating-changes .bd-rating-change")).to_have_count(2)
    expect(host.locator("#rating-changes [data-seat='0']")).to_contain_text(
        re.compile(r"1500 → 1\d{3} \(\+\d+\)"))
    expect(guest.locator("#rating-changes [data-seat='1']")).to_contain_text(
        re.compile(r"1500 → 1\d{3} \(\u2212\d+\)"))
    host.screenshot(path=screenshots / "rated-end.png")

    # The profiles: the winner above where both began, the loser below; the game listed
    # with each one's change and the opponent linked to their profile.
    assert rating_on(guest, bo_name, server) < START
    bo_game = guest.locator(f"#recent-games li[data-game-id='{game_id}']")
    expect(bo_game).to_have_attribute("data-result", "loss")
    # A minus sign (U+2212), not a hyphen, before a loss.
    expect(bo_game.locator(".rating-change")).to_have_text(re.compile("^\u2212\\d+$"))
    assert rating_on(host, ann_name, server) > START
    ann_game = host.locator(f"#recent-games li[data-game-id='{game_id}']")
    expect(ann_game).to_have_attribute("data-result", "win")
    expect(ann_game.locator(".rating-change")).to_have_text(re.compile(r"^\+\d+$"))
    expect(ann_game.locator(f"a[href='/players/{bo_name}']")).to_have_text("Bo")
    expect(ann_game.locator(f"a[href='/replay/{game_id}']")).to_be_visible()
    expect(host.locator("#rating-chart svg[data-points='1']")).to_be_visible()
    expect(host.locator("#rating-chart svg title").first).to_contain_text("Ann")
    assert_accessible(host, "a profile")
    both_sizes(host, screenshots / "profile.png")

    # The leaderboard: both, the winner first.
    host.locator(".site-header a[href='/leaderboard']").click()
    expect(host.locator("#leaderboard-page")).to_have_attribute("data-state", "ready")
    rows = host.locator("#leaderboard-rows tr[data-username]")
    names = rows.evaluate_all("rows => rows.map(row => row.dataset.username)")
    assert ann_name in names and bo_name in names, names
    assert names.index(ann_name) < names.index(bo_name)
    expect(host.locator(f"tr[data-username='{ann_name}'] a")).to_have_attribute(
        "href", f"/players/{ann_name}")
    assert_accessible(host, "the leaderboard")
    both_sizes(host, screenshots / "leaderboard.png")

    # The statistics count the resignation.
    host.locator(".site-header a[href='/stats']").click()
    expect(host.locator("#stats-page")).to_have_attribute("data-state", "ready")
    resigned = host.locator("#victory-rows tr[data-kind=resigned] td").first
    expect(resigned).to_have_text(re.compile(r"^[1-9]\d*$"))
    expect(host.locator("#first-player")).to_contain_text("starting player won")
    # Each figure with its own plural ("1 minute", not "1 minutes").
    expect(host.locator("#length-average")).to_have_text(re.compile(
        r"^On average a game lasts (1 move|[\d.,]+ moves) and (1 minute|[\d.,]+ minutes)\.$"))
    assert_accessible(host, "the statistics")
    both_sizes(host, screenshots / "stats.png")

    # The lobby and "My games": the game marked rated, Bo's name linked with his rating.
    for path in ("/", "/my-games"):
        host.goto(server + path)
        entry = host.locator(f"li[data-game-id='{game_id}']").first
        expect(entry).to_have_attribute("data-rated", "")
        expect(entry.locator(".badge.rated")).to_have_text("Rated")
        expect(entry.locator(f"a[href='/players/{bo_name}']")).to_have_text("Bo")
        expect(entry.locator(".rating")).to_have_text(re.compile(r"^\(\d+\??\)$"))
    host.goto(server + "/")
    expect(host.locator("#lobby")).to_have_attribute("data-connection", "online")
    expect(host.locator(f"#my-games li[data-game-id='{game_id}'] .badge.rated")).to_be_visible()
    assert_accessible(host, "the lobby of an account")
    both_sizes(host, screenshots / "lobby-rated.png")

    # A logged-out browser replays the game from its shared link.
    stranger = open_page(f"{server}/replay/{game_id}")
    expect(stranger.page.locator(".site-header a[href='/account']")).to_have_text("Log in")
    expect(stranger.page.locator("#record-links")).to_be_visible()
    version = host.evaluate(
        "async id => (await (await fetch(`/api/games/${id}`)).json()).version", game_id)
    expect(stranger.page.locator("#replay")).to_have_attribute("data-seq", str(version))
    for watched in (ann, bo, stranger):
        watched.assert_no_errors()
