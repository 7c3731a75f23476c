"""An installed package (``pip install .``) is whole: every file under ``app`` that is not
Python source (data, names in other languages, the pages' catalogs) is named by a
``package-data`` pattern of ``pyproject.toml``, so a new data file cannot be left out of it
unnoticed."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIPPED = {".pyc", ".so", ".mo"}
"""Made at build or run time, never shipped as source."""


def _matches(path: str, glob: str) -> bool:
    """Whether ``path`` matches ``glob`` as setuptools reads it: ``*`` stays within one
    directory."""
    pattern = "".join("[^/]*" if part == "*" else re.escape(part)
                      for part in re.split(r"(\*)", glob))
    return re.fullmatch(pattern, path) is not None


def test_every_data_file_under_app_is_in_the_package_data() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]
    left_out = []
    for path in sorted((ROOT / "app").rglob("*")):
        if not path.is_file() or path.suffix in {".py", *SKIPPED} or "__pycache__" in path.parts:
            continue
        relative = path.relative_to(ROOT)
        covered = any(
            _matches(relative.relative_to(Path(*package.split("."))).as_posix(), glob)
            for package, globs in patterns.items()
            if relative.is_relative_to(Path(*package.split(".")))
            for glob in globs)
        if not covered:
            left_out.append(relative.as_posix())
    assert left_out == []


def test_a_pattern_stays_within_its_directory() -> None:
    assert _matches("data/duel.toml", "data/*.toml")
    assert not _matches("data/names/hu.toml", "data/*.toml")
