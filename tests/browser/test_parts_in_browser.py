"""A part of the game page fetched when first needed (the dialogs, here a city's details)
that cannot be fetched, because the connection dropped or a release deployed since the page
was drawn renamed its files (app/api/bundles.py), is said with a reload; a later try that
brings it takes the notice away."""

from __future__ import annotations

import re

from playwright.sync_api import Route, expect

from tests.browser.test_table_layout import OpenSeat, new_game, open_seat

__all__ = ["open_seat"]  # the fixture, used by name

DIALOGS = re.compile(r"/static/(bundle/chunk-\w+\.js|js/table/dialogs\.js)")
"""The dialogs' module as written, or any bundle file not fetched yet (the page's own are
in: what is fetched now is what the dialogs need)."""


def test_a_part_that_cannot_be_fetched_is_said_with_a_reload(open_seat: OpenSeat,
                                                             server: str) -> None:
    game_id, credentials = new_game(server)
    page = open_seat(game_id, credentials[0]).page
    notice = page.locator("#page-failed")
    expect(notice).to_be_hidden()

    def refuse(route: Route) -> None:
        route.fulfill(status=404, body="")

    page.route(DIALOGS, refuse)
    details = page.get_by_role("button", name=re.compile("City details")).first
    details.click()
    expect(notice).to_be_visible()
    expect(notice.locator("a")).to_have_attribute("href", "")
    page.unroute(DIALOGS, refuse)
    details.click()
    expect(page.get_by_role("dialog")).to_be_visible()
    expect(notice).to_be_hidden()
