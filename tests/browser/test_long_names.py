"""Names as long as a name may be (tests/browser/test_table_layout.py's NAMES, one a single
word) on the pages around the table, at a phone's width: the lobby's lists, the invite page,
the header, the player's games in progress and finished, a game's abort question, its
result and rematch offer, and the replay of a finished game with its analysis. No page grows
wider than the phone's window (test_table_layout.py plays whole games with such names)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import pick_name, play_over_sockets, post_json, watch
from tests.browser.test_table_layout import NAMES, PHONE

ONE_WORD, SPACED = NAMES

_CREATE = """async (body) => {
  // As the lobby creates a game: this browser's player, its seat kept where the page looks.
  const created = await (await fetch("/api/games", {method: "POST",
    headers: {"content-type": "application/json"}, body: JSON.stringify(body)})).json();
  localStorage.setItem(`duel.seat.${created.game_id}`,
                       JSON.stringify({seat: created.seat, token: created.token}));
  return created;
}"""


_SIDE_LABELS = """() => [...document.querySelectorAll('#analysis .an-side')].map((label) => ({
  text: label.textContent,
  right: label.getBoundingClientRect().right,
  // Where a label may end: the plot's right edge (the chart's margin, 10 px, in) less the
  // label's own 6 px (static/js/table/analysis.js).
  edge: label.ownerSVGElement.getBoundingClientRect().right - 16,
}))"""
LETTER = 16
"""More than a letter and an ellipsis at 12 px: a shortened label ends closer to its edge."""


def _width_checked(page: Page, what: str, screenshots: Path) -> None:
    page.screenshot(path=screenshots / f"long-names-{what}.png", full_page=True)
    width, window = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    phone = PHONE["viewport"]["width"]
    assert window == phone, f"{what}: the phone's window widened to {window} px (of {phone})"
    assert width <= window, f"{what}: the page is {width} px wide in a {window} px window"


def _create(page: Page, server: str, **body: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A game of this page's player against SPACED: both seats' credentials."""
    created: dict[str, Any] = page.evaluate(_CREATE, {
        "first_player": "creator", "wonder_selection": "draft", **body})
    joined = post_json(f"{server}/api/games/{created['game_id']}/join",
                       {"invite_code": created["invite_code"], "name": SPACED})
    return created, joined


def test_long_names_never_widen_a_page(browser: Browser, server: str,
                                       screenshots: Path) -> None:
    assert len(ONE_WORD) == len(SPACED) == 40  # the longest a name may be
    context = browser.new_context(**PHONE)
    try:
        watched = watch(context.new_page())
        page = watched.page
        page.goto(server + "/")
        pick_name(page, ONE_WORD)
        timed, _ = _create(page, server, listed=True,
                           time_control={"kind": "fischer", "minutes": 10, "increment": 5})
        finished = _create(page, server)
        play_over_sockets(server, finished[0]["game_id"], list(finished))
        invite = post_json(f"{server}/api/games", {"name": ONE_WORD, "first_player": "creator",
                                                   "wonder_selection": "draft"})

        page.goto(server + "/")
        expect(page.locator(f"[data-game-id='{timed['game_id']}']").first).to_be_visible()
        _width_checked(page, "lobby", screenshots)

        page.goto(server + "/my-games")
        expect(page.locator(f"#ongoing-games [data-game-id='{timed['game_id']}']"
                            " .entry-clock")).to_have_count(2)
        expect(page.locator(f"[data-game-id='{finished[0]['game_id']}']")).to_be_visible()
        _width_checked(page, "my-games", screenshots)

        page.goto(f"{server}/join/{invite['game_id']}?code={invite['invite_code']}")
        expect(page.locator("#join-summary")).to_contain_text(ONE_WORD)
        _width_checked(page, "join", screenshots)

        page.goto(f"{server}/games/{timed['game_id']}")
        page.locator("[data-abort=ask]").click()  # no one has moved: abort, not resign
        expect(page.locator("[data-abort=confirm]")).to_be_visible()
        _width_checked(page, "abort", screenshots)

        page.goto(f"{server}/games/{finished[0]['game_id']}")
        page.locator("[data-rematch=offer]").click()
        expect(page.locator("[data-rematch=withdraw]")).to_be_visible()
        _width_checked(page, "result", screenshots)

        page.goto(f"{server}/replay/{finished[0]['game_id']}")
        expect(page.locator("#analysis")).to_have_attribute("data-status", "done",
                                                            timeout=30_000)
        _width_checked(page, "replay", screenshots)
        # The chart's labels cannot wrap: on a phone each name is shortened, by as little as
        # the plot's width asks; on a wide screen (the replay's chart column grows with it)
        # they are whole.
        labels = page.evaluate(_SIDE_LABELS)
        assert len(labels) == len(NAMES), labels
        for label, name in zip(labels, NAMES, strict=True):
            shown = label["text"].removesuffix(" ahead")
            assert shown.endswith("…") and name.startswith(shown[:-1]), label
            assert label["edge"] - LETTER < label["right"] <= label["edge"] + 1, label
        page.set_viewport_size({"width": 1920, "height": 1080})
        page.wait_for_function("() => innerWidth === 1920")
        expect(page.locator("#analysis .an-side")).to_have_text([f"{name} ahead" for name in NAMES])
        labels = page.evaluate(_SIDE_LABELS)
        assert all(label["right"] <= label["edge"] + 1 for label in labels), labels
        watched.assert_no_errors()
    finally:
        context.close()
