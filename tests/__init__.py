"""The test suite.

The compiled run (``make pytest-compiled``) puts the mypyc build of the engine first on
PYTHONPATH, but pytest then puts the source tree first on ``sys.path``, and the build holds
only ``app.engine``. So the engine is taken from the build here, before anything imports
it, while the rest of ``app`` (the server) stays the source. tests/engine/test_build.py
checks that the compiled run really runs the compiled engine.
"""

import os
from pathlib import Path

import app

_SOURCE = Path(app.__path__[0]).resolve()
for _entry in reversed(os.environ.get("PYTHONPATH", "").split(os.pathsep)):
    _built = Path(_entry or ".", "app").resolve()
    if _entry and _built != _SOURCE and (_built / "engine").is_dir():
        app.__path__.insert(0, str(_built))
