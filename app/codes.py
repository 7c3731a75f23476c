"""Every code the server sends a client in place of a sentence, with the params each carries.

The server and the engine say what happened with a stable code and its figures (ids,
seats, coins, limits); a client words it in its own language. The browser looks each one
up in its catalog: ``error.<code>`` for :data:`ERRORS` and :data:`DETAILS`, ``reason.<code>``
for :data:`REASONS` (``static/js/words/en-server.js`` holds the English, and a test checks
that it has an entry for every code here). An error also keeps an English ``message`` for
logs and for people reading the API by hand; no page shows it.

Every refusal is built through :func:`error_params`, which refuses a code or a param not
listed here: a new refusal is a line in this table, and then a catalog entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from app.engine.errors import ILLEGAL_CODES, OPTION_REASONS

_ENGINE_PARAMS: Final = tuple(sorted({name for names in ILLEGAL_CODES.values()
                                      for name in names}))
"""The figures an engine refusal may carry, passed on with its code as ``detail``."""

ERRORS: Final[dict[str, tuple[str, ...]]] = {
    # Reading a socket message (game and lobby sockets).
    "malformed": ("field",),  # field: where a field fails validation ("action", "seat", ...)
    "unknown_type": (),
    "too_large": ("limit",),  # limit: the largest message or body, in bytes
    # The game socket's own rules.
    "not_joined": (),
    "already_joined": (),
    "spectator": (),
    "timeout": ("cause",),  # cause: "silence" (nothing heard for too long) or "join"
    "too_slow": ("limit",),  # limit: messages that may wait for a client
    # Storage, and a server too busy to take a move now.
    "unavailable": (),
    "busy": ("retry_after",),  # retry_after: seconds to wait before sending it again
    # Games: creating, joining, credentials.
    "not_found": (),
    "bad_invite": ("cause",),  # cause: "missing" (no code for an unlisted game) or "wrong"
    # status: "aborted", "cancelled" (by its creator), "expired" or "imported"
    "not_joinable": ("status",),
    "game_full": (),
    "key_reused": (),  # an Idempotency-Key another request (another player's) used
    # Limits (docs/security.md): limit is the number allowed, retry_after seconds to wait.
    "too_many_games": ("limit", "retry_after"),
    "too_many_joins": ("limit", "retry_after"),
    "too_many_sockets": ("cause", "limit"),  # cause: "address" (the one limit so far)
    "too_many_spectators": ("limit",),
    "too_fast": ("limit", "retry_after"),  # limit: messages per second a socket may send
    "own_game": (),
    "bad_credentials": (),
    # Players and names.
    "no_player": (),
    # Accounts.
    "bad_username": (),  # not 3 to 24 letters, digits, - or _
    "username_taken": (),
    # cause: "short" (min), "long" (max) or "common" (too easy to guess: a common password,
    # a repeat, a keyboard pattern, the username)
    "weak_password": ("cause", "min", "max"),
    "already_registered": (),
    "bad_login": (),  # an unknown username or a wrong password: one answer for both
    "not_registered": (),
    "too_many_accounts": ("limit", "retry_after"),
    "session_ended": (),  # the account logged out everywhere, or changed its password
    "rated_needs_account": (),  # a rated game is between two logged-in accounts
    "bad_name": ("cause", "max"),  # cause: "blank", "too_long" (max: characters), "control"
    # Acting.
    "client_id_reused": (),
    "not_started": (),
    "aborted": (),
    "abort_too_late": (),  # both seats have made a decision: resign instead
    "abort_instead": (),  # a resignation or claim before both decided: abort instead
    "expired": (),
    "imported": (),
    "game_over": (),
    "stale_version": ("version", "sent"),  # the game's version, and the one the action named
    "not_your_turn": ("to_act", "seat"),  # to_act: the seat to act; seat: the one that tried
    "no_take_back": (),  # none on offer from the other seat (or the game moved on)
    "time_out": ("seat",),  # seat: the one whose time ran out (the game ended on time)
    # cause: "present" (the opponent is connected), "recent" (wait: seconds until the win
    # may be claimed) or "correspondence" (such a game ends by its clock)
    "not_abandoned": ("cause", "wait"),  # cause: present, correspondence, recent, computer
    "unknown_level": ("levels",),  # levels: the computer's levels (app.bots.LEVELS)
    "computer_declines": (),  # a take-back asked of the computer
    # Chat.
    "chat_empty": (),
    "chat_too_long": ("max",),  # max: characters
    "chat_too_fast": ("retry_after",),  # retry_after: seconds before the next may go
    "chat_not_yours": ("channel",),  # channel: the one written to (players or spectators)
    "illegal": ("detail", *_ENGINE_PARAMS),  # detail: the engine's code (DETAILS), its figures
    # Rematches.
    "not_over": (),
    "no_offer": (),
    "rematch_started": (),
    # HTTP in general.
    "invalid_request": ("field",),  # field: the first field that fails validation
    "method_not_allowed": (),
    # A NUL or control character in the address (cause "control"), or a path or one of its
    # segments over max bytes (cause "too_long"): app/api/paths.py.
    "bad_address": ("cause", "max"),
    "http_error": ("http_status",),
    # The admin pages and their API.
    "admin_disabled": (),
    "admin_required": (),
    "too_many_attempts": ("wait",),  # wait: seconds until a login may be tried again
    "bad_password": (),
    "json_required": (),
    "bad_json": (),
    "bad_request": (),
    "bad_filter": ("field",),  # field: the query parameter at fault
    "bad_seq": ("max",),  # max: the last position there is
    "bad_reason": ("cause", "max"),  # cause: "not_text", "length" (1 to max), "control"
    "not_running": ("status",),  # status: the game's ("finished", "aborted", "imported")
    "bad_record": ("field", "seq"),  # field: the record's field at fault; seq: the action
    "wrong_engine_version": ("version", "expected"),  # the record's (if text), the server's
    "illegal_action": ("seq", "detail", *_ENGINE_PARAMS),  # as "illegal", at action seq
    "hash_mismatch": (),
    "replay_failed": ("seq",),
}
"""Each error ``code`` the server may send (HTTP ``{"error": {...}}``, socket
``{"type": "error", ...}``), with the names of the ``params`` it may carry."""

DETAILS: Final[dict[str, tuple[str, ...]]] = dict(ILLEGAL_CODES)
"""The engine's refusal codes, sent as ``detail`` (and ``params.detail``) of ``illegal``
and ``illegal_action``, with their figures beside it in ``params``."""

REASONS: Final[dict[str, tuple[str, ...]]] = dict(OPTION_REASONS)
"""Why a card option of a view is not allowed (``reason``), with the figures beside it."""


def error_params(code: str, params: Mapping[str, Any] | None = None,
                 detail: str | None = None) -> dict[str, Any]:
    """The ``params`` of an error ``code``: ``params``, with ``detail`` (an engine code)
    among them when given. A code or a param that :data:`ERRORS` does not list is a bug:
    ``ValueError``."""
    out = {**({"detail": detail} if detail is not None else {}), **(params or {})}
    allowed = ERRORS.get(code)
    if allowed is None or not set(out) <= set(allowed):
        raise ValueError(f"unregistered error {code!r} with params {sorted(out)}")
    if detail is not None and detail not in DETAILS:
        raise ValueError(f"unregistered detail {detail!r}")
    return out
