"""A classic game as a record (framed as Duel's, ``app/engine/record.py``): the seed, the
options and every choice with its seat, and the state hash a replay must reach."""

from __future__ import annotations

from typing import Any, Final

from .game import ENGINE_VERSION, Game
from .state import Options

FORMAT: Final = "classic-game"
FORMAT_VERSION: Final = 1


class RecordError(ValueError):
    """A record that is not one, or whose replay does not end where it says."""


def to_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` so far (everything revealed: for after the game)."""
    result = game.outcome()
    return {"format": FORMAT, "format_version": FORMAT_VERSION,
            "engine_version": ENGINE_VERSION, "seed": game.seed,
            "options": game.options.to_json(),
            "actions": [{"seq": seq, "seat": seat, "notation": str(action)}
                        for seq, (seat, action) in enumerate(game.log, start=1)],
            "result": None if result is None else {"places": list(result.places)},
            "final_state_hash": game.state_hash()}


def replay_record(record: Any) -> Game:
    """Replay ``record``: the game, or :class:`RecordError` if it is not a record of this
    engine or does not end at its ``final_state_hash``."""
    if not isinstance(record, dict) or record.get("format") != FORMAT \
            or record.get("format_version") != FORMAT_VERSION:
        raise RecordError(f"not a {FORMAT} record of version {FORMAT_VERSION}")
    if record.get("engine_version") != ENGINE_VERSION:
        raise RecordError(f"played under engine {record.get('engine_version')!r}")
    try:
        game = Game.new(int(record["seed"]), Options.from_json(record["options"]))
        for seq, entry in enumerate(record["actions"], start=1):
            if entry.get("seq") != seq:
                raise RecordError(f"move {seq} is numbered {entry.get('seq')!r}")
            game.apply(entry["seat"], entry["notation"])
    except RecordError:
        raise
    except Exception as error:  # a refusal, or a malformed entry
        raise RecordError(f"the record does not replay: {error}") from error
    if game.state_hash() != record.get("final_state_hash"):
        raise RecordError("the moves do not reach the record's state hash")
    return game
