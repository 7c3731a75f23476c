"""Names as long as the name rules allow (40 characters), one of them a single word, on the
pages around the table at a phone's width: the lobby's lists, the invite page, the header,
the player's games and a replay. Each page breaks the names rather than widening itself
(tests/browser/test_table_layout.py plays whole games with such names)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.browser.conftest import pick_name, post_json, watch
from tests.browser.test_table_layout import PHONE

ONE_WORD = "WOLFESCHLEGELSTEINHAUSENBERGERDORFFWWWWW"
SPACED = "Maximiliana Ottilia Wilhelmina Brightmor"


def test_long_names_never_widen_a_page(browser: Browser, server: str,
                                       screenshots: Path) -> None:
    assert len(ONE_WORD) == len(SPACED) == 40  # the longest a name may be
    listed = {"name": ONE_WORD, "first_player": "creator", "wonder_selection": "draft",
              "listed": True}
    live = post_json(f"{server}/api/games", listed)
    post_json(f"{server}/api/games/{live['game_id']}/join",
              {"invite_code": live["invite_code"], "name": SPACED})
    timed = post_json(f"{server}/api/games", {
        **listed, "time_control": {"kind": "fischer", "minutes": 10, "increment": 5}})
    context = browser.new_context(**PHONE)
    try:
        watched = watch(context.new_page())
        page = watched.page
        page.goto(server + "/")
        pick_name(page, ONE_WORD)
        pages = {
            "lobby": ("/", f"[data-game-id='{live['game_id']}']"),
            "join": (f"/join/{timed['game_id']}?code={timed['invite_code']}",
                     "#join-summary:not(:empty)"),
            "my-games": ("/my-games", "#site-player:not([hidden])"),
            "replay": (f"/replay/{live['game_id']}", "#replay-board > *"),
        }
        for name, (path, ready) in pages.items():
            page.goto(server + path)
            expect(page.locator(ready).first).to_be_visible()
            page.screenshot(path=screenshots / f"long-names-{name}.png", full_page=True)
            width, window = page.evaluate(
                "() => [document.documentElement.scrollWidth, innerWidth]")
            assert width <= window == PHONE["viewport"]["width"], (
                f"{name}: the page is {width} px wide in a {window} px window")
        watched.assert_no_errors()
    finally:
        context.close()
