"""Shared fixtures and paths."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"
IN_CI = os.environ.get("CI", "").lower() == "true"


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    """``../shared/reference``: skipped locally when absent, required under CI=true."""
    path = SHARED / "reference"
    if not path.is_dir():
        if IN_CI:
            pytest.fail(f"{path} is required when CI=true")
        pytest.skip("../shared/reference is not present")
    return path
