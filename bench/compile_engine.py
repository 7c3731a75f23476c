"""Compile the engine with mypyc into ``build/mypyc`` (the source tree stays pure Python).

    python bench/compile_engine.py        # prints the directory to put first on sys.path

``build(source, out)`` compiles another copy of the engine (``bench/engine.py --against``
builds an earlier revision's this way).

mypyc (part of mypy) compiles the same ``mypy --strict`` source into C extension modules
for CPython. The build is skipped when the sources have not changed since the last one.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "app" / "engine"
BUILD = ROOT / "build" / "mypyc"
NOT_COMPILED = {"__init__.py", "play.py", "replay.py", "scenario.py"}
"""The package's front door, the terminal demo and replay and the positions arranged for
tests gain nothing from compiling."""


def _fingerprint(source: Path) -> str:
    digest = hashlib.sha256(sys.version.encode())
    digest.update(Path(__file__).read_bytes())  # what is compiled, and how
    for path in sorted(source.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(source)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def build(source: Path = SOURCE, out: Path = BUILD) -> Path:
    """Compile the engine package at ``source`` (an ``app/engine`` directory) into ``out``
    if needed; returns ``out``, the directory holding the compiled ``app`` package."""
    stamp = out / "fingerprint"
    fingerprint = _fingerprint(source)
    if stamp.is_file() and stamp.read_text() == fingerprint:
        return out
    shutil.rmtree(out, ignore_errors=True)
    (out / "app").mkdir(parents=True)
    shutil.copy(source.parent / "__init__.py", out / "app" / "__init__.py")
    shutil.copytree(source, out / "app" / "engine",
                    ignore=shutil.ignore_patterns("__pycache__"))
    modules = sorted(str(p.relative_to(out)) for p in (out / "app" / "engine").glob("*.py")
                     if p.name not in NOT_COMPILED)
    subprocess.run([sys.executable, "-m", "mypyc", *modules], cwd=out, check=True,
                   stdout=subprocess.DEVNULL)
    stamp.write_text(fingerprint)
    return out


if __name__ == "__main__":
    print(build())
