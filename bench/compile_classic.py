"""Compile the classic engine with mypyc into ``build/mypyc-classic`` (the source tree stays
pure Python), for ``bench/classic.py --compiled``.

    python bench/compile_classic.py       # prints the directory to put first on sys.path

The build holds the whole ``app.classic`` package, its hot modules compiled, and a pure copy
of ``app.engine`` (Duel's engine, and the generator the classic engine shares), so that
Duel's figures in the same run are those of its pure build. Skipped when the sources have
not changed since the last build.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "app" / "classic"
BUILD = ROOT / "build" / "mypyc-classic"
COMPILED = ("actions.py", "cards.py", "effects.py", "errors.py", "game.py", "scoring.py",
            "state.py", "trade.py")
"""The modules a game runs through; the rest (events, views, records, scenarios) are read
as they are."""


def _fingerprint() -> str:
    digest = hashlib.sha256(sys.version.encode())
    digest.update(Path(__file__).read_bytes())
    for source in (SOURCE, ROOT / "app" / "engine"):
        for path in sorted(source.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(ROOT)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def build(out: Path = BUILD) -> Path:
    """Compile into ``out`` if needed; returns ``out`` (it holds the ``app`` package)."""
    stamp = out / "fingerprint"
    fingerprint = _fingerprint()
    if stamp.is_file() and stamp.read_text() == fingerprint:
        return out
    shutil.rmtree(out, ignore_errors=True)
    (out / "app").mkdir(parents=True)
    shutil.copy(ROOT / "app" / "__init__.py", out / "app" / "__init__.py")
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(SOURCE, out / "app" / "classic", ignore=ignore)
    shutil.copytree(ROOT / "app" / "engine", out / "app" / "engine", ignore=ignore)
    modules = [f"app/classic/{name}" for name in COMPILED]
    subprocess.run([sys.executable, "-m", "mypyc", *modules], cwd=out, check=True,
                   stdout=subprocess.DEVNULL)
    stamp.write_text(fingerprint)
    return out


if __name__ == "__main__":
    print(build())
