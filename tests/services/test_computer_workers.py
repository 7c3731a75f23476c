"""The computer's worker processes (app/services/computer.py, app/bots/worker.py) do not
outlive their server: a server killed outright (kill -9) cannot shut its pools down, and
its workers end by themselves instead of waiting for work for ever, whether the server was
killed while they worked or while they were still starting."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

_SERVER = """
import asyncio, os, sys
from app.services.computer import Thinkers

thinkers = Thinkers(1)
if sys.argv[1] == "at_work":
    asyncio.run(thinkers.move(os.getpid))  # the worker has started and run a call
else:
    thinkers._pools["moves"].submit(os.getpid)  # the worker is spawned, not started yet
print("ready", flush=True)
sys.stdin.read()  # until killed
"""


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (not gone, not a zombie left unreaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
    return found


@pytest.mark.parametrize("when", ["at_work", "starting"])
def test_a_killed_server_leaves_no_worker_behind(when: str) -> None:
    server = subprocess.Popen([sys.executable, "-c", _SERVER, when], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    left: list[int] = []
    try:
        assert server.stdout is not None and server.stdout.readline() == "ready\n"
        left = _children(server.pid)  # its worker (and multiprocessing's resource tracker)
        assert left
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
        deadline = time.monotonic() + 60  # bounds a failure's wait
        while any(map(_running, left)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in left if _running(pid)], "processes outlived their server"
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        for pid in left:  # a failure leaves none behind either
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
