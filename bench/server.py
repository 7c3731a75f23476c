"""Server speed on a real database, through the services the routes call (no HTTP).

    python bench/server.py                                  # a fresh SQLite file
    python bench/server.py --database-url postgresql+asyncpg://postgres@127.0.0.1:5432/test

Prints, for a database holding ``--games`` games:
- a move: submit → committed → published, milliseconds per action (one game at a time);
- the lobby: the public lists and one player's own games, milliseconds per read;
- quick match: players paired per second when ``--players`` press "play" at once.

On PostgreSQL the tables go to a schema of their own, dropped afterwards. A figure, not a
test: it never fails on speed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import text

from app.config import Settings
from app.db.pubsub import InProcessPubSub
from app.db.session import make_engine, make_sessionmaker
from app.realtime.lobby import QuickMatch
from app.realtime.messages import ServerMessage
from app.services.games import GameService
from app.services.lobby import LobbyService
from app.services.players import PlayerService
from app.services.servers import ServerRegistry

ROOT = Path(__file__).resolve().parents[1]


def migrate(url: str, schema: str | None) -> None:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["url"] = url
    if schema:
        config.attributes["schema"] = schema
    command.upgrade(config, "head")


class FakeSocket:
    """What QuickMatch needs of a lobby connection: a player and somewhere to send."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.received: list[dict[str, Any]] = []

    def send(self, message: ServerMessage) -> None:
        self.received.append(message.model_dump())


async def fill(games: GameService, players: PlayerService, count: int) -> list[str]:
    """``count`` games between 20 players, a third listed and waiting, the rest started;
    returns the player ids."""
    people = [await players.name(None, f"Player {i}") for i in range(20)]
    chooser = random.Random(1)
    for i in range(count):
        ann, bob = chooser.sample(people, 2)
        created = await games.create_game(wonder_selection="draft", creator_starts=False,
                                          name=None, player_id=ann.player_id,
                                          listed=i % 3 == 0)
        if i % 3:
            await games.join_game(created.credentials.game_id, created.invite_code, None,
                                  bob.player_id)
    return [p.player_id for p in people]


async def time_moves(games: GameService, player_ids: list[str], actions: int) -> list[float]:
    created = await games.create_game(wonder_selection="draft", creator_starts=True,
                                      name=None, player_id=player_ids[0])
    game_id = created.credentials.game_id
    await games.join_game(game_id, created.invite_code, None, player_ids[1])
    chooser = random.Random(2)
    took: list[float] = []
    while len(took) < actions:
        game, version = await games.current(game_id)
        if game.is_over:
            break
        action = chooser.choice(game.legal_actions()).to_json()
        start = time.perf_counter()
        await games.submit(game_id, game.to_act, action, version, None)
        took.append(time.perf_counter() - start)
    return took


async def time_reads(lobby: LobbyService, player_id: str, rounds: int) -> tuple[float, float]:
    start = time.perf_counter()
    for _ in range(rounds):
        await lobby.public()
    public = (time.perf_counter() - start) / rounds
    start = time.perf_counter()
    for _ in range(rounds):
        await lobby.own(player_id)
    return public, (time.perf_counter() - start) / rounds


async def time_quick_match(games: GameService, players: PlayerService,
                           queue: QuickMatch, count: int) -> tuple[float, int]:
    sockets = [FakeSocket(await players.name(None, f"Quick {i}")) for i in range(count)]
    start = time.perf_counter()
    await asyncio.gather(*(queue.enter(s) for s in sockets))  # type: ignore[arg-type]
    took = time.perf_counter() - start
    matched = [m["game_id"] for s in sockets for m in s.received if m["type"] == "matched"]
    assert len(matched) == 2 * len(set(matched)), "a game with other than two players"
    return took, len(set(matched))


async def run(url: str, schema: str | None, args: argparse.Namespace) -> None:
    engine = make_engine(url, schema)
    sessions = make_sessionmaker(engine)
    settings = Settings(database_url=url, database_schema=schema, secret_key="bench")
    pubsub = InProcessPubSub()
    games = GameService(sessions, pubsub, settings)
    players = PlayerService(sessions)
    lobby = LobbyService(sessions)
    registry = ServerRegistry(sessions, timeout=60)
    await registry.register()
    queue = QuickMatch(games, sessions, registry, pubsub)
    try:
        start = time.perf_counter()
        player_ids = await fill(games, players, args.games)
        print(f"database: {engine.dialect.name}, {args.games} games made in "
              f"{time.perf_counter() - start:.1f} s")
        moves = await time_moves(games, player_ids, args.actions)
        print(f"move (validate, commit, render, publish): median "
              f"{statistics.median(moves) * 1000:.2f} ms, p95 "
              f"{sorted(moves)[int(len(moves) * 0.95)] * 1000:.2f} ms over {len(moves)} actions")
        public, own = await time_reads(lobby, player_ids[0], args.rounds)
        print(f"lobby lists: {public * 1000:.2f} ms; one player's games: {own * 1000:.2f} ms")
        took, pairs = await time_quick_match(games, players, queue, args.players)
        print(f"quick match: {args.players} players at once paired into {pairs} games in "
              f"{took:.2f} s ({pairs / took:.0f} games/s)")
    finally:
        await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--actions", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--players", type=int, default=200)
    args = parser.parse_args()
    if args.database_url is None:
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite+aiosqlite:///{folder}/bench.db"
            migrate(url, None)
            asyncio.run(run(url, None, args))
        return
    schema = f"bench_{uuid.uuid4().hex[:8]}"

    async def ddl(statement: str) -> None:
        engine = make_engine(args.database_url)
        async with engine.begin() as connection:
            await connection.execute(text(statement))
        await engine.dispose()

    asyncio.run(ddl(f'CREATE SCHEMA "{schema}"'))
    try:
        migrate(args.database_url, schema)
        asyncio.run(run(args.database_url, schema, args))
    finally:
        asyncio.run(ddl(f'DROP SCHEMA "{schema}" CASCADE'))


if __name__ == "__main__":
    main()
