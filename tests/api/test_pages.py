"""The browser's pages and the card catalog they read."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.api.catalog import EFFECT_KINDS
from app.engine import CARDS, TOKENS, WONDERS

pytestmark = pytest.mark.one_database  # the pages and the catalog as served: no storage in it


def test_catalog_describes_every_card_wonder_and_token(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        catalog = client.get("/api/catalog").json()
    assert set(catalog["cards"]) == {c.id for c in CARDS}
    assert set(catalog["wonders"]) == {w.id for w in WONDERS}
    assert set(catalog["tokens"]) == {t.id for t in TOKENS}
    fortifications = catalog["cards"]["fortifications"]
    assert fortifications["cost"]["resources"] == {"clay": 1, "stone": 2, "papyrus": 1}
    assert fortifications["chain_from"] == "tower"
    # Each effect is a kind with its figures, and no words: the page words it ("effect.<kind>"
    # in its catalog), so that no sentence of the server needs translating.
    assert {"kind": "shields", "amount": 2} in fortifications["effect_details"]
    assert catalog["cards"]["lighthouse"]["effect_details"] == [
        {"kind": "coins_per_own", "amount": 1, "per": "yellow"}]
    assert catalog["wonders"]["the_appian_way"]["effect_details"] == [
        {"kind": "coins", "amount": 3}, {"kind": "opponent_loses_coins", "amount": 3},
        {"kind": "play_again"}]
    assert catalog["cards"]["caravansery"]["effect_details"] == [
        {"kind": "produce_one_of", "resources": ["wood", "clay", "stone"]}]
    assert catalog["cards"]["shipowners_guild"]["effect_details"][1] == {
        "kind": "points_per_most", "amount": 1, "per": "brown+grey"}
    items = [*catalog["cards"].values(), *catalog["wonders"].values(),
             *catalog["tokens"].values()]
    for item in items:
        assert "effects" not in item, item["name"]
        for detail in item["effect_details"]:
            assert detail["kind"] in EFFECT_KINDS, detail
            assert "text" not in detail, detail
    assert {d["kind"] for item in items for d in item["effect_details"]} == set(EFFECT_KINDS)
    # Every card that does something says so.
    for card in catalog["cards"].values():
        assert card["effect_details"] or card["points"], card["name"]


def test_pages_are_served_with_their_scripts(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        home = client.get("/")
        assert home.status_code == 200
        # The lobby: a name, quick match, creating a game (listed or private), the lists.
        for hook in ('id="lobby"', 'id="name-form"', 'id="play-button"', 'id="cancel-play"',
                     'id="create-game"', 'name="visibility" value="listed"',
                     'name="visibility" value="private"', 'id="open-games"',
                     'id="live-games"', 'id="my-games"', 'id="lobby-connection"',
                     '<script type="module" src="/static/bundle/lobby-'):
            assert hook in home.text, hook
        assert "home.js" not in home.text
        join = client.get("/join/some-game?code=abc")
        assert join.status_code == 200 and 'data-game-id="some-game"' in join.text
        game = client.get("/games/some-game")
        assert game.status_code == 200 and 'data-game-id="some-game"' in game.text
        # The table (players, rematch, the aborted banner, ...) is drawn by its script.
        assert 'id="game"' in game.text and "/static/bundle/game-" in game.text
        # Every page shows the player's name in its header.
        for page in (home, join, game):
            assert 'id="site-player"' in page.text
        for path in ("/static/js/api.js", "/static/js/lobby.js", "/static/js/join.js",
                     "/static/js/game.js", "/static/css/app.css"):
            assert client.get(path).status_code == 200, path
        assert client.get("/static/js/home.js").status_code == 404


def _player_in_page(html: str) -> object:
    start = html.index('<script id="player-data" type="application/json">')
    body = html[html.index(">", start) + 1:html.index("</script>", start)]
    return json.loads(body)


def test_player_pages_carry_the_player(make_app: Callable[..., FastAPI]) -> None:
    """The header names the player from the first paint, and the scripts need no
    ``GET /api/me`` (which a nameless visitor would see refused)."""
    with TestClient(make_app()) as client:
        for path in ("/", "/join/some-game", "/games/some-game"):
            page = client.get(path).text
            assert _player_in_page(page) is None, path
            assert re.search(r'id="site-player"[^>]* hidden>', page), path
        # A name that tries to end the script stays a string in it.
        name = "Ann</script><script>alert(1)</script>&"
        me = client.put("/api/me", json={"name": name}).json()
        for path in ("/", "/join/some-game", "/games/some-game"):
            page = client.get(path).text
            assert _player_in_page(page) == me, path
            assert "<script>alert(1)" not in page
            assert re.search(r'id="site-player"[^>]*"\s*>', page), "the name is shown"
            assert "Playing as <strong data-player-name>Ann&lt;/script&gt;" in page
        # The admin pages are not a player's: they carry no player.
        admin = client.get("/admin/login").text
        assert 'id="player-data"' not in admin and 'id="site-player"' not in admin
