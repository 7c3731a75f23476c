"""Hidden information over the game socket: random games played through the protocol, every
message each seat and a spectator receive scanned for identities they may not know.

What is hidden at each version comes from the engine-level test (``_hidden_ids`` of
``tests/test_random_games.py``), computed on a replica of the server's game: same seed and
options (read from the server's own replay), fed the moves the sockets were told of. The
replica's final state must hash as the server's does, so it is the server's game.

Every test runs on SQLite and on PostgreSQL (the ``make_app`` fixture)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from fastapi import FastAPI

from app.engine import CARDS, WONDERS
from app.engine.state import DecisionKind
from tests.factories import ProtocolClient, Table, serve, server_game
from tests.factories import hidden_ids as _hidden_ids
from tests.factories import strings_in as _strings

TIMEOUT = 10.0
GAMES_PER_DATABASE = 15
"""Full games per database: 30 in all."""

SEATS: dict[str, int | None] = {"0": 0, "1": 1, "spectator": None}


def _fond_of_the_great_library(entry: dict[str, Any]) -> bool:
    """Draft and build The Great Library whenever possible, so that its private draw of
    tokens (seen by its builder only) happens in most games."""
    action = entry["action"]
    return action.get("wonder") == "the_great_library" \
        and action["type"] in ("pick_wonder", "build_wonder")


class Scanner:
    """Remembers what each audience may not know at each version, and checks messages."""

    def __init__(self, table: Table, seed: int) -> None:
        self.table = table
        self.seed = seed
        self.hidden: dict[str, list[set[str]]] = {a: [] for a in SEATS}
        """Per audience, the hidden ids at each version (index = version)."""
        self.scanned = dict.fromkeys(SEATS, 0)
        self.library_draws = 0
        """Great Library draws seen by :meth:`play`, each checked."""
        self.record()

    def record(self) -> None:
        """The replica has just reached a new version."""
        for audience, seat in SEATS.items():
            hidden = _hidden_ids(self.table.replica, seat)
            assert hidden, "something is always hidden (the cards left out at setup)"
            self.hidden[audience].append(hidden)

    def check(self, audience: str, message: Any, version: int, what: str) -> None:
        leaked = self.hidden[audience][version] & _strings(message)
        assert not leaked, (f"game seed {self.seed}: {audience} was sent hidden {sorted(leaked)}"
                            f" in {what} at version {version}")

    def check_inboxes(self) -> None:
        """Every message each socket received since the last check (up to and including
        the update of the current version)."""
        version = len(self.hidden["0"]) - 1
        for audience, socket in self.table.sockets.items():
            for message in socket.inbox[self.scanned[audience]:]:
                if "missed" in message:
                    continue  # a catch-up: see check_catch_up
                self.check(audience, message, version, f"a {message['type']} message")
            self.scanned[audience] = len(socket.inbox)

    def check_catch_up(self, audience: str, message: dict[str, Any]) -> None:
        """A welcome or state with ``missed``: the view against what is hidden now, each
        missed entry against what was hidden at its version (The Great Library's builder
        may be reminded of its draw: it saw it then)."""
        version = message["version"]
        assert version == len(self.hidden[audience]) - 1
        self.check(audience, {k: v for k, v in message.items() if k != "missed"}, version,
                   f"a {message['type']}")
        for entry in message["missed"]:
            self.check(audience, entry, entry["version"],
                       f"the missed events of a {message['type']}")

    def play(self, chooser: random.Random) -> Iterator[int]:
        """Play the table's game to its end, fond of the Great Library, checking every
        message after each action; yields the number of actions played after each."""
        table = self.table
        while not table.replica.is_over:
            step = table.step(chooser, prefer=_fond_of_the_great_library)
            self.record()
            self.check_inboxes()
            decision = table.replica.decision
            if decision is not None and decision.kind == DecisionKind.CHOOSE_LIBRARY_TOKEN:
                self.library_draws += 1
                _check_library_draw(step, decision.seat)
            yield len(table.history)


def test_no_message_reveals_a_hidden_identity(make_app: Callable[..., FastAPI]) -> None:
    library_draws = 0
    with serve(make_app()) as client:
        for number in range(GAMES_PER_DATABASE):
            options = {"wonder_selection": "first_game" if number % 5 == 4 else "draft"}
            table = Table.open(client, timeout=TIMEOUT, **options)
            server, _ = server_game(client, table.game_id)
            scanner = Scanner(table, server.seed)
            scanner.check_inboxes()  # the welcomes
            chooser = random.Random(number)
            late_join = chooser.randrange(3, 40)
            for played in scanner.play(chooser):
                if played == late_join:
                    # Latecomers catch up from the start: a seat and a spectator.
                    for audience, seat in SEATS.items():
                        if seat is None:
                            latecomer = ProtocolClient(client, table.game_id, timeout=TIMEOUT)
                            welcome = latecomer.join(last_version=0)
                        else:
                            latecomer = ProtocolClient(client, table.game_id, timeout=TIMEOUT)
                            welcome = latecomer.join(seat, table.credentials[seat]["token"],
                                                     last_version=0)
                        assert len(welcome["missed"]) == late_join
                        scanner.check_catch_up(audience, welcome)
                        latecomer.close()

            # At the end, everyone asks for the whole story again.
            for audience, socket in table.sockets.items():
                socket.send({"type": "sync", "last_version": 0})
                state = socket.receive_until("state")
                assert len(state["missed"]) == len(table.history)
                scanner.check_catch_up(audience, state)
            scanner.check_inboxes()
            library_draws += scanner.library_draws

            # The replica is the server's game: what was hidden was computed on the truth.
            server, version = server_game(client, table.game_id)
            assert version == len(table.history)
            assert table.replica.state_hash() == server.state_hash()
            table.close()
    # The Great Library's draw, shown to its builder alone, was put to the test.
    assert library_draws >= 1


def _check_library_draw(step: Any, builder: int) -> None:
    """The builder sees the drawn tokens (in its view and its events); the others only how
    many were drawn."""
    drawn = [e for e in step.events if e["type"] == "library_drawn"]
    assert len(drawn) == 1, step.events
    tokens = drawn[0]["tokens"]
    for audience, seat in SEATS.items():
        update = step.updates[audience]
        seen = [e for e in update["events"] if e["type"] == "library_drawn"]
        decision = update["view"]["decision"]
        if seat == builder:
            assert seen[0]["tokens"] == tokens
            assert decision["options"] == tokens
        else:
            assert "tokens" not in seen[0] and seen[0]["count"] == len(tokens)
            assert "options" not in decision and decision["count"] == len(tokens)


def _normalised(error: dict[str, Any], name: str) -> tuple[Any, ...]:
    return error["code"], error.get("detail"), error["message"].replace(name, "<id>")


def test_refusals_do_not_tell_face_down_cards_from_cards_out_of_the_game(
        make_app: Callable[..., FastAPI]) -> None:
    """A seat could probe with actions naming cards and wonders it cannot see: the refusal
    must read the same whether the card lies face down in the structure or was left out at
    setup, and whether a wonder comes later in the draft or never."""
    with serve(make_app()) as client:
        table = Table.open(client, timeout=TIMEOUT, wonder_selection="draft",
                           first_player="creator")
        seat0 = table.seats[0]
        game, _ = server_game(client, table.game_id)
        # Draft, version 0: the second round's wonders and the unused ones.
        state = game.state
        later = [WONDERS[w].id for w in state.draft_rounds[1]]
        never = [WONDERS[w].id for w in state.unused_wonders]
        answers = {}
        for wonder in later + never:
            error = seat0.act(f"pick:{wonder}", 0)
            assert error["type"] == "error", error
            answers[wonder] = _normalised(error, wonder)
        assert len(set(answers.values())) == 1, answers

        # Play the draft out (8 picks, the last of each round automatic) to reach Age I.
        chooser = random.Random(1)
        while table.replica.state.age == 0:
            table.step(chooser)
        game, version = server_game(client, table.game_id)
        state = game.state
        actor = table.seats[game.to_act]  # type: ignore[index]
        face_down = [CARDS[c].id for slot, c in enumerate(state.structure)
                     if c >= 0 and not state.face_up[slot]]
        left_out = [CARDS[c].id for c in state.removed_cards if CARDS[c].age == 1]
        assert face_down and left_out
        answers = {}
        for card in face_down + left_out:
            for verb in ("build", "discard"):
                error = actor.act(f"{verb}:{card}", version)
                assert error["type"] == "error", error
                answers[verb, card] = _normalised(error, card)
        for verb in ("build", "discard"):
            replies = {answer for (v, _), answer in answers.items() if v == verb}
            assert len(replies) == 1, replies
        assert server_game(client, table.game_id)[1] == version
        table.close()
