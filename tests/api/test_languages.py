"""The site in five languages (app/i18n.py): which language a page is in, the picker, the
account that remembers it, the pages' catalogs (app/locales) complete and used, every card,
wonder and token named in every language, and no word on a page outside the catalogs (the
pseudo-locale ``qps`` marks every translated one; a scan finds the rest).

The browser's catalogs (static/js/words/<code>*.js) are checked in tests/api/test_words.py;
the pages in each language in a browser in tests/browser/test_languages_in_browser.py.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app import i18n
from app.api.pages import templates
from app.engine import CARDS, TOKENS, WONDERS
from tests.factories import assert_refused, browser, new_game, ok, player, serve

ROOT = Path(__file__).resolve().parents[2]
OTHERS = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
PAGES = ["/", "/how-to-play", "/my-games", "/account", "/leaderboard", "/stats",
         "/players/ann", "/join/abcdef", "/games/abcdef", "/replay/abcdef", "/admin/login"]
PASSWORD = "a long enough secret"
NAMES = ("Ann", "ann", "Bo")
"""The player's name and the profile's username: data, shown as they are."""


@cache
def _extracted() -> dict[str | tuple[str, str], str]:
    """Every message the templates hold, as ``make messages`` extracts them (with where)."""
    method_map = [("templates/**.html", "jinja2")]
    options = {"templates/**.html": {"extensions": "jinja2.ext.i18n", "trimmed": "true"}}
    found: dict[str | tuple[str, str], str] = {}
    for filename, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, options_map=options):
        found[message] = filename
    return found


@cache
def _po(code: str) -> Catalog:
    """A language's catalog of the pages' messages, read once for all the tests."""
    with (i18n.LOCALES / code / "LC_MESSAGES" / "messages.po").open("rb") as source:
        return read_po(source, locale=code)


def _catalog(code: str) -> list[tuple[str | tuple[str, str], str | tuple[str, ...]]]:
    return [(message.id, message.string) for message in _po(code) if message.id]


def test_the_extraction_finds_the_templates_words() -> None:
    extracted = _extracted()
    assert "How to play" in extracted and "Quick match" in extracted
    assert ("%(count)s day", "%(count)s days") in extracted
    assert len(extracted) > 250


@pytest.mark.parametrize("code", OTHERS)
def test_each_catalog_translates_every_message_and_no_other(code: str) -> None:
    extracted = _extracted()
    catalog = _catalog(code)
    ids = [message_id for message_id, _ in catalog]
    missing = sorted(map(str, set(extracted) - set(ids)))
    unused = sorted(map(str, set(ids) - set(extracted)))
    assert not missing, f"{code} lacks (run `make messages`, then translate): {missing}"
    assert not unused, f"{code} has messages no template uses: {unused}"
    fuzzy = [m.id for m in _po(code) if m.id and m.fuzzy]
    assert not fuzzy, f"{code}: fuzzy entries are left out when compiled: {fuzzy}"
    for message_id, string in catalog:
        sources = message_id if isinstance(message_id, tuple) else (message_id,)
        forms = string if isinstance(string, tuple) else (string,)
        assert all(forms), f"{code}: {message_id!r} is not translated"
        english = " ".join(sources)
        wanted = set(PLACEHOLDER.findall(english))
        for form in forms:
            assert set(PLACEHOLDER.findall(form)) <= wanted | {"count"}, (code, message_id, form)
            # Every figure and name is shown (a plural form may leave out the count, as
            # "one day" does).
            assert wanted - {"count"} <= set(PLACEHOLDER.findall(form)), (code, message_id, form)
            assert form.count("<") == english.count("<") // len(sources), \
                (code, message_id, form)
            # Jinja2 fills every message with %: a lone percent sign must be written %%.
            form % dict.fromkeys(wanted | {"count"}, 1)
            # A translation is markup as written (it may go into an attribute): no quote or
            # ampersand of its own.
            for mark in ('"', "&"):
                assert form.count(mark) <= english.count(mark), (code, message_id, form)


def test_the_plural_forms_are_the_languages() -> None:
    for code in OTHERS:
        catalog = _po(code)
        plural = [m for m in catalog if m.id and isinstance(m.id, tuple)]
        assert plural
        # The language's own number of forms (CLDR, through Babel), whatever the header says.
        assert catalog.num_plurals == get_plural(code).num_plurals, code
        for message in plural:
            assert len(message.string) == catalog.num_plurals, (code, message.id)


def test_every_card_wonder_and_token_is_named_in_every_language() -> None:
    ids = {"cards": [c.id for c in CARDS], "wonders": [w.id for w in WONDERS],
           "tokens": [t.id for t in TOKENS]}
    for code in OTHERS:
        with (ROOT / "app" / "engine" / "data" / "names" / f"{code}.toml").open("rb") as f:
            names = tomllib.load(f)
        assert set(names) == set(ids), code
        for kind, wanted in ids.items():
            assert sorted(names[kind]) == sorted(wanted), (code, kind)
            for id_, name in names[kind].items():
                assert isinstance(name, str) and name.strip() == name and name, (code, id_)
    # Where the rulebooks of a language name a card, that is its name here (the reference's
    # names.csv); a few spot checks against what the Serbian rulebook's table says.
    with (ROOT / "app" / "engine" / "data" / "names" / "sr.toml").open("rb") as f:
        serbian = tomllib.load(f)
    assert serbian["cards"]["lumber_yard"] == "Drvara"
    assert serbian["cards"]["clay_pool"] == "Basen gline"


@pytest.mark.one_database  # words of the pages: no storage in them
def test_the_catalog_names_things_in_the_language_asked(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app(pseudo_locale=True)) as client:
        english = ok(client.get("/api/catalog"))
        assert english["cards"]["lumber_yard"]["name"] == "Lumber Yard"
        assert ok(client.get("/api/catalog?lang=en")) == english
        for code in OTHERS:
            named = ok(client.get(f"/api/catalog?lang={code}"))
            # The same cards with the same effects: only the names change.
            assert named["cards"].keys() == english["cards"].keys()
            assert named["wonders"]["the_pyramids"]["effect_details"] == \
                english["wonders"]["the_pyramids"]["effect_details"]
        assert ok(client.get("/api/catalog?lang=sr"))["cards"]["lumber_yard"]["name"] == "Drvara"
        assert ok(client.get("/api/catalog?lang=qps"))["cards"]["lumber_yard"]["name"] \
            .startswith(i18n.OPEN)
        assert_refused(client.get("/api/catalog?lang=xx"), 404, "not_found")
    # The pseudo-locale is the tests' only: not by default, never in production.
    for settings in ({}, {"pseudo_locale": True, "environment": "production",
                          "secret_key": "a production key of enough length",
                          "allowed_hosts": "testserver"}):
        with TestClient(make_app(**settings)) as client:
            assert_refused(client.get("/api/catalog?lang=qps"), 404, "not_found")
            client.cookies.set(i18n.COOKIE, i18n.PSEUDO.code)
            assert _lang_of(client.get("/").text) == ("en", "en")


@pytest.mark.parametrize(("header", "expected"), [
    (None, None),
    ("", None),
    ("ro-RO,ro;q=0.9,en-US;q=0.8,en;q=0.7", "ro"),
    ("de-DE,de;q=0.9", None),
    ("de;q=0.9,hu;q=0.5,sr-Latn-RS;q=0.8", "sr"),
    ("pt-PT", "pt"),
    ("en;q=0.5, HU", "hu"),
    ("ro;q=0, pt;q=0.1", "pt"),
    ("*", None),
    ("ro;q=abc, hu", "hu"),
])
def test_accept_language_picks_the_best_of_ours(header: str | None, expected: str | None) -> None:
    assert i18n.accepted(header) == expected


def _lang_of(html: str) -> tuple[str, str]:
    found = re.search(r'<html lang="([^"]+)" data-language="([^"]+)"', html)
    assert found, html[:200]
    return found.group(1), found.group(2)


@pytest.mark.one_database  # words of the pages: no storage in them
def test_a_page_speaks_the_browsers_language_until_one_is_picked(
        make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        assert _lang_of(client.get("/").text) == ("en", "en")
        page = client.get("/", headers={"Accept-Language": "hu-HU,hu;q=0.9,en;q=0.5"})
        assert _lang_of(page.text) == ("hu", "hu")
        assert "Gyors" in page.text or "gyors" in page.text  # Quick match, in Hungarian
        serbian = client.get("/stats", headers={"Accept-Language": "sr"})
        assert _lang_of(serbian.text) == ("sr-Latn", "sr")
        # The picker: a link per language, each in its own language, back to this page.
        for code, language in i18n.LANGUAGES.items():
            assert (f'href="/language/{code}?next=/stats" lang="{language.tag}"'
                    in serbian.text), code
            assert f">{language.native}</a>" in serbian.text
        picked = client.get("/language/pt?next=/stats%3Fx%3D1", follow_redirects=False)
        assert picked.status_code == 303 and picked.headers["location"] == "/stats?x=1"
        assert "lang=pt" in picked.headers["set-cookie"]
        # The cookie wins over the browser's header, on every page, the admin's too.
        for path in PAGES:
            answer = client.get(path, headers={"Accept-Language": "hu"})
            assert answer.status_code == 200, path
            assert _lang_of(answer.text) == ("pt-BR", "pt"), path
        # Another site is never where a pick leads; a bad code changes nothing.
        for target in ("https://evil.example/", "//evil.example/", "/\\evil.example"):
            away = client.get("/language/ro", params={"next": target}, follow_redirects=False)
            assert away.headers["location"] == "/", target
        assert_refused(client.get("/language/xx", follow_redirects=False), 404, "not_found")
        assert_refused(client.get("/language/qps", follow_redirects=False), 404, "not_found")
        assert _lang_of(client.get("/").text) == ("ro", "ro")  # the last good pick stands


def test_an_account_remembers_its_language(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        player(client, "Ann")
        client.get("/language/hu", follow_redirects=False)
        ok(client.post("/api/account", json={"username": "ann", "password": PASSWORD}), 201)
        # Another browser, in English, logs in: the account's language comes with it.
        other = browser(client, "10.0.0.2")
        assert _lang_of(other.get("/").text)[1] == "en"
        login = other.post("/api/login", json={"username": "ann", "password": PASSWORD})
        ok(login)
        assert "lang=hu" in login.headers["set-cookie"]
        assert _lang_of(other.get("/").text)[1] == "hu"
        # A pick while logged in is the account's from then on.
        other.get("/language/sr", follow_redirects=False)
        third = browser(client, "10.0.0.3")
        ok(third.post("/api/login", json={"username": "ann", "password": PASSWORD}))
        assert _lang_of(third.get("/").text)[1] == "sr"
        # What a browser merely prefers (Accept-Language) is not a pick: the account keeps
        # none, and the first browser that picks one gives it.
        bob = browser(client, "10.0.0.4")
        player(bob, "Bob")
        registered = bob.post("/api/account", json={"username": "bob", "password": PASSWORD},
                              headers={"Accept-Language": "ro"})
        ok(registered, 201)
        assert "lang=" not in registered.headers.get("set-cookie", "")
        picking = browser(client, "10.0.0.5")
        picking.get("/language/pt", follow_redirects=False)
        ok(picking.post("/api/login", json={"username": "bob", "password": PASSWORD}))
        elsewhere = browser(client, "10.0.0.6")
        login = elsewhere.post("/api/login", json={"username": "bob", "password": PASSWORD})
        assert "lang=pt" in login.headers["set-cookie"]


class _Words(HTMLParser):
    """What a person reads on a page as served (text and the attributes shown or spoken),
    leaving out scripts, styles, code and what is marked ``translate="no"``: the page's
    text as one string (a message with markup in it spans several nodes), then each
    attribute."""

    SHOWN = ("title", "aria-label", "placeholder", "alt", "data-empty")
    SKIPPED = ("script", "style", "code", "time")
    VOID = ("meta", "link", "input", "br", "img", "hr", "source")

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self.text: list[str] = []
        self._open: list[tuple[str, bool]] = []

    def _skipping(self) -> bool:
        return any(skip for _, skip in self._open)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if not self._skipping():
            self.words.extend(value for name, value in attrs if name in self.SHOWN and value)
        if tag not in self.VOID:
            self._open.append((tag, tag in self.SKIPPED or values.get("translate") == "no"))

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            if self._open.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self._skipping() and data.strip():
            self.text.append(data.strip())

    def read(self, html: str) -> list[str]:
        self.feed(html)
        return [" ".join(self.text), *self.words]


def unmarked(texts: list[str], allowed: tuple[str, ...] = ()) -> list[str]:
    """The texts with a letter outside the pseudo-locale's marks (nested marks included)."""
    found = []
    for text in texts:
        rest = text
        for word in allowed:  # data, not words: a player's name
            rest = re.sub(rf"\b{re.escape(word)}\b", "", rest)
        while True:
            inner = re.sub(rf"{i18n.OPEN}[^{i18n.OPEN}{i18n.CLOSE}]*{i18n.CLOSE}", "", rest)
            if inner == rest:
                break
            rest = inner
        found.extend(re.findall(rf"[^\W\d_][^{i18n.OPEN}]*", rest))
    return found


@pytest.mark.one_database  # words of the pages: no storage in them
def test_no_word_of_a_page_escapes_the_catalogs(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(pseudo_locale=True, admin_password="secret")) as client:
        player(client, "Ann")
        client.cookies.set(i18n.COOKIE, i18n.PSEUDO.code)
        for path in [*PAGES, "/admin/login?next=/admin"]:
            page = client.get(path)
            assert page.status_code == 200, path
            texts = _Words().read(page.text)
            assert not unmarked(texts, NAMES), (path, unmarked(texts, NAMES))
        # The admin's pages once logged in, and a refusal shown in a page.
        wrong = client.post("/admin/login", data={"password": "nope", "next": "/admin"})
        assert not unmarked(_Words().read(wrong.text))
        created, _ = new_game(client, joiner=browser(client, "10.0.0.9"), joiner_name="Bo")
        client.post("/admin/login", data={"password": "secret", "next": "/admin"})
        assert 'id="games-table"' in client.get("/admin").text  # logged in
        for path in ["/admin", "/admin/import", f"/admin/games/{created['game_id']}",
                     "/admin/games/nosuchgame", "/admin?since=notadate"]:
            page = client.get(path)
            assert page.status_code in (200, 404, 422), path
            assert not unmarked(_Words().read(page.text), NAMES), \
                (path, unmarked(_Words().read(page.text), NAMES))


@pytest.mark.one_database  # words of the pages: no storage in them
def test_a_missing_page_is_a_page_in_the_visitors_language(
        make_app: Callable[..., FastAPI]) -> None:
    """A browser sent to an address with no page gets a page that says so (404), in its
    language, with the way back; a script, the API and the files still get JSON."""
    navigation = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    with serve(make_app(pseudo_locale=True)) as client:
        said = {}
        for code in [*i18n.LANGUAGES, i18n.PSEUDO.code]:
            client.cookies.set(i18n.COOKIE, code)
            page = client.get("/no/such/page", headers=navigation)
            assert page.status_code == 404 and 'id="not-found"' in page.text, code
            if code in i18n.LANGUAGES:
                assert f'<html lang="{i18n.LANGUAGES[code].tag}"' in page.text, code
            said[code] = re.search(r'<p id="not-found">([^<]*)', page.text).group(1).split()
            assert 'href="/"' in page.text
        assert len({" ".join(words) for words in said.values()}) == len(said)  # all translated
        assert not unmarked(_Words().read(page.text), NAMES)  # the last: the pseudo-locale
        # A route's own "no such thing" too: a picker's link to a language not offered.
        nowhere = client.get("/language/xx?next=/my-games", headers=navigation)
        assert nowhere.status_code == 404 and 'id="not-found"' in nowhere.text
        assert client.cookies.get(i18n.COOKIE) == i18n.PSEUDO.code  # unchanged
        for path, headers in (("/no/such/page", {"accept": "application/json"}),
                              ("/no/such/page", {}), ("/api/nothing", navigation),
                              ("/static/nothing.js", navigation), ("/language/xx", {})):
            assert_refused(client.get(path, headers=headers), 404, "not_found")


def test_pages_write_figures_as_their_language_does() -> None:
    figure = templates.env.from_string("{{ n | number }}")
    written = {code: figure.render(n=1234567, html_lang=language.tag)
               for code, language in i18n.LANGUAGES.items()}
    assert written == {"en": "1,234,567", "ro": "1.234.567", "sr": "1.234.567",
                       "pt": "1.234.567", "hu": "1\u00a0234\u00a0567"}
