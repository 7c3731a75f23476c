"""JSON text from clients, read into values the server can store and send back."""

from __future__ import annotations

import json
import re
from typing import Any

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
"""A UTF-16 surrogate written as an escape: the only way JSON text can carry a lone one."""


class LoneSurrogateError(ValueError):
    """A string holds half of a UTF-16 surrogate pair: no UTF-8 encoder or database
    takes it, so nothing that holds one is accepted."""


def loads(text: str | bytes) -> Any:
    """``json.loads``; raises ``ValueError`` as it does, and :class:`LoneSurrogateError`
    for a string holding an unpaired surrogate such as ``"\\ud800"``."""
    if isinstance(text, bytes):
        text = text.decode()  # a UnicodeDecodeError is a ValueError too
    value = json.loads(text)
    # Escaped pairs are joined by the decoder; only when an escape is there can one be
    # left alone, so the full check runs only then.
    if _SURROGATE_ESCAPE.search(text):
        try:
            json.dumps(value, ensure_ascii=False).encode()
        except UnicodeEncodeError:
            raise LoneSurrogateError("a string holds a lone UTF-16 surrogate") from None
    return value
