"""A long fuzz run against a real server process: HTTP requests over every route and file,
and socket messages on game and lobby sockets, counting 5xx answers and tracebacks.

    python bench/fuzz.py --database sqlite                       # an embedded SQLite file
    python bench/fuzz.py                                         # PostgreSQL (a schema of its own)
    python bench/fuzz.py --requests 20000 --messages 50000 --seed 7

Starts one server process as ``make run`` does (uvicorn, the migrations first; the socket
and hourly limits set out of reach, the admin pages open), then:

- HTTP: every route the application has (pages, the API, the admin's pages and API, the
  socket paths asked over plain HTTP) and the static files (``/static`` and its folders,
  ``/vendor``), each path parameter and query filled with NUL and control characters,
  names over any length, multi-byte, astral and lone-surrogate characters, dots and
  slashes, or a real game id; bodies of JSON with the fields the routes read (fuzzed),
  JSON of another shape, or bytes that are no JSON; sent by a visitor, a guest, a logged-in
  account and the admin, several at a time.
- Sockets: game sockets (each seat with its token, spectators, sockets never joined) and
  lobby sockets send messages of every type with fuzzed fields, unreadable frames, binary
  frames, frames over the size limit, as fast as they are answered; a socket the server
  closes is opened again.

Prints the answers by status, the 5xx, the sockets closed with 1011 (an internal error),
and the tracebacks and ERROR lines in the server's log. Exits 1 when any of those is not
0. Figures, not a test: tests/fuzz/ runs the same kinds of input in the suite.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import re
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from app.main import create_app
from app.realtime.protocol import CLIENT_TYPES, LOBBY_TYPES
from bench.load import Server, run_ddl, start_servers, stop_servers
from bench.server import migrate
from tests.fuzz.test_path_fuzz import FILE_ROUTES, SPECIAL, _routes

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
ADMIN_PASSWORD = "fuzz-admin-password"
MESSAGE_LIMIT = 8192
SETTINGS = {
    "admin_password": ADMIN_PASSWORD, "max_message_bytes": str(MESSAGE_LIMIT),
    # Out of reach: the fuzz is about what a message holds, not how fast it comes.
    "socket_rate": "1000000", "chat_burst": "1000000", "accounts_per_hour": "1000000",
    "login_attempts": "1000000", "login_attempts_per_account": "1000000",
    "computer_games_per_hour": "1000000", "join_timeout": "600",
    "heartbeat_interval": "600", "heartbeat_timeout": "1200",
}
FIELDS = ["name", "username", "password", "current_password", "new_password", "invite_code",
          "level", "wonder_selection", "first_player", "listed", "rated", "time_control",
          "reason", "game_id", "seat", "token", "kind", "minutes", "increment", "days"]
"""The fields the routes' bodies read (and a few they do not)."""
QUERY_KEYS = ["v", "next", "page", "per_page", "player", "status", "lang", "since", "until"]


# ---------------------------------------------------------------------- fuzzed values

def fuzz_text(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.3:
        return rng.choice(SPECIAL)
    if roll < 0.55:  # any code point, surrogates and controls included
        return "".join(chr(rng.choice([rng.randrange(0x20), rng.randrange(0x80, 0x800),
                                       rng.randrange(0xD800, 0xE000),
                                       rng.randrange(0x10000, 0x110000),
                                       rng.randrange(0x20, 0x7F)]))
                       for _ in range(rng.randrange(1, 30)))
    if roll < 0.7:
        return rng.choice("xé€😀") * rng.choice([40, 41, 100, 200, 255, 256, 300, 1000, 2100])
    if roll < 0.85:
        return "/".join(rng.choice(["a", "..", ".", "", "js", "\x00", "%00"])
                        for _ in range(rng.randrange(2, 6)))
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789_-")
                   for _ in range(rng.randrange(3, 25)))


def fuzz_value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if roll < 0.45:
        return fuzz_text(rng)
    if roll < 0.6:
        return rng.choice([0, 1, -1, 2, 3, 30, 2**31, -(2**63), 10**30, 0.5, float("1e308")])
    if roll < 0.7:
        return rng.choice([None, True, False])
    if roll < 0.8 and depth < 3:
        return [fuzz_value(rng, depth + 1) for _ in range(rng.randrange(3))]
    if depth < 3:
        return {fuzz_text(rng) if rng.random() < 0.3 else rng.choice(FIELDS):
                fuzz_value(rng, depth + 1) for _ in range(rng.randrange(4))}
    return "x"


def encoded(value: str, keep_slashes: bool) -> str:
    return quote(value, safe="/" if keep_slashes else "", errors="surrogatepass")


def json_bytes(value: Any) -> bytes:
    return json.dumps(value).encode()  # ASCII: lone surrogates go as \\ud800 escapes


# ---------------------------------------------------------------------- HTTP

@dataclass
class Tally:
    statuses: Counter[int] = field(default_factory=Counter)
    server_errors: list[str] = field(default_factory=list)
    asked_again: int = 0
    read_through: int = 0
    """Sockets whose every message was answered before they closed (their last ping's pong
    came)."""
    """Requests sent a second time after their connection closed under them."""
    messages: int = 0
    closes: Counter[int] = field(default_factory=Counter)
    internal_closes: list[str] = field(default_factory=list)


def http_request(rng: random.Random, routes: list[tuple[str, list[str]]],
                 game_ids: list[str]) -> dict[str, Any]:
    template, methods = rng.choice(routes)
    slashes = rng.random() < 0.3
    path = template
    while "{" in path:
        start, end = path.index("{"), path.index("}")
        filler = rng.choice(game_ids) if rng.random() < 0.25 else fuzz_text(rng)
        path = path[:start] + encoded(filler, slashes) + path[end + 1:]
    method = rng.choice(methods) if rng.random() < 0.9 else \
        rng.choice(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
    if rng.random() < 0.3:
        keys = [rng.choice(QUERY_KEYS) if rng.random() < 0.7 else fuzz_text(rng)
                for _ in range(rng.randrange(1, 4))]
        path += "?" + "&".join(f"{encoded(key, False)}={encoded(fuzz_text(rng), False)}"
                               for key in keys)
    request: dict[str, Any] = {"method": method, "url": path, "headers": {}}
    if method in ("POST", "PUT", "PATCH", "DELETE") and rng.random() < 0.9:
        roll = rng.random()
        if roll < 0.6:
            body: Any = {rng.choice(FIELDS): fuzz_value(rng) for _ in range(rng.randrange(4))}
            request["content"] = json_bytes(body)
            request["headers"]["content-type"] = "application/json"
        elif roll < 0.8:
            request["content"] = json_bytes(fuzz_value(rng))
            request["headers"]["content-type"] = "application/json"
        else:
            request["content"] = rng.randbytes(rng.randrange(60))
            request["headers"]["content-type"] = rng.choice(
                ["application/json", "text/plain", "application/x-www-form-urlencoded"])
    if rng.random() < 0.2:
        request["headers"]["accept"] = "text/html"
    if rng.random() < 0.1:
        request["headers"]["authorization"] = "Bearer x" + encoded(fuzz_text(rng), False)
    if rng.random() < 0.1:
        request["headers"]["idempotency-key"] = encoded(fuzz_text(rng), False)[:300]
    return request


async def http_worker(clients: list[httpx.AsyncClient], routes: list[tuple[str, list[str]]],
                      game_ids: list[str], *, rng: random.Random, count: int,
                      tally: Tally) -> None:
    for _ in range(count):
        request = http_request(rng, routes, game_ids)
        client = rng.choice(clients)
        try:
            response = await send_once_more(client, request, tally)
        except httpx.LocalProtocolError:  # a request the client itself will not send
            continue
        except httpx.HTTPError as error:  # the server hung up twice: as bad as a 5xx
            tally.server_errors.append(f"{request['method']} {request['url'][:200]}: {error!r}")
            continue
        tally.statuses[response.status_code] += 1
        if response.status_code >= 500:
            tally.server_errors.append(f"{request['method']} {request['url'][:200]} -> "
                                       f"{response.status_code} {response.text[:200]}")


async def send_once_more(client: httpx.AsyncClient, request: dict[str, Any],
                         tally: Tally) -> httpx.Response:
    """The answer, asking a second time when the connection was closed under the first
    (a kept-alive connection the server closed as it idled, on a loaded machine), as
    browsers do."""
    try:
        return await client.request(**request)
    except (httpx.ReadError, httpx.RemoteProtocolError, httpx.WriteError):
        tally.asked_again += 1
        return await client.request(**request)


async def visitors(base: str) -> tuple[list[httpx.AsyncClient], list[str], dict[str, Any]]:
    """A visitor, a guest, an account and the admin (each its own cookies), and the ids
    of a game waiting and a game in play (with its seats' tokens)."""
    clients = [httpx.AsyncClient(base_url=base, timeout=30) for _ in range(4)]
    visitor, guest, account, admin = clients
    (await guest.put("/api/me", json={"name": "Guest"})).raise_for_status()
    name = f"fuzz{uuid.uuid4().hex[:8]}"
    (await account.post("/api/account", json={"username": name,
                                             "password": "fuzzing is fun, really"})
     ).raise_for_status()
    logged_in = await admin.post("/admin/login",
                                 data={"password": ADMIN_PASSWORD, "next": "/admin"})
    assert logged_in.status_code == 303, logged_in.text
    waiting = (await guest.post("/api/games", json={})).json()
    playing = (await account.post("/api/games", json={})).json()
    joined = (await visitor.post(f"/api/games/{playing['game_id']}/join",
                                 json={"invite_code": playing["invite_code"]})).json()
    game = {"game_id": playing["game_id"], "tokens": [playing["token"], joined["token"]]}
    return clients, [waiting["game_id"], playing["game_id"]], game


# ---------------------------------------------------------------------- sockets

def socket_frame(rng: random.Random, types: tuple[str, ...], game: dict[str, Any]) -> str | bytes:
    roll = rng.random()
    if roll < 0.05:
        return rng.randbytes(rng.randrange(1, 40))
    if roll < 0.1:
        return rng.choice(["", " ", "null", "{}", "[" * 2000 + "]" * 2000,
                           '{"type": "ping"}'.ljust(MESSAGE_LIMIT + 10),
                           '{"type": "sync", "last_version": ' + "9" * 4400 + "}"])
    if roll < 0.2:  # a text frame is UTF-8: no lone surrogate can be sent in one
        return fuzz_text(rng).encode("utf-8", "replace").decode()
    message: dict[str, Any] = {"type": rng.choice(types) if rng.random() < 0.95
                               else fuzz_text(rng)}
    kind = message["type"]
    if kind == "join" and rng.random() < 0.7:
        seat = rng.choice([0, 1])
        message.update(seat=seat, token=game["tokens"][seat] if rng.random() < 0.8
                       else fuzz_text(rng))
    elif kind == "action":
        message.update(action=rng.choice([{"kind": "pick_wonder", "wonder": fuzz_text(rng)},
                                          {"kind": fuzz_text(rng)}, fuzz_text(rng)]),
                       version=rng.choice([0, 1, 2, -1, 10**20]),
                       client_id=fuzz_text(rng)[:80])
    elif kind == "chat":
        message.update(channel=rng.choice(["players", "spectators", fuzz_text(rng)]),
                       text=fuzz_text(rng) if rng.random() < 0.7 else None)
    for _ in range(rng.randrange(3) if rng.random() < 0.3 else 0):
        message[rng.choice(["seat", "token", "last_version", "version", "rated",
                            "phrase", "client_id", fuzz_text(rng)])] = fuzz_value(rng)
    return json.dumps(message)


async def socket_worker(base: str, path: str, types: tuple[str, ...], game: dict[str, Any],
                        *, rng: random.Random, count: int, tally: Tally,
                        cookies: httpx.Cookies | None) -> None:
    url = base.replace("http://", "ws://") + path
    header = "; ".join(f"{k}={v}" for k, v in (cookies or {}).items())
    sent = 0
    while sent < count:
        try:
            async with connect(url, max_size=2**22, open_timeout=30,
                               additional_headers={"cookie": header} if header else None
                               ) as socket:
                reader = asyncio.create_task(drain(socket))
                try:
                    while sent < count:
                        await socket.send(socket_frame(rng, types, game))
                        sent += 1
                        tally.messages += 1
                        if sent % 8 == 0:  # let the answers come back now and then
                            await asyncio.sleep(0)
                finally:
                    reader.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await reader
                # Every message sent has been read and answered once this ping's pong comes.
                await socket.send(json.dumps({"type": "ping"}))
                async with asyncio.timeout(120):
                    async for answer in socket:
                        if isinstance(answer, str) and '"pong"' in answer:
                            tally.read_through += 1
                            break
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else 1006
            tally.closes[code] += 1
            if code == 1011:
                tally.internal_closes.append(f"{path}: {closed}")
        except InvalidStatus as refused:  # refused before the handshake
            status = refused.response.status_code
            tally.statuses[status] += 1
            if status >= 500:
                tally.server_errors.append(f"socket {path}: {status}")
            await asyncio.sleep(0.05)


async def drain(socket: ClientConnection) -> None:
    async for _ in socket:
        pass


# ---------------------------------------------------------------------- the run

async def run(server: Server, args: argparse.Namespace) -> Tally:
    rng = random.Random(args.seed)
    routes = [*_routes(create_app()), ("/ws/games/{game_id}", ["GET"]), ("/ws/lobby", ["GET"])]
    assert any(path in FILE_ROUTES for path, _ in routes)
    clients, game_ids, game = await visitors(server.url)
    tally = Tally()
    workers = args.concurrency
    started = time.monotonic()
    await asyncio.gather(*(
        http_worker(clients, routes, game_ids, rng=random.Random(rng.random()),
                    count=args.requests // workers + (n < args.requests % workers), tally=tally)
        for n in range(workers)))
    http_seconds = time.monotonic() - started
    print(f"HTTP: {sum(tally.statuses.values())} requests in {http_seconds:.0f} s")
    sockets = [(f"/ws/games/{game['game_id']}", CLIENT_TYPES, clients[1].cookies),
               (f"/ws/games/{game['game_id']}", CLIENT_TYPES, clients[2].cookies),
               (f"/ws/games/{game['game_id']}", CLIENT_TYPES, None),
               (f"/ws/games/{game_ids[0]}", CLIENT_TYPES, clients[1].cookies),
               ("/ws/lobby", LOBBY_TYPES, clients[2].cookies),
               ("/ws/lobby", LOBBY_TYPES, None)]
    started = time.monotonic()
    per_socket = args.messages // (2 * len(sockets)) + 1
    await asyncio.gather(*(
        socket_worker(server.url, path, types, game, rng=random.Random(rng.random()),
                      count=per_socket, tally=tally, cookies=cookies)
        for path, types, cookies in sockets for _ in range(2)))
    print(f"sockets: {tally.messages} messages in {time.monotonic() - started:.0f} s")
    for client in clients:
        await client.aclose()
    return tally


TRACEBACK = re.compile(r"Traceback \(most recent call last\)")
ERROR_LINE = re.compile(r'"level": "(error|critical)"|^ERROR|^CRITICAL')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="postgresql")
    parser.add_argument("--database-url", default=DEFAULT_URL,
                        help="the PostgreSQL database (a schema of its own is made in it)")
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--messages", type=int, default=50_000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line a request otherwise
    logs = Path(tempfile.mkdtemp(prefix="duel-fuzz-"))
    schema = ""
    if args.database == "sqlite":
        url = f"sqlite+aiosqlite:///{logs / 'fuzz.db'}"
    else:
        url, schema = args.database_url, f"fuzz_{uuid.uuid4().hex[:8]}"

    if schema:
        run_ddl(url, f'CREATE SCHEMA "{schema}"')
    servers: list[Server] = []
    try:
        migrate(url, schema or None)
        servers = start_servers(1, url, schema, logs, SETTINGS)
        tally = asyncio.run(run(servers[0], args))
    finally:
        stop_servers(servers)
        if schema:
            run_ddl(url, f'DROP SCHEMA "{schema}" CASCADE')
    log = (logs / "server0.log").read_text(errors="replace")
    tracebacks = len(TRACEBACK.findall(log))
    errors = [line for line in log.splitlines() if ERROR_LINE.search(line)]
    fives = sum(n for status, n in tally.statuses.items() if status >= 500)
    print(f"database: {args.database}; answers by status: {dict(sorted(tally.statuses.items()))}")
    print(f"5xx: {fives}; failed requests: {len(tally.server_errors)} (sent again after a "
          f"closed connection: {tally.asked_again}); "
          f"socket messages: {tally.messages}; socket closes by code: {dict(tally.closes)}; "
          f"closed with 1011: {len(tally.internal_closes)}; sockets read to their last "
          f"message: {tally.read_through}")
    print(f"server log {logs / 'server0.log'}: {tracebacks} tracebacks, "
          f"{len(errors)} ERROR lines")
    for line in [*tally.server_errors[:10], *tally.internal_closes[:5], *errors[:5]]:
        print("  ", line[:400])
    if tally.server_errors or tally.internal_closes or tracebacks or errors:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
