"""Waiting alone for a quick match, the lobby offers the computer meanwhile
(``#queue-meanwhile``, ``#queue-computer``, shown only while waiting): pressing it leaves
the queue (nobody is then matched with a player gone elsewhere) and starts a game against
the computer with the card's choices."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.conftest import OpenPage, wait_for_queue
from tests.browser.test_lobby_in_browser import game_id_of, open_lobby, press_play


def test_waiting_for_a_quick_match_offers_the_computer_meanwhile(
        open_page: OpenPage, server: str, screenshots: Path) -> None:
    ann = open_lobby(open_page, server, "Meanwhile Ann")
    page = ann.page
    sent: list[str] = []
    page.on("websocket", lambda socket: socket.on(
        "framesent", lambda payload: sent.append(str(payload))))
    page.reload()  # its lobby socket, watched from its opening
    offer = page.locator("#queue-meanwhile")
    expect(offer).to_be_hidden()
    page.locator("#computer-play input[name=level][value=random]").check()
    press_play(page)
    wait_for_queue(server, ["Meanwhile Ann"])
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("No one yet?")
    page.locator("#quick-match").screenshot(path=screenshots / "quick-match-meanwhile.png")
    page.locator("#queue-computer").click()
    game_id_of(page)
    # The wait was cancelled, before the lobby's socket closed: no one is matched with Ann.
    assert any(json.loads(frame).get("type") == "cancel" for frame in sent), sent
    wait_for_queue(server, [])
    expect(page.locator("#game")).to_have_attribute("data-seat", "0")
    expect(page.locator("#players")).to_contain_text("Computer")
    ann.assert_no_errors()
