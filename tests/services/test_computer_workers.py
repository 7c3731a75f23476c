"""The computer's worker processes (app/services/computer.py, app/bots/worker.py) do not
outlive their server: a server killed outright (kill -9) cannot shut its pools down, and
its workers end by themselves instead of waiting for work for ever."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_SERVER = """
import asyncio, os, sys
from app.services.computer import Thinkers

thinkers = Thinkers(1)
worker = asyncio.run(thinkers.move(os.getpid))  # the worker that ran the call
print(worker, flush=True)
sys.stdin.read()  # until killed
"""


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (not gone, not a zombie left unreaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def test_a_killed_server_leaves_no_worker_behind() -> None:
    server = subprocess.Popen([sys.executable, "-c", _SERVER], cwd=ROOT, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert server.stdout is not None
        worker = int(server.stdout.readline())
        assert worker != server.pid and _running(worker)
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
        deadline = time.monotonic() + 60  # bounds a failure's wait: the worker looks each second
        while _running(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _running(worker), "the worker outlived its server"
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
