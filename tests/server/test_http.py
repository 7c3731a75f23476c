"""HTTP API: create, join, summary, views, refusals."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI
from fastapi.testclient import TestClient


def test_create_join_and_read_a_game(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        created = client.post("/api/games", json={"first_player": "creator", "name": "Ann"})
        assert created.status_code == 201
        game = created.json()
        assert game["seat"] == 0 and game["invite_url"].endswith(game["invite_code"])
        summary = client.get(f"/api/games/{game['game_id']}").json()
        assert summary["status"] == "waiting"
        assert [s["taken"] for s in summary["seats"]] == [True, False]
        joined = client.post(f"/api/games/{game['game_id']}/join",
                             json={"invite_code": game["invite_code"], "name": "Bo"})
        assert joined.status_code == 200 and joined.json()["seat"] == 1
        assert client.get(f"/api/games/{game['game_id']}").json()["status"] == "active"
        view = client.get(f"/api/games/{game['game_id']}/view",
                          headers={"Authorization": f"Bearer {game['token']}"}).json()
        assert view["seat"] == 0 and view["version"] == 0
        assert view["view"]["legal_actions"], "seat 0 starts the draft"
