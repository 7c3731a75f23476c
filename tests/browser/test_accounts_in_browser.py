"""Accounts in the browser (docs/lobby.md, Accounts): a guest registers from the account
page and keeps their name; another browser logs in to the account; logging out everywhere
from one logs the other out too. And the pages' forms (account, lobby, invite, admin's)
cannot be pressed before their script is ready."""

from __future__ import annotations

import re
import secrets
from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.browser.conftest import ADMIN_PASSWORD, OpenPage, post_json
from tests.browser.test_lobby_in_browser import open_lobby

PASSWORD = "correct horse battery"


def test_register_log_in_elsewhere_and_log_out_everywhere(
        open_page: OpenPage, server: str, screenshots: Path) -> None:
    username = f"ann_{secrets.token_hex(3)}"  # the run's server is shared by every test
    home = open_lobby(open_page, server, "Ann")
    page = home.page
    page.locator(".site-header a[href='/account']").click()
    expect(page.locator("#register-title")).to_be_visible()
    form = page.locator("#register-form")
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.locator("#account-username")).to_have_text(username)
    expect(page.locator("#account-page")).to_contain_text("others see you as Ann")
    expect(page.locator(".site-header a[href='/account']")).to_have_text("Account")
    page.screenshot(path=screenshots / "account.png")

    away = open_page(f"{server}/account")
    login = away.page.locator("#login-form")
    login.locator("input[name=username]").fill(username.upper())
    login.locator("input[name=password]").fill("not the password")
    login.locator("button[type=submit]").click()
    expect(away.page.locator("#account-error")).to_have_text("Wrong username or password.")
    # The browser logs the refused request itself: the one error expected.
    assert [e for e in away.errors if "401" not in e or "/api/login" not in e] == []
    away.errors.clear()
    login.locator("input[name=password]").fill(PASSWORD)
    login.locator("button[type=submit]").click()
    expect(away.page.locator("#account-username")).to_have_text(username)
    expect(away.page.locator("#site-player")).to_contain_text("Ann")

    away.page.locator("#logout-everywhere").click()
    expect(away.page.locator("#login-title")).to_be_visible()
    page.reload()
    expect(page.locator("#login-title")).to_be_visible()
    expect(page.locator("#site-player")).to_be_hidden()
    away.page.screenshot(path=screenshots / "account-logged-out.png")
    home.assert_no_errors()
    away.assert_no_errors()


def test_controls_wait_for_the_page_s_script(browser: Browser, server: str,
                                             screenshots: Path) -> None:
    """The buttons a page's script drives are drawn disabled and enabled by the script once
    its handlers are in place: pressed sooner, a form would be posted to the page itself
    (the server answers it in JSON) and a button would do nothing. A script that cannot be
    fetched leaves them disabled, and the page says so."""
    game = post_json(f"{server}/api/games", {"name": "Bo", "first_player": "creator",
                                             "wonder_selection": "draft"})
    pages = {"/account": "account.js", "/": "lobby.js",
             f"/join/{game['game_id']}?code={game['invite_code']}": "join.js",
             "/admin/import": "admin-import.js", f"/admin/games/{game['game_id']}": "admin-game.js"}
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{server}/admin/login?next=/admin")  # a form the server takes itself
        page.locator("#admin-password").fill(ADMIN_PASSWORD)
        page.locator("#login-button").click()
        expect(page.locator("#games-table")).to_be_visible()
        for path, script in pages.items():
            # The page's script as written, or its bundle (app/api/bundles.py).
            stem = script.removesuffix(".js")
            held = re.compile(rf"/static/(js/{stem}\.js|bundle/{stem}-\w+\.js)")
            page.route(held, lambda route: route.abort())  # the script never runs
            page.goto(server + path)
            expect(page.locator("[data-scripted]").first).to_be_attached()
            held_back = page.locator("[data-scripted]").evaluate_all(
                "controls => controls.map((control) => [control.id ? `#${control.id}`"
                "  : `#${control.form.id} button[type=submit]`, control.disabled])")
            assert held_back and all(disabled for _, disabled in held_back), (path, held_back)
            # ... and the page says why, with a way to try again.
            expect(page.locator("#page-failed")).to_be_visible()
            expect(page.locator("#page-failed a")).to_have_attribute("href", "")
            if script == "lobby.js":
                page.screenshot(path=screenshots / "page-script-failed.png")
            page.unroute(held)
            page.goto(server + path)
            expect(page.locator("[data-scripted]")).to_have_count(0)  # all enabled, then
            expect(page.locator("#page-failed")).to_be_hidden()
            for selector, _ in held_back:
                expect(page.locator(selector)).to_be_enabled()
        # A script that is not the page's own (a browser extension's, which the policy
        # blocks) fails without a word to the player: the page works.
        page.evaluate("""() => new Promise((done) => {
            const script = document.createElement("script");
            script.src = "https://example.invalid/extension.js";
            script.onerror = () => setTimeout(done);  // after the page's own listener
            document.head.append(script);
        })""")
        expect(page.locator("#page-failed")).to_be_hidden()
    finally:
        context.close()
