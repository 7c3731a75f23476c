"""Game records (docs/records.md): a finished game as a JSON document, and the same as a
compact text, one line per move; and the replay that checks a record against its hash.

A record is plain data: ``{"format": "duel-game", "format_version": 1, "engine_version",
"seed", "options", "players", "result", "actions": [{"seq", "seat", "action",
"notation"}, ...], "final_state_hash"}`` (the server's records also carry ids and times,
which a replay does not need)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .actions import from_json, parse
from .game import ENGINE_VERSION, Game
from .scoring import Outcome
from .state import Options

FORMAT = "duel-game"
FORMAT_VERSION = 1
_MOVE_FIELDS = 3  # seq, seat, notation


class RecordError(ValueError):
    """A record that is not one, or whose replay does not end where it says."""


@dataclass(frozen=True)
class Replayed:
    game: Game
    actions: int
    outcome: Outcome | None
    state_hash: str


def _field(record: dict[str, Any], name: str) -> Any:
    if name not in record:
        raise RecordError(f"the record has no {name!r}")
    return record[name]


def replay_record(record: Any) -> Replayed:
    """Replay ``record`` and check that it ends at its ``final_state_hash``: the game, or
    :class:`RecordError` saying what is wrong (a tampered record among others)."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} record")
    if record.get("format_version") != FORMAT_VERSION:
        raise RecordError(f"format_version must be {FORMAT_VERSION}")
    if _field(record, "engine_version") != ENGINE_VERSION:
        raise RecordError(f"played under engine version {record['engine_version']!r}; this "
                          f"engine is version {ENGINE_VERSION!r}")
    seed = _field(record, "seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError("seed must be a whole number")
    entries = _field(record, "actions")
    try:
        game = Game.new(seed, Options.from_json(_field(record, "options")))
        for seq, entry in enumerate(entries, start=1):
            action = from_json(entry["action"]) if "action" in entry else parse(entry["notation"])
            if entry.get("seq") != seq:
                raise RecordError(f"move {seq} is numbered {entry.get('seq')!r}")
            if entry.get("notation", str(action)) != str(action):
                raise RecordError(f"move {seq}: {entry['notation']!r} is not its action "
                                  f"({action})")
            game.apply(action, seat=entry["seat"])  # by the seat the record says
    except RecordError:
        raise
    except Exception as error:  # the engine's refusal of an action, or a malformed entry
        raise RecordError(f"the record does not replay: {error}") from error
    state_hash = game.state_hash()
    if state_hash != _field(record, "final_state_hash"):
        raise RecordError(f"the moves replay to state hash {state_hash}, not the record's "
                          f"{record['final_state_hash']}")
    outcome = game.outcome()
    said = record.get("result")
    ended = None if outcome is None else {"winner": outcome.winner,
                                          "victory": outcome.victory.value}
    if said != ended:
        raise RecordError(f"the record says the result is {said}, the moves make it {ended}")
    return Replayed(game, len(entries), outcome, state_hash)


def to_text(record: dict[str, Any]) -> str:
    """The record as text: a header line per field, then a line per move
    (``seq seat notation``)."""
    lines = [f"{FORMAT} {record['format_version']}",
             f"engine_version {record['engine_version']}",
             f"seed {record['seed']}",
             f"options {json.dumps(record['options'], sort_keys=True, separators=(',', ':'))}"]
    for player in record.get("players") or []:
        lines.append(f"player {player['seat']} {player['name'] or ''}".rstrip())
    result = record.get("result")
    if result:
        winner = "shared" if result["winner"] is None else result["winner"]
        lines.append(f"result {winner} {result['victory']}")
    lines.append(f"final_state_hash {record['final_state_hash']}")
    lines += [f"{a['seq']} {a['seat']} {a['notation']}" for a in record["actions"]]
    return "\n".join(lines) + "\n"


def from_text(text: str) -> dict[str, Any]:
    """The record a text of :func:`to_text` holds (what a replay needs of it)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines or lines[0].split(" ")[0] != FORMAT:
        raise RecordError(f"not a {FORMAT} record")
    record: dict[str, Any] = {"format": FORMAT, "players": [], "actions": []}
    try:
        record["format_version"] = int(lines[0].split(" ", 1)[1])
        for line in lines[1:]:
            key, _, value = line.partition(" ")
            if key.isdigit():
                seq, seat, notation = line.split(" ", _MOVE_FIELDS - 1)
                record["actions"].append({"seq": int(seq), "seat": int(seat),
                                          "action": parse(notation).to_json(),
                                          "notation": notation})
            elif key == "seed":
                record["seed"] = int(value)
            elif key == "options":
                record["options"] = json.loads(value)
            elif key == "player":
                seat, _, name = value.partition(" ")
                record["players"].append({"seat": int(seat), "name": name or None})
            elif key == "result":
                winner, _, victory = value.partition(" ")
                record["result"] = {"winner": None if winner == "shared" else int(winner),
                                    "victory": victory}
            elif key in ("engine_version", "final_state_hash"):
                record[key] = value
            else:
                raise RecordError(f"unknown line {line[:40]!r}")
    except RecordError:
        raise
    except (ValueError, IndexError, RecursionError) as error:  # MalformedActionError too
        raise RecordError(f"a line of the record cannot be read: {error}") from error
    return record


def read(text: str) -> dict[str, Any]:
    """A record from its JSON document or its text."""
    if text.lstrip().startswith("{"):
        try:
            data: dict[str, Any] = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as error:
            raise RecordError(f"not JSON a record is made of: {error}") from error
        return data
    return from_text(text)
