"""Errors raised by the engine. A failed call never changes the game."""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every error the engine raises on bad input."""


class MalformedActionError(EngineError, ValueError):
    """The input is not an action at all: bad notation, unknown type, unknown card id."""


class IllegalActionError(EngineError):
    """A well-formed action that the rules do not allow now.

    ``code`` is a stable machine-readable reason (e.g. ``not_accessible``,
    ``cannot_afford``, ``wrong_decision``, ``game_over``); the message says it in words.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
