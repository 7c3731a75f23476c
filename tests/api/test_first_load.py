"""The bytes of a first visit to a game's page: what a browser with an empty cache fetches
before it draws the table, as bench/delivery.py counts them in Chromium (headers and
compressed bodies), worked out here from the page itself: its style sheets, icon,
preloaded modules, its script and every module that script imports (through the page's
import map, as the browser resolves them), and the two answers the script asks for before
it opens its socket (the card catalog and the game's summary). Modules fetched later, when
first needed (dialogs, chat, the end of the game), are not part of it."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from urllib.parse import urljoin, urlsplit

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.api.pages import ROOT

from ..factories import new_game, serve

pytestmark = pytest.mark.one_database  # the bytes of a first visit: no storage in it

FIRST_LOAD_BUDGET = 60_000
"""Bytes a first visit may take: issue 10's target, which bench/delivery.py prints against
(58.2 KB on 2026-12-07, with the pages' scripts bundled: docs/performance.md)."""
DATE_HEADER = len("date: Mon, 07 Dec 2026 19:12:13 GMT\r\n")
"""What uvicorn adds to every answer besides the application's headers."""
STATUS_LINE = len("HTTP/1.1 200 OK\r\n")
LINKED = re.compile(r'<link rel="(stylesheet|icon|modulepreload)" href="([^"]+)"')
SCRIPT = re.compile(r'<script type="module" src="([^"]+)"')
IMPORT_MAP = re.compile(r'<script type="importmap"[^>]*>(.*?)</script>', re.S)
IMPORTED = re.compile(r"""\b(?:import|export)\s*(?:[^;"'()]*?\bfrom\s*)?["']([^"']+)["']""")
"""A static import or re-export (``import x from "y"``, ``import "y"``, ``export {x} from
"y"``), not a dynamic ``import()``, which loads a module when first needed."""


def _sent(client: TestClient, url: str) -> int:
    """The bytes of the answer to ``url`` as a browser that accepts brotli receives it:
    status line, headers and the body as sent (compressed)."""
    with client.stream("GET", url, headers={"accept-encoding": "gzip, deflate, br, zstd"}
                       ) as answer:
        assert answer.status_code == 200, url
        body = sum(len(chunk) for chunk in answer.iter_raw())
        headers = sum(len(name) + len(value) + 4 for name, value in answer.headers.items())
    return STATUS_LINE + headers + 2 + DATE_HEADER + body


def _modules(client: TestClient, script: str, imports: dict[str, str]) -> set[str]:
    """``script`` and every module it imports statically, directly or not, by the URLs the
    browser fetches (resolved as the browser does: relative to the importing module's
    URL, then through the page's import map), read from what the server sends."""
    fetched: set[str] = set()
    waiting = [script]
    while waiting:
        url = waiting.pop()
        if url in fetched:
            continue
        fetched.add(url)
        answer = client.get(url)
        assert answer.status_code == 200, url
        for specifier in IMPORTED.findall(answer.text):
            resolved = specifier if specifier in imports else urljoin(url, specifier)
            resolved = urlsplit(imports.get(resolved, resolved))
            waiting.append(resolved.path + (f"?{resolved.query}" if resolved.query else ""))
    return fetched


def _first_load(client: TestClient, game_id: str) -> dict[str, int]:
    """Each answer a first visit to the game's page takes, and its bytes."""
    page = f"/games/{game_id}"
    html = client.get(page).text
    found = IMPORT_MAP.search(html)
    assert found, "the page has no import map"
    imports: dict[str, str] = json.loads(found.group(1))["imports"]
    urls = {href for _, href in LINKED.findall(html)}
    for script in SCRIPT.findall(html):
        urls |= _modules(client, script, imports)
    # What static/js/game.js asks for before it opens its socket (start()).
    game_js = (ROOT / "static/js/game.js").read_text()
    assert "catalogPath" in game_js and "`/api/games/${gameId}`" in game_js
    language = re.search(r'data-catalogs="([^"]+)"', html)
    assert language
    urls |= {f"/api/catalog?lang={language.group(1)}", f"/api/games/{game_id}"}
    return {page: _sent(client, page)} | {url: _sent(client, url) for url in sorted(urls)}


def test_a_first_visit_to_a_game_stays_within_its_budget(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        created, _ = new_game(client)
        answers = _first_load(client, created["game_id"])
    # The parts bench/delivery.py sees: the page, its styles, the table's modules and the
    # libraries (bundled: app/api/bundles.py), the words, the catalog.
    assert any("/css/table.css" in url for url in answers)
    assert any(url.startswith("/static/bundle/game-") for url in answers)
    assert any("/js/words/en.js" in url for url in answers)
    assert not any("dialogs" in url for url in answers)  # fetched when needed
    total = sum(answers.values())
    listing = "\n".join(f"{size:>7} {url}" for url, size in
                        sorted(answers.items(), key=lambda item: -item[1]))
    assert total <= FIRST_LOAD_BUDGET, f"first load {total} bytes:\n{listing}"
