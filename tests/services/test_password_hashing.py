"""The passwords' hashes as production makes them: argon2id at no less than OWASP's
minimum cost (19 MiB of memory, two passes), so that a stolen hash is slow to guess.

The applications the tests build in this process hash at argon2's cheapest
(tests/conftest.py); this module's import, made at collection before any fixture, keeps
the hasher production uses."""

from __future__ import annotations

import re

from app.services.accounts import _hasher as production_hasher
from tests.conftest import QUICK_HASHER

ARGON2 = re.compile(r"\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$")


def test_production_hashes_with_argon2id_at_owasps_cost_at_least() -> None:
    hasher = production_hasher()
    assert hasher is not QUICK_HASHER
    hashed = hasher.hash("a long secret")
    found = ARGON2.match(hashed)
    assert found, hashed
    memory_kib, passes, _lanes = (int(group) for group in found.groups())
    assert memory_kib >= 19 * 1024 and passes >= 2
    assert hasher.verify("a long secret", hashed)
    assert not hasher.verify("another secret", hashed)
