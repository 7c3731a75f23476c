"""A finished game's record round-trips: downloaded (JSON or text), replayed by
`python -m app.engine.replay FILE` to the same hash and scores; a tampered record is
refused; a game in progress gives none (docs/records.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi import FastAPI

from app.engine import Game, Options, from_json, view
from app.engine.record import RecordError, from_text, replay_record, to_text
from tests.factories import (
    admin_login,
    as_json,
    assert_refused,
    first_decisions,
    hidden_ids,
    new_game,
    ok,
    play_out,
    serve,
    server_game,
    strings_in,
)

ROOT = Path(__file__).resolve().parents[2]


def _replay_file(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.engine.replay", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False)


def test_a_finished_game_s_record_round_trips(make_app: Callable[..., FastAPI],
                                             tmp_path: Path) -> None:
    with serve(make_app()) as client:
        game_id = new_game(client)[0]["game_id"]
        assert_refused(client.get(f"/api/games/{game_id}/record"), 409, "not_over")
        play_out(client, game_id)
        game, version = server_game(client, game_id)
        answer = client.get(f"/api/games/{game_id}/record")
        record = ok(answer)
        assert answer.headers["content-disposition"] == \
            f'attachment; filename="duel-{game_id}.json"'
        text = client.get(f"/api/games/{game_id}/record", params={"format": "text"})
        assert text.headers["content-type"].startswith("text/plain")
        assert text.text == to_text(record)
    assert len(record["actions"]) == version
    assert record["final_state_hash"] == game.state_hash()
    outcome = game.outcome()
    assert outcome is not None
    # Both forms replay to the same game, in the engine and on the command line.
    for form in (record, from_text(text.text)):
        assert replay_record(form).state_hash == game.state_hash()
    for name, content in (("game.json", json.dumps(record)), ("game.txt", text.text)):
        path = tmp_path / name
        path.write_text(content)
        run = _replay_file(path)
        assert run.returncode == 0, run.stderr
        assert f"to state hash {game.state_hash()}, as recorded" in run.stdout
        total = [line for line in run.stdout.splitlines() if line.startswith("total")]
        assert total == [f"total{outcome.scores[0].total:>13}{outcome.scores[1].total:>8}"]


def test_a_tampered_record_is_refused(make_app: Callable[..., FastAPI], tmp_path: Path) -> None:
    with serve(make_app()) as client:
        game_id = new_game(client)[0]["game_id"]
        play_out(client, game_id)
        record = ok(client.get(f"/api/games/{game_id}/record"))
    moved = json.loads(json.dumps(record))
    moved["actions"] = moved["actions"][:-1]  # the last move dropped
    other_seed = {**record, "seed": record["seed"] + 1}
    swapped = json.loads(json.dumps(record))
    for entry in swapped["actions"]:  # every move given to the other seat
        entry["seat"] = 1 - entry["seat"]
    renumbered = json.loads(json.dumps(record))
    renumbered["actions"][3]["seq"] = 999
    misnamed = json.loads(json.dumps(record))
    misnamed["actions"][3]["notation"] = "discard:xyz"
    winner = record["result"]["winner"]
    other_result = {**record, "result": {"winner": None if winner is not None else 0,
                                         "victory": "military"}}
    for tampered in (moved, other_seed, {**record, "engine_version": "0"}, swapped,
                     renumbered, misnamed, other_result):
        with pytest.raises(RecordError):
            replay_record(tampered)
    path = tmp_path / "tampered.txt"
    path.write_text(to_text(moved))
    run = _replay_file(path)
    assert run.returncode == 1 and "not the record's" in run.stderr
    with pytest.raises(RecordError, match="not a duel-game record"):
        from_text("hello")
    deep = "duel-game 1\noptions " + "[" * 5000 + "]" * 5000
    with pytest.raises(RecordError):
        from_text(deep)
    path.write_text(deep)
    run = _replay_file(path)
    assert run.returncode == 1 and "Traceback" not in run.stderr


def test_the_admin_imports_the_text_form(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(admin_password="records")) as client:
        game_id = new_game(client)[0]["game_id"]
        play_out(client, game_id)
        text = client.get(f"/api/games/{game_id}/record", params={"format": "text"}).text
        assert admin_login(client, "records").status_code == 303
        imported = ok(client.post("/admin/api/import", content=text,
                                  headers={"content-type": "text/x-duel-record"}), 201)
        copy = ok(client.get(f"/admin/api/games/{imported['game_id']}/export"))
        assert copy["final_state_hash"] == from_text(text)["final_state_hash"]
        assert [a["notation"] for a in copy["actions"]] == \
            [a["notation"] for a in from_text(text)["actions"]]
        broken = text.replace("\n1 ", "\n1 9 ", 1)
        refused = assert_refused(client.post("/admin/api/import", content=broken,
                                             headers={"content-type": "text/x-duel-record"}),
                                 422, "bad_record")
        assert "cannot be read" in refused["message"]


def test_every_position_of_a_replay_is_what_a_spectator_saw_then(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        game_id = new_game(client)[0]["game_id"]
        play_out(client, game_id, keep=6)
        in_progress = ok(client.get(f"/api/games/{game_id}/positions/0"))
        assert in_progress["status"] == "active" and not in_progress["revealed"]
        play_out(client, game_id)
        record = ok(client.get(f"/api/games/{game_id}/record"))
        last = len(record["actions"])
        game = Game.new(record["seed"], Options.from_json(record["options"]))
        for seq in range(last + 1):
            if seq:
                game.apply(from_json(record["actions"][seq - 1]["action"]))
            position = ok(client.get(f"/api/games/{game_id}/positions/{seq}"))
            assert position["revealed"] == (seq == last)
            assert position["view"] == as_json(view(game, None, reveal=seq == last)), seq
            if seq < last:  # nothing hidden at that moment is in it
                assert not hidden_ids(game, None) & strings_in(position["view"]), seq
        refused = assert_refused(client.get(f"/api/games/{game_id}/positions/{last + 1}"),
                                 404, "bad_seq")
        assert refused["params"] == {"max": last}


def test_a_game_ended_by_resignation_replays_to_its_result(
        make_app: Callable[..., FastAPI]) -> None:
    app = make_app()
    with serve(app) as client:
        game_id = new_game(client)[0]["game_id"]
        client.portal.call(first_decisions, app.state.service, game_id)
        client.portal.call(app.state.service.resign, game_id, 1)
        record = ok(client.get(f"/api/games/{game_id}/record"))
    assert record["result"] == {"winner": 0, "victory": "resigned"}
    replayed = replay_record(record)
    assert replayed.outcome is not None and replayed.outcome.winner == 0
    assert replay_record(from_text(to_text(record))).state_hash == replayed.state_hash
