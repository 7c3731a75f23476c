"""The replay page (docs/records.md): a finished game opened by a logged-out browser from
its shared link, stepped through with the buttons, the slider's keys and the address; the
end revealed, the record offered for download."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from tests.browser.conftest import OpenPage, play_over_sockets, post_json


def test_a_finished_game_replays_from_its_link(open_page: OpenPage, server: str,
                                              screenshots: Path) -> None:
    created = post_json(f"{server}/api/games", {"name": "Ann"})
    game_id = created["game_id"]
    joined = post_json(f"{server}/api/games/{game_id}/join",
                       {"invite_code": created["invite_code"], "name": "Bo"})
    last = play_over_sockets(server, game_id, [created, joined])

    watched = open_page(f"{server}/replay/{game_id}")
    page = watched.page
    replay = page.locator("#replay")
    expect(replay).to_have_attribute("data-seq", str(last))
    expect(page.locator("#step-label")).to_have_text("After the last move: everything revealed")
    expect(page.locator("#record-json")).to_have_attribute("href", f"/api/games/{game_id}/record")
    page.screenshot(path=screenshots / "replay-end.png")

    page.locator("#step-first").click()
    expect(replay).to_have_attribute("data-seq", "0")
    expect(page.locator("#step-label")).to_contain_text("The setup, before the first of")
    expect(page.locator("#step-previous")).to_be_disabled()
    page.keyboard.press("ArrowRight")
    expect(replay).to_have_attribute("data-seq", "1")
    expect(page.locator("#step-label")).to_have_text(f"After move 1 of {last}")
    page.keyboard.press("End")
    expect(replay).to_have_attribute("data-seq", str(last))
    # On a phone the folded result ends the board, read down the page: it does not stay
    # fixed over the screen.
    page.set_viewport_size({"width": 390, "height": 844})
    folded = page.locator(".bd-result-folded")  # the replay shows the result folded
    expect(folded).to_be_visible()
    assert folded.evaluate("(bar) => getComputedStyle(bar).position") == "static"
    page.screenshot(path=screenshots / "replay-phone-end.png", full_page=True)
    page.set_viewport_size({"width": 1400, "height": 1000})

    # The position is in the address: a link to it opens there.
    again = open_page(f"{server}/replay/{game_id}#seq=12")
    expect(again.page.locator("#replay")).to_have_attribute("data-seq", "12")
    expect(again.page.locator("#step-label")).to_have_text(f"After move 12 of {last}")
    again.page.screenshot(path=screenshots / "replay-move-12.png")
    watched.assert_no_errors()
    again.assert_no_errors()


def test_a_game_in_progress_is_followed_live_from_its_replay_link(
        open_page: OpenPage, server: str, screenshots: Path) -> None:
    created = post_json(f"{server}/api/games", {"name": "Ann"})
    game_id = created["game_id"]
    joined = post_json(f"{server}/api/games/{game_id}/join",
                       {"invite_code": created["invite_code"], "name": "Bo"})
    seats = [created, joined]
    play_over_sockets(server, game_id, seats, moves=4)

    watched = open_page(f"{server}/replay/{game_id}")
    page = watched.page
    replay = page.locator("#replay")
    expect(replay).to_have_attribute("data-seq", "4")
    expect(page.locator("#live-mark")).to_be_visible()
    expect(page.locator("#record-links")).to_be_hidden()
    # At the latest position, the page follows the moves as they are played.
    play_over_sockets(server, game_id, seats, moves=6)
    expect(replay).to_have_attribute("data-seq", "6")
    expect(page.locator("#step-label")).to_have_text("After move 6 of 6")
    page.screenshot(path=screenshots / "replay-live.png")
    # Looking back, it stays where it is while the game moves on.
    page.locator("#step-first").click()
    expect(replay).to_have_attribute("data-seq", "0")
    play_over_sockets(server, game_id, seats, moves=8)
    expect(page.locator("#step-slider")).to_have_attribute("max", "8")
    expect(replay).to_have_attribute("data-seq", "0")
    expect(page.locator("#step-last")).to_be_enabled()
    # To the end of the game: revealed, the record offered, no longer live.
    last = play_over_sockets(server, game_id, seats)
    expect(page.locator("#live-mark")).to_be_hidden()
    expect(page.locator("#record-links")).to_be_visible()
    page.keyboard.press("End")
    expect(replay).to_have_attribute("data-seq", str(last))
    expect(page.locator("#step-label")).to_have_text("After the last move: everything revealed")
    watched.assert_no_errors()


def test_a_link_to_no_game_says_so(open_page: OpenPage, server: str,
                                   screenshots: Path) -> None:
    """A mistyped or truncated link: the game page says there is no such game, with the
    way to the lobby, instead of a table "Connecting…" for ever; the replay page says it
    with no step controls to press."""
    game = open_page(f"{server}/games/no-such-game").page
    expect(game.locator("#game-error")).to_contain_text("There is no such game")
    expect(game.locator(".missing-game a")).to_have_attribute("href", "/")
    expect(game.locator("#turn")).to_have_count(0)
    expect(game.locator("#connection")).to_have_count(0)
    game.screenshot(path=screenshots / "no-such-game.png")

    replay = open_page(f"{server}/replay/no-such-game").page
    expect(replay.locator("#step-error")).to_contain_text("There is no such game")
    expect(replay.locator(".steps")).to_be_hidden()
