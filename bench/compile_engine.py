"""Compile the engine with mypyc into ``build/mypyc`` (the source tree stays pure Python).

    python bench/compile_engine.py        # prints the directory to put first on sys.path

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


def _fingerprint() -> str:
    digest = hashlib.sha256(sys.version.encode())
    digest.update(Path(__file__).read_bytes())  # what is compiled, and how
    for path in sorted(SOURCE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(SOURCE)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def build() -> Path:
    """Compile if needed; returns the directory holding the compiled ``app`` package."""
    stamp = BUILD / "fingerprint"
    fingerprint = _fingerprint()
    if stamp.is_file() and stamp.read_text() == fingerprint:
        return BUILD
    shutil.rmtree(BUILD, ignore_errors=True)
    (BUILD / "app").mkdir(parents=True)
    shutil.copy(ROOT / "app" / "__init__.py", BUILD / "app" / "__init__.py")
    shutil.copytree(SOURCE, BUILD / "app" / "engine",
                    ignore=shutil.ignore_patterns("__pycache__"))
    modules = sorted(str(p.relative_to(BUILD)) for p in (BUILD / "app" / "engine").glob("*.py")
                     if p.name not in NOT_COMPILED)
    subprocess.run([sys.executable, "-m", "mypyc", *modules], cwd=BUILD, check=True,
                   stdout=subprocess.DEVNULL)
    stamp.write_text(fingerprint)
    return BUILD


if __name__ == "__main__":
    print(build())
