"""The server's Content-Security-Policy (app/api/security.py) in chromium: the pages work
under it, and inline code that it forbids is refused and seen.

Every browser test fails on a breach of the policy in a page it watches (conftest.py's
``_no_csp_violations``): the game's whole flow (test_play_in_browser.py, test_motion.py,
...), the lobby's and the admin's pages are checked there. Here: that such a breach is
seen at all, and the pages no other test opens without a player."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from tests.browser.conftest import ADMIN_PASSWORD, EXPECT_MS, OpenPage, Watched, pick_name

NONCE = re.compile(r"'nonce-([A-Za-z0-9_-]+)'")

# Three kinds of inline code an injected string could carry; none may run. (Not eval:
# Playwright's evaluate runs through DevTools, which CSP's 'unsafe-eval' does not bind.)
INJECT = """() => {
  document.body.insertAdjacentHTML("beforeend",
    '<p id="injected-style" style="color: rgb(255, 0, 0)">styled inline</p>'
    + '<button id="injected-handler" onclick="window.injectedRan = true">x</button>');
  const script = document.createElement("script");
  script.textContent = "window.injectedRan = true";
  document.body.append(script);
  document.getElementById("injected-handler").click();
  return {
    color: getComputedStyle(document.getElementById("injected-style")).color,
    ran: window.injectedRan === true,
  };
}"""


def _wait_for_reports(watched: Watched, directives: set[str]) -> None:
    """Until the page's reporter (conftest.py's CSP_REPORTER) has told of a breach of each
    of ``directives`` (console events arrive while Playwright is called): at most
    EXPECT_MS, only to detect a failure."""
    deadline = time.monotonic() + EXPECT_MS / 1000
    while missing := {directive for directive in directives if not any(
            f"violation: {directive} " in violation for violation in watched.violations)}:
        assert time.monotonic() < deadline, (missing, watched.violations)
        watched.page.wait_for_timeout(50)


def test_the_lobby_works_under_the_policy_and_inline_code_is_refused(
        open_page: OpenPage, server: str) -> None:
    home = open_page(server + "/")
    page = home.page
    response = page.reload()
    assert response is not None
    policy = response.headers["content-security-policy"]
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
    nonce = NONCE.search(policy)
    assert nonce is not None
    # The import map ran under this answer's nonce, and the modules it maps with it.
    assert page.evaluate("document.querySelector('script[type=importmap]').nonce") == nonce[1]
    pick_name(page, "Ann")
    assert not home.violations, home.violations

    outcome = page.evaluate(INJECT)
    assert outcome["color"] != "rgb(255, 0, 0)", outcome
    assert not outcome["ran"], outcome
    _wait_for_reports(home, {"style-src-attr", "script-src-elem", "script-src-attr"})
    # Seen, as this test meant: not a breach of the pages themselves.
    home.violations.clear()
    home.errors.clear()


def test_the_admin_login_and_games_pages_work_under_the_policy(
        open_page: OpenPage, server: str) -> None:
    admin = open_page(server + "/admin")
    page = admin.page
    expect(page).to_have_url(re.compile(r"/admin/login"))
    page.locator("#admin-password").fill(ADMIN_PASSWORD)
    page.locator("#login-button").click()
    expect(page).to_have_url(re.compile(r"/admin$"))
    expect(page.locator(".admin-nav")).to_be_visible()
    page.goto(server + "/admin/import")
    expect(page.locator(".admin-nav")).to_be_visible()
    admin.assert_no_errors()
