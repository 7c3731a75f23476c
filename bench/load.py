"""Many games at once against one or two server processes on PostgreSQL (loopback only).

    python bench/load.py                                  # 50 games flat-out, 2 processes, 20 s
    python bench/load.py --games 1000 --pace 10 --seconds 60    # human pace: a move per ~10 s
    python bench/load.py --processes 1 --games 25
    python bench/load.py --rejoin 2000                    # kill a process; its sockets rejoin
    python bench/load.py --idle 2000 --processes 1        # memory per idle socket
    python bench/load.py --churn 1000 --rounds 5 --processes 1   # memory after closing

Starts the server processes as ``make run`` does (uvicorn, the migrations first) on a
schema of their own in the database of ``--database-url`` (dropped afterwards), makes the
games over HTTP, then plays each one with its two seats on two sockets (seat 0 on one
process, seat 1 on the other when there are two), a random legal move at a time:
flat-out (the next move as soon as the mover hears its own update) or at human pace
(``--pace S``: one move per game about every S seconds). A game that ends is replaced by
a new one. Prints moves per second, the time from a move's send to the opponent's update
(p50/p95/p99), the refusals by code, the server processes' CPU and memory, and, in the
same run, pgbench's single-row inserts per second at the same concurrency (the games'
number), the database's own pace for one small write.

Flat-out, the same run also plays as many tables on as many processes of
bench/bare_server.py (``--no-bare`` skips it): the same frameworks, driver and socket
compression with no game, one row and two small messages a move. Its moves/s are the most
this stack and load client reach on this machine, whatever the game does; the game's
moves/s are printed as a share of both.

``--rejoin N``: N sockets (N/2 games, both seats) on the last process, which is then
killed (SIGKILL); every socket reconnects with its last version to one of the others
(spread over them in turn, as the proxy would), and the time until each is welcomed is
printed.

``--idle N``: N sockets (N/2 games, both seats) joined on one process and left idle;
prints the process's memory (RSS) per socket. Each game has been read once before (a
spectator's view over HTTP), so that what is counted is the sockets, not the games the
process keeps replayed in memory (``DUEL_GAME_CACHE_SIZE``).

``--wire N``: N games played to their end on one process, each seat keeping the text of
every message it receives; then those messages compressed again as each permessage-deflate
setting would (websockets' own extension, frame by frame, in order, a seat's context
carried from one message to the next where the setting keeps it): the bytes on the wire
per game and the memory each setting keeps per socket between messages (tracemalloc),
side by side with the server's (``app/serving.py``).

``--churn N --rounds R``: the same N sockets opened (joined) and closed R times on one
process; prints its RSS before the first round and after each, and the last against the
first (closed sockets should leave nothing behind that only the cycle collector frees:
docs/operations.md, "Pauses").

Bounded in time (``--seconds``) and count; figures, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import tracemalloc
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvloop
from sqlalchemy import text
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from app.db.session import make_engine
from app.main import COLLECTOR_THRESHOLDS
from app.serving import SOCKET_DEFLATE
from bench.bare_server import create_table
from bench.server import migrate
from tests.browser.server import free_port

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


# ---------------------------------------------------------------------- server processes

@dataclass
class Server:
    popen: subprocess.Popen[bytes]
    url: str
    samples: list[int] = field(default_factory=list)

    @property
    def ws(self) -> str:
        return self.url.replace("http://", "ws://")

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.popen.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.popen.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0


def start_servers(count: int, url: str, schema: str, logs: Path,
                  settings: dict[str, str] | None = None, *, bare: bool = False
                  ) -> list[Server]:
    """``count`` game servers, or with ``bare`` as many of bench/bare_server.py's (with
    the same settings)."""
    secret = secrets.token_urlsafe(32)
    servers = []
    for n in range(count):
        port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("DUEL_")}
        env.update(DUEL_DATABASE_URL=url, DUEL_DATABASE_SCHEMA=schema, DUEL_SECRET_KEY=secret,
                   DUEL_PUBLIC_URL=f"http://127.0.0.1:{port}",
                   # Its clients move as fast as answers come, from few addresses: far
                   # past what a person's socket may (docs/security.md).
                   DUEL_SOCKET_BURST="1000000", DUEL_SOCKETS_PER_ADDRESS="1000000",
                   DUEL_SPECTATORS_PER_GAME="1000000",
                   DUEL_GAMES_PER_HOUR="1000000", DUEL_JOINS_PER_HOUR="1000000",
                   # The moves are measured, not the analyses of the games they finish.
                   DUEL_ANALYSIS_ENABLED="false")
        env.update({f"DUEL_{name.upper()}": value for name, value in (settings or {}).items()})
        name = "bare" if bare else "server"
        with (logs / f"{name}{n}.log").open("wb") as log:
            popen = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "--factory",
                 "bench.bare_server:create_app" if bare else "app.main:create_app",
                 "--host", "127.0.0.1", "--port", str(port), "--ws-max-size", "1048576",
                 "--http", "app.serving:HttpProtocol", "--ws", "app.serving:SocketProtocol",
                 "--no-access-log", "--log-level", "warning"],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        servers.append(Server(popen, f"http://127.0.0.1:{port}"))
    deadline = time.monotonic() + 60
    for server in servers:
        while True:
            try:
                if httpx.get(server.url + "/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if server.popen.poll() is not None or time.monotonic() > deadline:
                stop_servers(servers)
                raise SystemExit(f"a server did not start; see {logs}")
            time.sleep(0.2)
    return servers


def stop_servers(servers: list[Server]) -> None:
    for server in servers:
        if server.popen.poll() is None:
            server.popen.terminate()
    for server in servers:
        try:
            server.popen.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.popen.kill()


# ---------------------------------------------------------------------- the players

@dataclass
class Figures:
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)
    games_done: int = 0
    seconds: float = 0.0
    """How long the play lasted (the setting up of the tables not counted)."""
    record: bool = False
    """Each seat keeps the text of every message it receives (``--wire``)."""


class Seat:
    """One seat's socket: reads every message, keeps the latest view, answers pings."""

    def __init__(self, socket: ClientConnection, figures: Figures) -> None:
        self.socket = socket
        self.figures = figures
        self.view: dict[str, Any] = {}
        self.version = -1
        self.heard: dict[int, float] = {}
        self.changed = asyncio.Event()
        self.received: list[str] = []
        """Every message's text, with ``figures.record``."""
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.socket:
                if self.figures.record:
                    self.received.append(str(raw))
                message = json.loads(raw)
                kind = message["type"]
                if kind == "ping":
                    await self.socket.send('{"type":"pong"}')
                elif kind in ("welcome", "update", "state"):
                    self.view, self.version = message["view"], message["version"]
                    self.heard[self.version] = time.perf_counter()
                    self.changed.set()
                elif kind == "error":
                    self.figures.refusals[message.get("code", "?")] += 1
                    self.changed.set()
        except Exception:  # the socket closed (the run is over, or its server was killed)
            self.changed.set()

    async def until(self, predicate: Any, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            self.changed.clear()
            if predicate():
                return
            await asyncio.wait_for(self.changed.wait(), max(0.01, deadline - time.monotonic()))


async def new_game(http: httpx.AsyncClient, servers: list[Server], index: int
                   ) -> tuple[str, list[str], list[Server]]:
    homes = [servers[index % len(servers)], servers[(index + 1) % len(servers)]]
    created = (await http.post(homes[0].url + "/api/games", json={"name": "A"})).json()
    joined = (await http.post(f"{homes[1].url}/api/games/{created['game_id']}/join",
                              json={"invite_code": created["invite_code"], "name": "B"})).json()
    return created["game_id"], [created["token"], joined["token"]], homes


async def open_seats(game_id: str, tokens: list[str], homes: list[Server],
                     figures: Figures) -> list[Seat]:
    seats = []
    for seat, (token, home) in enumerate(zip(tokens, homes, strict=True)):
        socket = await connect(f"{home.ws}/ws/games/{game_id}", max_size=2**20,
                               open_timeout=30)
        await socket.send(json.dumps({"type": "join", "seat": seat, "token": token}))
        seats.append(Seat(socket, figures))
    for seat in seats:
        await seat.until(lambda s=seat: s.version >= 0)
    return seats


async def set_table(index: int, http: httpx.AsyncClient, servers: list[Server],
                    figures: Figures, gate: asyncio.Semaphore) -> list[Seat]:
    """A new game, its two seats joined on their sockets (a few tables at a time)."""
    async with gate:
        game_id, tokens, homes = await new_game(http, servers, index)
        return await open_seats(game_id, tokens, homes, figures)


async def play_game(index: int, seats: list[Seat], *, figures: Figures, deadline: float,
                    pace: float | None, rng: random.Random) -> None:
    """The game at a table played, a random legal move at a time, to its end or the
    deadline."""
    while time.monotonic() < deadline:
        view = seats[0].view
        mover = view.get("to_act")
        if mover is None:
            figures.games_done += 1
            return
        if pace:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * pace)
        actor, opponent = seats[mover], seats[1 - mover]
        await actor.until(lambda a=actor, b=seats[0]: a.version == b.version)
        choice = rng.choice(actor.view["legal_actions"])
        target = actor.version + 1
        sent = time.perf_counter()
        await actor.socket.send(json.dumps({
            "type": "action", "action": choice["notation"], "version": actor.version,
            "client_id": f"{index}-{target}"}))
        await opponent.until(lambda o=opponent, t=target: o.version >= t)
        await actor.until(lambda a=actor, t=target: a.version >= t)
        figures.latencies.append(opponent.heard[target] - sent)
        figures.moves += 1


async def play_slot(index: int, http: httpx.AsyncClient, servers: list[Server], *,
                    seats: list[Seat], figures: Figures, deadline: float,
                    pace: float | None, rng: random.Random, gate: asyncio.Semaphore) -> None:
    """One table: a game played to its end, then the next, until the deadline."""
    if pace:  # tables at human pace start spread over one pace, not all at once
        await asyncio.sleep(rng.uniform(0, pace))
    first = True
    while time.monotonic() < deadline:
        if not first:
            seats = await set_table(index, http, servers, figures, gate)
        first = False
        try:
            await play_game(index, seats, figures=figures, deadline=deadline, pace=pace,
                            rng=rng)
        finally:
            for seat in seats:
                await seat.socket.close()
                seat.reader.cancel()


# ---------------------------------------------------------------------- pgbench

def pgbench_tps(url: str, clients: int, seconds: float) -> float | None:
    """pgbench's single-row inserts per second with ``clients`` connections."""
    dsn = url.replace("postgresql+asyncpg://", "postgresql://")
    table = f"pgbench_rows_{uuid.uuid4().hex[:8]}"
    subprocess.run(["psql", dsn, "-qc", f"CREATE TABLE {table} (id bigserial, v float8)"],
                   check=True, capture_output=True)
    try:
        with tempfile.NamedTemporaryFile("w", suffix=".sql") as script:
            script.write(f"INSERT INTO {table} (v) VALUES (random());\n")
            script.flush()
            done = subprocess.run(
                ["pgbench", "-n", "-c", str(clients), "-j", "2", "-T", str(int(seconds)),
                 "-f", script.name, dsn], capture_output=True, text=True, check=False)
        found = re.search(r"tps = ([0-9.]+)", done.stdout)
        return float(found.group(1)) if found else None
    finally:
        subprocess.run(["psql", dsn, "-qc", f"DROP TABLE {table}"], capture_output=True,
                       check=False)


# ---------------------------------------------------------------------- runs

def quiet_collector() -> None:
    """What this client holds now lives to the end: out of its cycle collector's sight,
    which runs as seldom as the server's (app/main.py), so that its pauses are not counted
    as the server's latency."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


def cpu_per_move(servers: list[Server], cpu_before: list[float], moves: int) -> float:
    """The servers' CPU milliseconds a move since ``cpu_before`` (theirs, in order)."""
    cpu = sum(s.cpu_seconds() for s in servers) - sum(cpu_before)
    return cpu / max(moves, 1) * 1000


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else float("nan")


async def run_load(servers: list[Server], args: argparse.Namespace) -> Figures:
    figures = Figures()
    # A connection idle for uvicorn's keep-alive (5 s) is closed by the server: one reused
    # at that moment fails (ReadError). Reuse only those idle for less.
    limits = httpx.Limits(max_connections=50, keepalive_expiry=2)
    gate = asyncio.Semaphore(25)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        setting_up = time.monotonic()
        tables = await asyncio.gather(*(set_table(i, http, servers, figures, gate)
                                        for i in range(args.games)))
        print(f"{args.games} games set, {2 * args.games} sockets joined in "
              f"{time.monotonic() - setting_up:.0f} s; playing")
        quiet_collector()
        deadline = time.monotonic() + args.seconds
        rng = random.Random(args.seed)
        cpu_before = [s.cpu_seconds() for s in servers]
        started = time.monotonic()
        slots = [play_slot(i, http, servers, seats=tables[i], figures=figures,
                           deadline=deadline, pace=args.pace,
                           rng=random.Random(rng.random()), gate=gate)
                 for i in range(args.games)]
        results = await asyncio.gather(*slots, return_exceptions=True)
        figures_time = time.monotonic() - started
    failures = [r for r in results if isinstance(r, BaseException)]
    if failures:
        figures.refusals["client failures"] += len(failures)
        print(f"  first client failure: {failures[0]!r}")
    print(f"{args.games} games, {len(servers)} process(es), "
          f"{'flat-out' if not args.pace else f'a move per ~{args.pace:g} s per game'}, "
          f"{figures_time:.0f} s: {figures.moves} moves ({figures.moves / figures_time:.0f}/s), "
          f"{figures.games_done} games finished")
    lat = figures.latencies
    print(f"  send -> opponent's update: p50 {percentile(lat, 0.5) * 1000:.1f} ms, "
          f"p95 {percentile(lat, 0.95) * 1000:.1f} ms, p99 {percentile(lat, 0.99) * 1000:.1f} ms")
    print(f"  refusals: {dict(figures.refusals) or 'none'}")
    for n, server in enumerate(servers):
        cpu = server.cpu_seconds() - cpu_before[n]
        print(f"  process {n}: CPU {cpu:.1f} s ({cpu / figures_time:.0%} of a core), "
              f"RSS {server.rss_mb():.0f} MB")
    print(f"  server CPU {cpu_per_move(servers, cpu_before, figures.moves):.2f} ms a move")
    figures.seconds = figures_time
    return figures


async def run_bare(servers: list[Server], games: int, seconds: float) -> float:
    """Flat-out tables on bench/bare_server.py (both of a table's sockets on one process,
    the tables spread over the processes); the moves per second."""
    moves = 0

    async def table(index: int, deadline: float) -> None:
        nonlocal moves
        home = servers[index % len(servers)].ws
        seats = [await connect(f"{home}/bare/{index}/{seat}", max_size=2**20)
                 for seat in (0, 1)]
        for seat in seats:
            await seat.recv()  # welcome
        version = 0
        while time.monotonic() < deadline:
            actor, opponent = seats[version % 2], seats[1 - version % 2]
            await actor.send(json.dumps({"type": "action", "action": "x",
                                         "version": version}))
            json.loads(await opponent.recv())
            json.loads(await actor.recv())
            version += 1
            moves += 1
        for seat in seats:
            await seat.close()

    quiet_collector()
    cpu_before = [s.cpu_seconds() for s in servers]
    started = time.monotonic()
    results = await asyncio.gather(*(table(i, started + seconds) for i in range(games)),
                                   return_exceptions=True)
    took = time.monotonic() - started
    failures = [r for r in results if isinstance(r, BaseException)]
    if failures:
        print(f"  bare tables failed: {len(failures)}, the first: {failures[0]!r}")
    print(f"bare stack (bench/bare_server.py: no game, one row and two small messages a "
          f"move), {games} tables, {len(servers)} process(es), {took:.0f} s: "
          f"{moves / took:.0f} moves/s, server CPU "
          f"{cpu_per_move(servers, cpu_before, moves):.2f} ms a move")
    return moves / took


async def run_rejoin(servers: list[Server], count: int) -> None:
    """``count`` sockets on the last process; kill it; every socket rejoins on the first."""
    figures = Figures()
    games = []
    async with httpx.AsyncClient(timeout=30) as http:
        for i in range(count // 2):
            game_id, tokens, _ = await new_game(http, servers, i)
            games.append((game_id, tokens))
    # The proxy spreads the reconnecting sockets over the processes left.
    victim, survivors = servers[-1], servers[:-1]
    seats = []
    for game_id, tokens in games:
        seats += await open_seats(game_id, tokens, [victim, victim], figures)
    print(f"{len(seats)} sockets on one process; killing it")
    # Their readers are not needed any more: their ends, all at once, would be this
    # client's work while the rejoins are timed, not the server's.
    for seat in seats:
        seat.reader.cancel()
    quiet_collector()
    victim.popen.send_signal(signal.SIGKILL)
    victim.popen.wait()
    start = time.perf_counter()

    refused: Counter[str] = Counter()

    async def rejoin(game_id: str, seat: int, token: str, last: int, survivor: Server
                     ) -> float:
        """As the browser's socket does: join again with the last version; refused as
        unavailable (the server is overloaded) or closed, wait a jittered moment and try
        again."""
        rng = random.Random(f"{game_id}{seat}")
        join = json.dumps({"type": "join", "seat": seat, "token": token, "last_version": last})
        while True:
            try:
                async with connect(f"{survivor.ws}/ws/games/{game_id}",
                                   open_timeout=60) as socket:
                    await socket.send(join)
                    while True:
                        text = await socket.recv()
                        # The type comes first (app/realtime/messages.py): a welcome's
                        # whole view need not be parsed to know it came (this client
                        # shares the machine with the server it measures).
                        if text.startswith('{"type":"welcome"'):
                            return time.perf_counter() - start
                        message = json.loads(text)
                        if message["type"] == "error":
                            refused[message["code"]] += 1
                            await asyncio.sleep(rng.uniform(0.25, 0.75))
                            await socket.send(join)
            except ConnectionClosed:
                refused["closed"] += 1
                await asyncio.sleep(rng.uniform(0.25, 0.75))

    times = await asyncio.gather(*(
        rejoin(game_id, seat, tokens[seat], 0, survivors[(2 * n + seat) % len(survivors)])
        for n, (game_id, tokens) in enumerate(games) for seat in (0, 1)),
        return_exceptions=True)
    took = [t for t in times if isinstance(t, float)]
    failed = Counter(type(t).__name__ for t in times if not isinstance(t, float))
    if failed:
        print(f"  sockets that failed: {dict(failed)}")
    print(f"  {len(took)} of {len(times)} welcomed again; first "
          f"{min(took, default=float('nan')):.2f} s, p10 {percentile(took, 0.1):.2f} s, "
          f"p50 {percentile(took, 0.5):.2f} s, "
          f"p99 {percentile(took, 0.99):.2f} s, last {max(took, default=float('nan')):.2f} s; "
          f"refusals on the way (then joined again): {dict(refused) or 'none'}")


async def open_games(servers: list[Server], sockets: int) -> list[tuple[str, list[str]]]:
    """``sockets`` / 2 new games, both seats taken: their ids and seat tokens."""
    gate = asyncio.Semaphore(25)

    async def one(http: httpx.AsyncClient, index: int) -> tuple[str, list[str]]:
        async with gate:
            game_id, tokens, _ = await new_game(http, servers, index)
            return game_id, tokens

    async with httpx.AsyncClient(timeout=60) as http:
        return list(await asyncio.gather(*(one(http, i) for i in range(sockets // 2))))


async def join_all(server: Server, games: list[tuple[str, list[str]]]) -> list[Seat]:
    """Both seats of every game joined on ``server`` (a few games at a time)."""
    figures = Figures()
    gate = asyncio.Semaphore(25)

    async def table(game_id: str, tokens: list[str]) -> list[Seat]:
        async with gate:
            return await open_seats(game_id, tokens, [server, server], figures)

    tables = await asyncio.gather(*(table(game_id, tokens) for game_id, tokens in games))
    return [seat for seats in tables for seat in seats]


async def close_all(seats: list[Seat], server: Server) -> None:
    """Every seat's socket closed, a hundred at a time, the server done with each hundred
    (its departures written) before the next: a thousand at once would queue their
    writes past the database pool's timeout."""
    for start in range(0, len(seats), 100):
        batch = seats[start:start + 100]
        await asyncio.gather(*(seat.socket.close() for seat in batch))
        for seat in batch:
            seat.reader.cancel()
        await settled_rss(server)


async def settled_rss(server: Server, seconds: float = 3.0) -> float:
    """The process's RSS once it has finished with what it was doing (its CPU time still
    for a quarter of a second), within ``seconds``."""
    deadline = time.monotonic() + seconds
    cpu = server.cpu_seconds()
    while time.monotonic() < deadline:
        await asyncio.sleep(0.25)
        now = server.cpu_seconds()
        if now - cpu < 0.01:
            break
        cpu = now
    return server.rss_mb()


async def run_idle(servers: list[Server], count: int) -> None:
    """``count`` sockets joined on the last process and left idle: its RSS per socket."""
    server = servers[-1]
    games = await open_games(servers, count)
    gate = asyncio.Semaphore(25)

    async def read(http: httpx.AsyncClient, game_id: str) -> None:
        async with gate:
            (await http.get(f"{server.url}/api/games/{game_id}/spectate")).raise_for_status()

    async with httpx.AsyncClient(timeout=60) as http:  # every game replayed in memory
        await asyncio.gather(*(read(http, game_id) for game_id, _ in games))
    before = await settled_rss(server)
    seats = await join_all(server, games)
    after = await settled_rss(server)
    print(f"{len(seats)} idle sockets on one process: RSS {before:.0f} MB before, "
          f"{after:.0f} MB with them: {(after - before) * 1024 / len(seats):.1f} KB a socket")
    await close_all(seats, server)


async def run_churn(servers: list[Server], count: int, rounds: int) -> None:
    """The same ``count`` sockets opened and closed ``rounds`` times on the last process:
    its RSS after each round."""
    server = servers[-1]
    games = await open_games(servers, count)
    start = await settled_rss(server)
    print(f"{count} sockets ({len(games)} games) opened and closed {rounds} times on one "
          f"process; RSS before: {start:.0f} MB")
    after: list[float] = []
    for n in range(rounds):
        seats = await join_all(server, games)
        opened = await settled_rss(server, 1.0)
        await close_all(seats, server)
        after.append(await settled_rss(server))
        print(f"  round {n + 1}: {opened:.0f} MB open, {after[-1]:.0f} MB closed")
    print(f"  after round {rounds}: {after[-1] / after[0] - 1:+.1%} against round 1, "
          f"{after[-1] / start - 1:+.1%} against before")


DEFLATE_SETTINGS: dict[str, dict[str, Any]] = {
    "this server's (app/serving.py)": SOCKET_DEFLATE,
    "uvicorn's own (window 12 bits, memLevel 5, both contexts kept)": {
        "server_max_window_bits": 12, "client_max_window_bits": 12,
        "compress_settings": {"memLevel": 5}},
    "window 10 bits, memLevel 3, contexts kept": {
        "server_max_window_bits": 10, "client_max_window_bits": 10,
        "compress_settings": {"memLevel": 3}},
    "window 9 bits, memLevel 1, contexts kept": {
        "server_max_window_bits": 9, "client_max_window_bits": 9,
        "compress_settings": {"memLevel": 1}},
    "no context kept either way (window 12 bits, memLevel 5)": {
        "server_max_window_bits": 12, "client_max_window_bits": 12,
        "server_no_context_takeover": True, "client_no_context_takeover": True,
        "compress_settings": {"memLevel": 5}},
    "no context kept either way (window 13 bits, memLevel 6)": {
        "server_max_window_bits": 13, "client_max_window_bits": 13,
        "server_no_context_takeover": True, "client_no_context_takeover": True,
        "compress_settings": {"memLevel": 6}},
    "no context kept either way (window 15 bits, memLevel 8)": {
        "server_no_context_takeover": True, "client_no_context_takeover": True,
        "compress_settings": {"memLevel": 8}},
    "no context kept either way (window 15 bits, memLevel 9, level 9)": {
        "server_no_context_takeover": True, "client_no_context_takeover": True,
        "compress_settings": {"memLevel": 9, "level": 9}},
}
"""The permessage-deflate settings ``--wire`` compares (websockets' server settings)."""
CLIENT_MESSAGE = '{"type":"action","action":"build Lumber Yard","version":12,"client_id":"c12"}'
"""A message as a client sends it, for the memory a server's decompressor keeps."""


def deflate_extension(settings: dict[str, Any]) -> PerMessageDeflate:
    """The server's end of permessage-deflate as ``settings`` negotiate it."""
    return PerMessageDeflate(
        remote_no_context_takeover=settings.get("client_no_context_takeover", False),
        local_no_context_takeover=settings.get("server_no_context_takeover", False),
        remote_max_window_bits=settings.get("client_max_window_bits", 15),
        local_max_window_bits=settings.get("server_max_window_bits", 15),
        compress_settings=settings.get("compress_settings"))


def deflated(seats: list[list[str]], settings: dict[str, Any]) -> tuple[int, int]:
    """The payload bytes of every seat's messages compressed as ``settings`` say, and the
    bytes one socket's compression keeps between messages."""
    total = 0
    for texts in seats:
        extension = deflate_extension(settings)
        for message in texts:
            total += len(extension.encode(Frame(Opcode.TEXT, message.encode())).data)
    # A client's message, compressed as the client would (its context kept or not).
    client = PerMessageDeflate(
        remote_no_context_takeover=False,
        local_no_context_takeover=settings.get("client_no_context_takeover", False),
        remote_max_window_bits=15,
        local_max_window_bits=max(9, settings.get("client_max_window_bits", 15)))
    incoming = client.encode(Frame(Opcode.TEXT, CLIENT_MESSAGE.encode()))
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    extension = deflate_extension(settings)
    extension.encode(Frame(Opcode.TEXT, seats[0][0].encode()))
    extension.decode(incoming)
    kept = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return total, kept


async def run_wire(servers: list[Server], games: int, seed: int) -> None:
    """``games`` games played to their end on the last process, flat-out, the messages each
    seat received kept; then compressed again as each of :data:`DEFLATE_SETTINGS` would."""
    server = servers[-1]
    figures = Figures(record=True)
    rng = random.Random(seed)
    texts: list[list[str]] = []
    for index, (game_id, tokens) in enumerate(await open_games(servers, 2 * games)):
        seats = await open_seats(game_id, tokens, [server, server], figures)
        await play_game(index, seats, figures=figures, deadline=time.monotonic() + 300,
                        pace=None, rng=rng)
        await close_all(seats, server)
        texts += [seat.received for seat in seats]
    count = sum(len(seat) for seat in texts)
    raw = sum(len(message.encode()) for seat in texts for message in seat)
    print(f"{figures.games_done} games to their end, {figures.moves} moves: {count} messages "
          f"to the seats, {raw / games / 1000:.1f} KB a game uncompressed")
    for name, settings in DEFLATE_SETTINGS.items():
        total, kept = deflated(texts, settings)
        print(f"  {total / games / 1000:5.1f} KB a game ({total / raw:.0%}), "
              f"{kept / 1024:4.1f} KB kept per socket: {name}")


def run_ddl(url: str, statement: str) -> None:
    """One statement of schema (a schema made or dropped, a table) on the database at url."""
    async def ddl() -> None:
        engine = make_engine(url)
        async with engine.begin() as connection:
            await connection.execute(text(statement))
        await engine.dispose()

    asyncio.run(ddl())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--processes", type=int, default=2, choices=(1, 2, 3, 4))
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--pace", type=float, default=None,
                        help="seconds between a game's moves (default: flat-out)")
    parser.add_argument("--rejoin", type=int, default=0)
    parser.add_argument("--idle", type=int, default=0,
                        help="memory per socket of this many idle sockets on one process")
    parser.add_argument("--churn", type=int, default=0,
                        help="memory after this many sockets open and close, --rounds times")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--wire", type=int, default=0,
                        help="bytes on the wire of this many games, by compression setting")
    parser.add_argument("--setting", action="append", default=[], metavar="NAME=VALUE",
                        help="a server setting (DUEL_NAME), e.g. database_pool_size=50")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-pgbench", action="store_true")
    parser.add_argument("--no-bare", action="store_true",
                        help="skip the bare stack's flat-out run (bench/bare_server.py)")
    args = parser.parse_args()
    args.games = max(1, min(args.games, 2000))
    args.seconds = max(1.0, min(args.seconds, 600.0))
    url, schema = args.database_url, f"load_{uuid.uuid4().hex[:8]}"

    run_ddl(url, f'CREATE SCHEMA "{schema}"')
    logs = Path(tempfile.mkdtemp(prefix="duel-load-"))
    servers: list[Server] = []
    try:
        migrate(url, schema)
        settings = dict(setting.split("=", 1) for setting in args.setting)
        servers = start_servers(args.processes, url, schema, logs, settings)
        if args.rejoin:
            uvloop.run(run_rejoin(servers, args.rejoin))
            return
        if args.idle:
            uvloop.run(run_idle(servers, args.idle))
            return
        if args.wire:
            uvloop.run(run_wire(servers, args.wire, args.seed))
            return
        if args.churn:
            uvloop.run(run_churn(servers, args.churn, args.rounds))
            return
        figures = uvloop.run(run_load(servers, args))
        stop_servers(servers)
        rate = figures.moves / figures.seconds
        bare: float | None = None
        if not args.pace and not args.no_bare:
            run_ddl(url, create_table(schema))
            servers = start_servers(args.processes, url, schema, logs, settings, bare=True)
            bare = uvloop.run(run_bare(servers, args.games, args.seconds))
            stop_servers(servers)
            print(f"  the game's moves/s are {rate / bare:.2f} of the bare stack's")
        if not args.no_pgbench:
            tps = pgbench_tps(url, args.games, min(args.seconds, 15))
            if tps:
                print(f"pgbench, single-row inserts, {args.games} clients: {tps:.0f}/s; "
                      f"the game's moves/s are {rate / tps:.3f} of it"
                      + ("" if bare is None else f", the bare stack's {bare / tps:.3f}"))
    finally:
        stop_servers(servers)
        run_ddl(url, f'DROP SCHEMA "{schema}" CASCADE')
        print(f"server logs: {logs}")


if __name__ == "__main__":
    main()
