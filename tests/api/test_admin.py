"""The admin pages and API at work: the game list's filters and pages, a game's record
with every event, the board after each action with the hidden cards shown, export and
replay, import and its refusals, aborting a game. (Who may use them:
``test_admin_auth.py``.)

Every test runs on SQLite and on PostgreSQL (the ``make_app`` fixture)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import update

from app.db.models import Game as GameRow
from app.engine import ENGINE_VERSION, Game, Options, events_json, from_json, view
from tests.factories import (
    Database,
    ProtocolClient,
    admin_login,
    as_json,
    assert_refused,
    new_game,
    ok,
    play_moves,
    play_out,
    serve,
    server_game,
)

PASSWORD = "admin password for tests"
TIMEOUT = 10.0
JSON = {"content-type": "application/json"}


@pytest.fixture
def admin(make_app: Callable[..., FastAPI]) -> Iterator[TestClient]:
    """A client on a fresh server, logged in as the admin."""
    with serve(make_app(admin_password=PASSWORD)) as client:
        assert admin_login(client, PASSWORD).status_code == 303
        yield client


def started(client: TestClient, first: str = "Ann", second: str = "Bo",
            **options: Any) -> str:
    """A game between ``first`` and ``second``, both seated: its id."""
    game_id: str = new_game(client, name=first, joiner_name=second, **options)[0]["game_id"]
    return game_id


def listed(client: TestClient, **params: Any) -> list[str]:
    return [g["game_id"] for g in ok(client.get("/admin/api/games", params=params))["items"]]


def set_created(database: Database, client: TestClient, game_id: str, when: datetime) -> None:
    assert client.portal is not None
    client.portal.call(database.write,
                       update(GameRow).where(GameRow.id == game_id).values(created_at=when))


def replayed(record: dict[str, Any]) -> Game:
    return Game.replay(record["seed"], Options.from_json(record["options"]),
                       [from_json(entry["action"]) for entry in record["actions"]])


# ---------------------------------------------------------------------------- the list
def test_filters_and_pages(admin: TestClient, database: Database) -> None:
    waiting = ok(admin.post("/api/games", json={"name": "Joanne"}), 201)["game_id"]
    active = started(admin, "ANNA", "Bo")
    aborted = started(admin, "Cleo", "ÉLODIE")
    ok(admin.post(f"/admin/api/games/{aborted}/abort", json={"reason": "test"}))
    percent = started(admin, "100% Eve", "Fay")
    set_created(database, admin, active, datetime(2020, 1, 15, 23, 59, tzinfo=UTC))
    set_created(database, admin, aborted, datetime(2020, 1, 16, 0, 0, tzinfo=UTC))

    everything = listed(admin)
    assert sorted(everything) == sorted([waiting, active, aborted, percent])
    assert everything[-2:] == [aborted, active]  # newest first
    assert listed(admin, status="waiting") == [waiting]
    assert listed(admin, status="aborted") == [aborted]
    assert listed(admin, status="finished") == []
    assert sorted(listed(admin, player="ann")) == sorted([waiting, active])  # JoANNe, ANNA
    assert listed(admin, player="bo") == [active]
    assert listed(admin, player="élo") == [aborted]  # beyond ASCII, on SQLite too
    assert listed(admin, player="%") == [percent]  # a wildcard only as itself
    assert listed(admin, player="_") == []
    assert listed(admin, since="2020-01-15", until="2020-01-15") == [active]
    assert listed(admin, since="2020-01-16", until="2020-01-16") == [aborted]
    assert listed(admin, until="2020-01-16") == [aborted, active]
    assert sorted(listed(admin, since="2020-01-16")) == sorted([waiting, aborted, percent])
    assert listed(admin, status="active", player="anna", since="2020-01-01") == [active]

    item = ok(admin.get("/admin/api/games", params={"status": "aborted"}))["items"][0]
    assert item["seats"] == [{"seat": 0, "taken": True, "name": "Cleo", "computer": None},
                             {"seat": 1, "taken": True, "name": "ÉLODIE", "computer": None}]

    pages = [ok(admin.get("/admin/api/games", params={"per_page": 3, "page": n}))
             for n in (1, 2, 3)]
    assert [(p["total"], p["page"], p["pages"], p["per_page"]) for p in pages] == \
        [(4, 1, 2, 3), (4, 2, 2, 3), (4, 3, 2, 3)]
    assert [g["game_id"] for p in pages for g in p["items"]] == everything
    assert ok(admin.get("/admin/api/games"))["per_page"] == 25

    bad_filters: list[tuple[dict[str, Any], str]] = [
        ({"status": "lost"}, "status"), ({"per_page": 101}, "per_page"),
        ({"per_page": 0}, "per_page"), ({"page": 0}, "page"), ({"page": "two"}, "page"),
        ({"since": "yesterday"}, "since"), ({"since": "2020-02-01", "until": "2020-01-01"},
                                            "since"),
        ({"player": "x" * 41}, "player"), ({"colour": "red"}, "colour"),
        ({"page": "\u00b2"}, "page"), ({"page": "9" * 5000}, "page"),
        ({"per_page": "\u0663"}, "per_page"), ({"player": "a\u0000b"}, "player")]
    for params, named in bad_filters:
        error = assert_refused(admin.get("/admin/api/games", params=params), 422, "bad_filter")
        assert named in error["message"], (params, error)

    # The last day there is: nothing after it to stop before.
    assert listed(admin, until="9999-12-31") == everything
    assert admin.get("/admin", params={"until": "9999-12-31", "page": "\u00b2"}).status_code \
        == 422

    waiting_page = admin.get(f"/admin/games/{waiting}")
    assert waiting_page.status_code == 200 and 'id="abort-form"' in waiting_page.text
    page = admin.get("/admin", params={"status": "waiting"})
    assert page.status_code == 200
    assert waiting in page.text and active not in page.text
    bad = admin.get("/admin", params={"status": "lost"})
    assert bad.status_code == 422 and "The filter “status” is not valid." in bad.text
    paged = admin.get("/admin", params={"per_page": 3})
    assert 'href="/admin?page=2&amp;per_page=3"' in paged.text


# ---------------------------------------------------------------------------- one game
def test_a_games_record_shows_every_action_with_its_events(admin: TestClient) -> None:
    game_id = started(admin)
    play_moves(admin, game_id, 12)
    detail = ok(admin.get(f"/admin/api/games/{game_id}"))
    server, version = server_game(admin, game_id)
    assert version == 12
    assert (detail["seed"], detail["options"], detail["engine_version"]) == \
        (server.seed, server.options.to_json(), ENGINE_VERSION)
    assert detail["status"] == "active" and detail["to_act"] == server.to_act
    assert detail["state_hash"] == server.state_hash()
    assert [p["name"] for p in detail["players"]] == ["Ann", "Bo"]

    replica = Game.new(server.seed, server.options)
    assert [entry["seq"] for entry in detail["log"]] == list(range(1, 13))
    for entry, action in zip(detail["log"], server.log, strict=True):
        assert entry["seat"] == replica.to_act
        assert entry["name"] == ["Ann", "Bo"][entry["seat"]]
        assert (entry["action"], entry["notation"]) == (action.to_json(), str(action))
        # Every event, hidden parts included (a Great Library draw keeps its tokens).
        assert entry["events"] == as_json(events_json(replica.apply(action)))
        assert datetime.fromisoformat(entry["at"]).tzinfo is not None

    page = admin.get(f"/admin/games/{game_id}")
    assert page.status_code == 200
    for entry in detail["log"]:
        assert f"<code>{entry['notation']}</code>" in page.text
    assert str(server.seed) in page.text
    assert admin.get("/admin/games/nonesuch").status_code == 404
    assert_refused(admin.get("/admin/api/games/nonesuch"), 404, "not_found")


def test_each_position_is_the_revealed_view_after_that_many_actions(admin: TestClient) -> None:
    game_id = started(admin, wonder_selection="first_game")
    play_moves(admin, game_id, 8, seed=3)
    server, version = server_game(admin, game_id)
    replica = Game.new(server.seed, server.options)
    for seq in range(version + 1):
        if seq:
            events = replica.apply(server.log[seq - 1])
        position = ok(admin.get(f"/admin/api/games/{game_id}/positions/{seq}"))
        assert position["view"] == as_json(view(replica, None, reveal=True))
        assert position["state_hash"] == replica.state_hash()
        assert (position["seq"], position["version"]) == (seq, version)
        face_down = [slot for slot in position["view"]["structure"]
                     if not slot["taken"] and not slot["face_up"]]
        assert face_down and all(slot["revealed"] and slot["card"] for slot in face_down)
        assert position["view"]["hidden"]["removed_cards"]["age1"]
        if seq:
            assert position["move"]["seq"] == seq
            assert position["move"]["notation"] == str(server.log[seq - 1])
            assert position["move"]["events"] == as_json(events_json(events))
        else:
            assert position["move"] is None
    assert_refused(admin.get(f"/admin/api/games/{game_id}/positions/{version + 1}"), 404, "bad_seq")
    assert_refused(admin.get(f"/admin/api/games/{game_id}/positions/-1"), 404, "bad_seq")
    assert_refused(admin.get(f"/admin/api/games/{game_id}/positions/last"), 422, "invalid_request")


# ---------------------------------------------------------------------------- export, import
def test_an_export_replays_to_the_stored_game(admin: TestClient) -> None:
    game_id = started(admin)
    play_out(admin, game_id, seed=5)
    response = admin.get(f"/admin/api/games/{game_id}/export")
    assert response.headers["content-disposition"] == \
        f'attachment; filename="duel-{game_id}.json"'
    record = ok(response)
    server, version = server_game(admin, game_id)
    summary = ok(admin.get(f"/api/games/{game_id}"))
    assert record["format"] == "duel-game" and record["format_version"] == 1
    assert (record["game_id"], record["status"], record["engine_version"]) == \
        (game_id, "finished", ENGINE_VERSION)
    assert record["result"] == {"winner": summary["winner"], "victory": summary["victory"]}
    assert record["players"] == [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bo"}]
    assert [a["seq"] for a in record["actions"]] == list(range(1, version + 1))
    assert replayed(record).state_hash() == server.state_hash() == record["final_state_hash"]
    page = admin.get(f"/admin/games/{game_id}")
    assert page.status_code == 200 and 'id="score"' in page.text
    assert 'id="abort-form"' not in page.text  # a finished game cannot be aborted


def test_an_imported_record_is_the_same_game(admin: TestClient) -> None:
    game_id = started(admin)
    play_moves(admin, game_id, 30, seed=7)
    record = ok(admin.get(f"/admin/api/games/{game_id}/export"))
    created = ok(admin.post("/admin/api/import", json=record), 201)
    copy_id = created["game_id"]
    assert copy_id != game_id and created["url"] == f"/admin/games/{copy_id}"

    again = ok(admin.get(f"/admin/api/games/{copy_id}/export"))
    assert again["actions"] == record["actions"]
    for field in ("seed", "options", "engine_version", "players", "final_state_hash"):
        assert again[field] == record[field], field
    assert again["status"] == "imported"
    detail = ok(admin.get(f"/admin/api/games/{copy_id}"))
    original = ok(admin.get(f"/admin/api/games/{game_id}"))
    assert detail["log"] == original["log"]
    assert (detail["origin"], detail["listed"], detail["to_act"]) == ("import", False, None)
    assert [a["kind"] for a in detail["admin_actions"]] == ["import"]
    assert detail["admin_actions"][0]["detail"]["source"]["game_id"] == game_id
    assert server_game(admin, copy_id)[0].state_hash() == record["final_state_hash"]

    # An imported game is for looking at: it cannot be joined, played or aborted.
    assert_refused(admin.post(f"/api/games/{copy_id}/join", json={"invite_code": "x"}),
                   403, "bad_invite")
    assert_refused(admin.post(f"/admin/api/games/{copy_id}/abort", json={"reason": "no"}),
                   409, "not_running")
    assert copy_id not in listed(admin, status="active")
    assert listed(admin, status="imported") == [copy_id]


def _with_first_action(record: dict[str, Any], **changes: Any) -> dict[str, Any]:
    changed = copy.deepcopy(record)
    changed["actions"][0].update(changes)
    return changed


def test_imported_times_are_kept_as_instants(admin: TestClient) -> None:
    """An action's time with an offset is the same instant in UTC, on either database."""
    game_id = started(admin)
    play_moves(admin, game_id, 3, seed=5)
    record = ok(admin.get(f"/admin/api/games/{game_id}/export"))
    record["actions"][0]["at"] = "2026-03-01T10:00:00+05:00"
    record["actions"][1]["at"] = "2026-03-01T10:00:00"  # no offset: UTC
    copy_id = ok(admin.post("/admin/api/import", json=record), 201)["game_id"]
    times = [a["at"] for a in ok(admin.get(f"/admin/api/games/{copy_id}/export"))["actions"]]
    assert times[:2] == ["2026-03-01T05:00:00+00:00", "2026-03-01T10:00:00+00:00"]


def _tampered_action(record: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The record with one action replaced by one its seat could not make then."""
    game = Game.new(record["seed"], Options.from_json(record["options"]))
    for entry in record["actions"]:
        legal = {str(a) for a in game.legal_actions()}
        if entry["action"]["type"] == "build":
            for card in ("pantheon", "palace", "senate", "arsenal"):
                if f"build:{card}" not in legal:
                    tampered = copy.deepcopy(record)
                    changed = tampered["actions"][entry["seq"] - 1]
                    changed["action"] = {"type": "build", "card": card}
                    changed["notation"] = f"build:{card}"
                    return tampered, entry["seq"]
        game.apply(entry["action"])
    raise AssertionError("no build to tamper with")


def test_a_bad_record_is_refused_and_nothing_is_stored(admin: TestClient) -> None:
    game_id = started(admin)
    play_moves(admin, game_id, 30, seed=11)
    record = ok(admin.get(f"/admin/api/games/{game_id}/export"))
    games_before = ok(admin.get("/admin/api/games"))["total"]

    tampered, seq = _tampered_action(record)
    error = assert_refused(admin.post("/admin/api/import", json=tampered), 422, "illegal_action")
    assert error["message"].startswith(f"action {seq} ")
    assert error["detail"] in ("not_accessible", "cannot_afford")

    wrong_hash = {**record, "final_state_hash": "0" * 64}
    error = assert_refused(admin.post("/admin/api/import", json=wrong_hash), 422, "hash_mismatch")
    assert record["final_state_hash"] in error["message"]
    shortened = {**record, "actions": record["actions"][:-1]}
    assert_refused(admin.post("/admin/api/import", json=shortened), 422, "hash_mismatch")

    older = {**record, "engine_version": "0"}
    error = assert_refused(admin.post("/admin/api/import", json=older), 422, "wrong_engine_version")
    assert "'0'" in error["message"]

    other_seat = copy.deepcopy(record)
    other_seat["actions"][4]["seat"] = 1 - other_seat["actions"][4]["seat"]
    error = assert_refused(admin.post("/admin/api/import", json=other_seat), 422, "illegal_action")
    assert error["detail"] == "not_your_turn" and error["message"].startswith("action 5 ")

    renumbered = copy.deepcopy(record)
    renumbered["actions"][2]["seq"] = 9
    bad_notation = copy.deepcopy(record)
    bad_notation["actions"][0]["notation"] = "build:tavern"
    for garbage, says in [
        ([record], "JSON object"),
        ({**record, "format": "chess"}, "format"),
        ({**record, "format_version": 2}, "format_version"),
        ({k: v for k, v in record.items() if k != "seed"}, "seed"),
        ({**record, "seed": "42"}, "seed"),
        ({**record, "seed": 1 << 70}, "seed"),
        ({**record, "options": {"wonder_selection": "all"}}, "options"),
        ({**record, "options": {**record["options"], "first_player": True}}, "first_player"),
        ({**record, "players": [{"seat": 0, "name": "\u0007"}]}, "seat 0"),
        ({**record, "actions": "pick:the_sphinx"}, "actions"),
        ({**record, "actions": [{"seq": 1, "seat": 0, "action": {"type": "fly"}}]},
         "action 1"),
        ({**record, "actions": [{"seq": 1, "seat": 0, "action": {"type": "build"},
                                 "at": "noon"}]}, "action 1"),
        (renumbered, "action 3"),
        (bad_notation, "notation"),
        ({**record, "final_state_hash": 7}, "final_state_hash"),
        ({**record, "players": [{"seat": 1, "name": "A"}, {"seat": 1, "name": "B"}]},
         "seat 1"),
        (_with_first_action(record, seq=True), "action 1"),
        (_with_first_action(record, at="9999-12-31T23:59:59-05:00"), "action 1"),
        (_with_first_action(record, at="1900-01-01T00:00:00+00:00"), "action 1"),
    ]:
        error = assert_refused(admin.post("/admin/api/import", json=garbage), 422, "bad_record")
        assert says in error["message"], (says, error)
    error = assert_refused(
        admin.post("/admin/api/import", json={**record, "final_state_hash": "é"}),
        422, "hash_mismatch")
    assert record["final_state_hash"] in error["message"]
    # A lone surrogate is valid JSON but no text: it could be stored, never shown again.
    for field in ("final_state_hash", "game_id", "status", "created_at"):
        assert_refused(admin.post("/admin/api/import", headers=JSON,
                                  content=json.dumps({**record, field: "\ud800"})),
                       422, "bad_json")
    assert_refused(admin.post(f"/admin/api/games/{game_id}/abort", headers=JSON,
                              content='{"reason": "x\\udfff"}'), 422, "bad_json")
    for not_json in (b"{not json", b"[" * 200_000 + b"]" * 200_000):
        assert_refused(admin.post("/admin/api/import", content=not_json, headers=JSON),
                       422, "bad_json")
    assert_refused(admin.post("/admin/api/import", content=b"x" * ((1 << 20) + 1),
                              headers=JSON), 413, "too_large")

    assert ok(admin.get("/admin/api/games"))["total"] == games_before
    assert ok(admin.get("/admin/api/actions"))["items"] == []


# ---------------------------------------------------------------------------- abort
def test_aborting_tells_both_players_and_is_logged(admin: TestClient) -> None:
    first, second = new_game(admin)
    game_id = first["game_id"]
    sockets = [ProtocolClient(admin, game_id, timeout=TIMEOUT) for _ in range(2)]
    for seat, (socket, credentials) in enumerate(zip(sockets, (first, second), strict=True)):
        assert socket.join(seat, credentials["token"])["type"] == "welcome"
    actor = sockets[sockets[0].view["to_act"]]  # type: ignore[index]
    assert actor.act(actor.view["legal_actions"][0]["action"])["type"] == "ack"  # type: ignore[index]

    assert_refused(admin.post(f"/admin/api/games/{game_id}/abort", json={"reason": " \n "}),
                   422, "bad_reason")
    assert_refused(admin.post(f"/admin/api/games/{game_id}/abort", json={"why": "x"}),
                   422, "bad_request")
    assert ok(admin.get(f"/api/games/{game_id}"))["status"] == "active"

    answer = ok(admin.post(f"/admin/api/games/{game_id}/abort",
                           json={"reason": "Reported  for\tcheating"}))
    assert answer == {"game_id": game_id, "status": "aborted"}
    for socket in sockets:
        assert socket.receive_until("aborted") == {"type": "aborted", "cause": "admin",
                                                   "reason": "Reported for cheating"}
    actor = sockets[1 - actor.seat]  # type: ignore[operator]
    refusal = actor.act(actor.view["legal_actions"][0]["action"])  # type: ignore[index]
    assert (refusal["type"], refusal["code"]) == ("error", "aborted")
    for socket in sockets:
        socket.close()

    logged = ok(admin.get("/admin/api/actions"))["items"]
    assert [(a["kind"], a["game_id"], a["detail"]["reason"], a["detail"]["version"])
            for a in logged] == [("abort", game_id, "Reported for cheating", 1)]
    # The admin's list says it in a sentence, the game linked.
    listed = " ".join(admin.get("/admin").text.split())
    assert (f'<strong>abort</strong> of <a href="/admin/games/{game_id}"><code>{game_id}</code></a>'
            ' : “Reported for cheating”') in listed, listed[-1500:]
    assert ok(admin.get("/admin/api/actions", params={"game_id": "other"}))["total"] == 0
    for not_an_id in ("\u0000", "a b", "x" * 65):
        assert_refused(admin.get("/admin/api/actions", params={"game_id": not_an_id}),
                       422, "bad_filter")
    for unknown in ("status", "gameid"):  # a filter the list does not take is named
        refused = assert_refused(admin.get("/admin/api/actions", params={unknown: "x"}),
                                 422, "bad_filter")
        assert refused["params"] == {"field": unknown}
    detail = ok(admin.get(f"/admin/api/games/{game_id}"))
    assert detail["status"] == "aborted"
    assert [a["kind"] for a in detail["admin_actions"]] == ["abort"]
    assert_refused(admin.post(f"/admin/api/games/{game_id}/abort", json={"reason": "again"}),
                   409, "not_running")
    assert_refused(admin.post("/admin/api/games/nonesuch/abort", json={"reason": "x"}),
                   404, "not_found")
    page = admin.get(f"/admin/games/{game_id}")
    assert "Reported for cheating" in page.text and 'id="abort-form"' not in page.text
    assert "Reported for cheating" in admin.get("/admin").text
