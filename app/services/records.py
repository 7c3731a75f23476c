"""Portable game records (``docs/records.md``) checked before an import: the format, the
seed, the options, the names, and every action replayed and legal, with its time. A
record that fails any check is refused with ``bad_record`` naming the field (and the
action) at fault, and nothing is written."""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app.db.models import GameAction
from app.engine import (
    ENGINE_VERSION,
    Game,
    IllegalActionError,
    MalformedActionError,
    Options,
    from_json,
)

from .errors import ServiceError
from .games import SEED_BITS
from .players import clean_name

RECORD_FORMAT = "duel-game"
RECORD_FORMAT_VERSION = 1
MAX_RECORD_ACTIONS = 1000
"""Far more than any game takes (well under 200 actions)."""
MIN_RECORD_YEAR, MAX_RECORD_YEAR = 1970, 9999
"""The times a record's actions may carry, in UTC (Python's datetime ends in 9999)."""
SEED_LIMIT = 1 << SEED_BITS
"""Seeds are stored in a signed 64-bit column."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _refuse_record(message: str, field: str | None = None, seq: int | None = None
                   ) -> ServiceError:
    """``bad_record``: ``field`` is the record's field at fault, ``seq`` the action."""
    params = {"field": field, "seq": seq}
    return ServiceError("bad_record", message, 422,
                        params={k: v for k, v in params.items() if v is not None})


@dataclass
class CheckedRecord:
    seed: int
    options: Options
    names: list[str | None]
    game: Game
    actions: list[GameAction]
    source: dict[str, Any]
    """What the record says of where it came from (kept in the import's log entry)."""


def _record_field(record: Mapping[str, Any], name: str) -> Any:
    if name not in record:
        raise _refuse_record(f"the record has no {name!r}", name)
    return record[name]


def _record_options(raw: Any) -> Options:
    if not isinstance(raw, dict):
        raise _refuse_record("options must be an object", "options")
    first = raw.get("first_player")
    if first is not None and not _is_int(first):
        raise _refuse_record("options.first_player must be 0, 1 or null", "options")
    try:
        return Options.from_json(raw)
    except (TypeError, ValueError) as error:
        raise _refuse_record(f"options: {error}", "options") from None


def _record_names(raw: Any) -> list[str | None]:
    names: list[str | None] = [None, None]
    if raw is None:
        return names
    if not isinstance(raw, list) or len(raw) > 2:
        raise _refuse_record("players must be a list of at most two {seat, name}", "players")
    seen: set[int] = set()
    for player in raw:
        if not isinstance(player, dict) or player.get("seat") not in (0, 1) \
                or not _is_int(player.get("seat")):
            raise _refuse_record("each player needs a seat, 0 or 1", "players")
        if player["seat"] in seen:
            raise _refuse_record(f"seat {player['seat']} is named twice in players", "players")
        seen.add(player["seat"])
        name = player.get("name")
        if name is not None:
            if not isinstance(name, str):
                raise _refuse_record(f"the name of seat {player['seat']} must be text",
                                     "players")
            try:
                name = clean_name(name)
            except ServiceError as error:
                raise _refuse_record(
                    f"the name of seat {player['seat']}: {error.message}", "players") from None
        names[player["seat"]] = name
    return names


def _record_time(raw: Any, seq: int) -> datetime:
    if raw is None:
        return datetime.now(UTC)
    try:
        moment = datetime.fromisoformat(raw) if isinstance(raw, str) else None
    except ValueError:
        moment = None
    if moment is not None:
        try:
            moment = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)
        except OverflowError:  # past year 9999 once in UTC
            moment = None
    if moment is None or not MIN_RECORD_YEAR <= moment.year <= MAX_RECORD_YEAR:
        raise _refuse_record(f"action {seq}: 'at' must be an ISO 8601 time between the "
                             f"years {MIN_RECORD_YEAR} and {MAX_RECORD_YEAR}", "actions", seq)
    return moment


def check_record(record: Any) -> CheckedRecord:
    """The record replayed and checked; any fault is refused with a 422 saying which."""
    if not isinstance(record, dict):
        raise _refuse_record("a game record is a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise _refuse_record(f"format must be {RECORD_FORMAT!r}", "format")
    version = record.get("format_version")
    if not _is_int(version) or version != RECORD_FORMAT_VERSION:
        raise _refuse_record(f"format_version must be {RECORD_FORMAT_VERSION}",
                             "format_version")
    engine_version = _record_field(record, "engine_version")
    if engine_version != ENGINE_VERSION:
        raise ServiceError(
            "wrong_engine_version",
            f"the record was played under engine version {engine_version!r}; this server "
            f"replays version {ENGINE_VERSION!r} only", 422,
            params={"expected": ENGINE_VERSION,
                    **({"version": engine_version} if isinstance(engine_version, str)
                       and len(engine_version) <= 40 else {})})
    seed = _record_field(record, "seed")
    if not _is_int(seed) or not -SEED_LIMIT <= seed < SEED_LIMIT:
        raise _refuse_record("seed must be a whole number that fits 64 bits", "seed")
    options = _record_options(_record_field(record, "options"))
    names = _record_names(record.get("players"))
    final_hash = _record_field(record, "final_state_hash")
    if not isinstance(final_hash, str):
        raise _refuse_record("final_state_hash must be text", "final_state_hash")
    entries = _record_field(record, "actions")
    if not isinstance(entries, list):
        raise _refuse_record("actions must be a list", "actions")
    if len(entries) > MAX_RECORD_ACTIONS:
        raise _refuse_record(f"a record has at most {MAX_RECORD_ACTIONS} actions", "actions")

    game = Game.new(seed, options)
    actions: list[GameAction] = []
    for seq, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise _refuse_record(f"action {seq} must be an object", "actions", seq)
        numbered = entry.get("seq", seq)
        if not _is_int(numbered) or numbered != seq:
            raise _refuse_record(f"action {seq} says seq {entry.get('seq')!r}: the actions "
                                 "must be numbered 1, 2, 3, ... in order", "actions", seq)
        seat = entry.get("seat")
        if not _is_int(seat) or seat not in (0, 1):
            raise _refuse_record(f"action {seq}: seat must be 0 or 1", "actions", seq)
        try:
            action = from_json(entry.get("action"))
        except MalformedActionError as error:
            raise _refuse_record(f"action {seq}: {error}", "actions", seq) from None
        notation = entry.get("notation")
        if notation is not None and notation != str(action):
            raise _refuse_record(f"action {seq}: the notation {notation!r} is not the "
                                 f"action's ({str(action)!r})", "actions", seq)
        at = _record_time(entry.get("at"), seq)
        try:
            game.apply(action, seat=seat)
        except IllegalActionError as error:
            raise ServiceError("illegal_action", f"action {seq} ({action}): {error}", 422,
                               detail=error.code, params={"seq": seq, **error.params}
                               ) from None
        actions.append(GameAction(seq=seq, seat=seat, action=action.to_json(),
                                  notation=str(action), created_at=at))
    replayed_hash = game.state_hash()
    # Bytes: compare_digest refuses str that is not ASCII.
    if not hmac.compare_digest(replayed_hash.encode(), final_hash.encode()):
        raise ServiceError(
            "hash_mismatch",
            f"the actions replay to state hash {replayed_hash}, not the record's "
            f"{final_hash[:80]}", 422)
    source = {"game_id": record.get("game_id"), "status": record.get("status"),
              "created_at": record.get("created_at")}
    return CheckedRecord(seed, options, names, game, actions,
                          {k: v for k, v in source.items() if isinstance(v, str)})


# ---------------------------------------------------------------------------- the service
