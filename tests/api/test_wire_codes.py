"""Every code the server sends in place of a sentence has its English in the browser's
catalog, and no refusal goes out with a code (or a param) that ``app/codes.py`` does not list.

The registry is the one list: ``ERRORS`` (with the engine's ``DETAILS``) for refusals,
``REASONS`` for card options. ``error_params`` refuses anything else at run time; the scan
below finds the literal codes of every refusal in the source, so that one raised only on a
rare path is checked too.
"""

from __future__ import annotations

import ast
import itertools
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from app.api.catalog import EFFECT_KINDS
from app.codes import DETAILS, ERRORS, REASONS, error_params
from app.engine.errors import ILLEGAL_CODES, OPTION_REASONS, IllegalActionError

ROOT = Path(__file__).resolve().parents[2]
WORDS = ROOT / "static" / "js" / "words"
SERVER_WORDS = WORDS / "en-server.js"
APP = ROOT / "app"

_KEY = re.compile(r'^\s*"((?:error|reason|effect)\.[a-z_+]+)"\s*:', re.MULTILINE)

STATUS_FIRST = {"_error", "refusal_response"}
REFUSERS = {"ServiceError", "ProtocolError", "error_message", "_illegal",
            "IllegalActionError", *STATUS_FIRST}
"""Calls whose first argument (after the status, for :data:`STATUS_FIRST`) is an error
code."""
NOT_LITERAL = {"imported", "expired", "method_not_allowed"}
"""Codes sent but never written as a refuser's argument: ``imported`` and ``expired`` are
raised as a game's status (``ServiceError(row.status, ...)``), ``method_not_allowed`` is
HTTP's 405 named in ``app.main``."""
NOT_SERVED = ("app/classic/",)
"""Engines no route, socket or service uses yet (the 3-to-7-player game's, until issue 34
serves it): their refusal codes reach no client, so no catalog words them yet.
``test_an_engine_left_out_of_the_scan_is_not_served`` fails once one is."""


def catalog_keys(path: Path) -> set[str]:
    return set(_KEY.findall(path.read_text()))


def literal_codes() -> dict[str, list[str]]:
    """Each literal code passed to a refuser anywhere under ``app/``, with where."""
    found: dict[str, list[str]] = {}
    for path in sorted(APP.rglob("*.py")):
        if path.relative_to(ROOT).as_posix().startswith(NOT_SERVED):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else \
                func.attr if isinstance(func, ast.Attribute) else None
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            for keyword in node.keywords:  # a code handed on to a refuser: code="..."
                if keyword.arg == "code" and isinstance(keyword.value, ast.Constant) \
                        and isinstance(keyword.value.value, str):
                    found.setdefault(keyword.value.value, []).append(where)
            if name not in REFUSERS:
                continue
            args = node.args[1:] if name in STATUS_FIRST else node.args  # (status, code
            if args and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
                found.setdefault(args[0].value, []).append(where)
    return found


def test_every_error_code_has_its_english() -> None:
    keys = catalog_keys(SERVER_WORDS)
    missing = sorted(f"error.{code}" for code in [*ERRORS, *DETAILS]
                     if f"error.{code}" not in keys)
    assert not missing, f"{SERVER_WORDS.name} has no entry for {missing}"


def test_every_card_option_reason_has_its_english() -> None:
    keys = catalog_keys(SERVER_WORDS)
    missing = sorted(f"reason.{code}" for code in REASONS if f"reason.{code}" not in keys)
    assert not missing, f"{SERVER_WORDS.name} has no entry for {missing}"


def test_the_catalog_words_no_code_the_server_never_sends() -> None:
    known = {f"error.{code}" for code in [*ERRORS, *DETAILS]} | {
        f"reason.{code}" for code in REASONS}
    stale = sorted(catalog_keys(SERVER_WORDS) - known)
    assert not stale, f"{SERVER_WORDS.name} words codes nothing sends: {stale}"


def test_every_effect_kind_is_worded_by_the_page() -> None:
    """The catalog sends effects as kinds and figures only: a page needs words for each."""
    keys = set().union(*(catalog_keys(path) for path in WORDS.glob("en*.js")))
    missing = sorted(f"effect.{kind}" for kind in EFFECT_KINDS if f"effect.{kind}" not in keys)
    assert not missing, f"static/js/words/en*.js have no entry for {missing}"


def test_every_literal_refusal_code_is_registered() -> None:
    found = literal_codes()
    assert "not_your_turn" in found and "wonder_cap" in found, "the scan sees the refusals"
    unknown = {code: where for code, where in found.items()
               if code not in ERRORS and code not in DETAILS}
    assert not unknown, f"refusal codes missing from app/codes.py: {unknown}"
    engine = {code for code, where in found.items()
              if any(w.startswith("app/engine/") for w in where)}
    assert engine == set(ILLEGAL_CODES), "the engine's refusals are its ILLEGAL_CODES"


def test_every_registered_code_is_sent_somewhere() -> None:
    found = set(literal_codes()) | NOT_LITERAL
    unused = sorted(set(ERRORS) - found)
    assert not unused, f"app/codes.py lists codes nothing sends: {unused}"


def test_a_refusal_with_an_unregistered_code_or_param_is_a_bug() -> None:
    assert error_params("illegal", {"price": 7, "coins": 3}, detail="cannot_afford") == {
        "detail": "cannot_afford", "price": 7, "coins": 3}
    assert error_params("game_full") == {}
    with pytest.raises(ValueError, match="unregistered"):
        error_params("no_such_code")
    with pytest.raises(ValueError, match="unregistered"):
        error_params("game_full", {"seat": 1})
    with pytest.raises(ValueError, match="unregistered"):
        error_params("illegal", detail="no_such_detail")
    with pytest.raises(ValueError, match="unregistered"):
        IllegalActionError("cannot_afford", "x", colour="blue")
    assert REASONS == OPTION_REASONS


# ---------------------------------------------------------------------------- the English
SAMPLES: dict[str, list[Any]] = {
    "field": ["seed"], "limit": [16384, 1], "version": [12], "sent": [11], "to_act": [1],
    "seat": [0], "http_status": [418], "wait": [1, 287], "max": [40], "min": [8], "seq": [5],
    "retry_after": [1],
    "status": ["aborted", "expired", "imported", "finished"], "expected": ["1"],
    "price": [7, 1], "coins": [1, 3], "cap": [7], "card": ["tavern"],
    "wonder": ["the_sphinx"], "token": ["law"], "action": ["build"],
    "decision": ["pick_wonder", "choose_starter"], "named": [1],
    "channel": ["players", "spectators"], "levels": [["random", "hard"]],
}
CAUSES = {"timeout": ["silence", "join"], "bad_invite": ["missing", "wrong"],
          "bad_name": ["blank", "too_long", "control"],
          "bad_reason": ["not_text", "length", "control"],
          "not_abandoned": ["present", "recent", "correspondence", "computer"],
          "too_many_sockets": ["address"], "weak_password": ["short", "long", "common"],
          "bad_address": ["control", "too_long"]}
VERSIONS = {"wrong_engine_version": ["0"]}
SOMETIMES = [("malformed", {}), ("bad_record", {}), ("bad_record", {"field": "seed"}),
             ("stale_version", {"sent": 11}), ("wrong_engine_version", {"expected": "1"}),
             ("not_abandoned", {"cause": "present"}),
             ("not_abandoned", {"cause": "correspondence"}),
             ("not_abandoned", {"cause": "computer"})]
"""Refusals sent without some of their params (where the server has no such figure)."""


def sample_params(code: str, names: tuple[str, ...]) -> list[dict[str, Any]]:
    """Params as the server sends them: each name with each of its sample values."""
    choices = {name: CAUSES[code] if name == "cause" else VERSIONS.get(code, SAMPLES[name])
               if name == "version" else SAMPLES[name] for name in names}
    return [dict(zip(choices, values, strict=True))
            for values in itertools.product(*choices.values())]


def cases() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for code, names in ERRORS.items():
        if "detail" in names:  # an illegal move: as the engine refuses it
            for detail, figures in DETAILS.items():
                for params in sample_params(detail, figures):
                    extra = {"seq": 5} if code == "illegal_action" else {}
                    out.append({"key": f"error.{code}",
                                "params": {"detail": detail, **params, **extra}})
            continue
        out += [{"key": f"error.{code}", "params": p} for p in sample_params(code, names)]
    out += [{"key": f"error.{code}", "params": params} for code, params in SOMETIMES]
    for code, names in DETAILS.items():
        out += [{"key": f"error.{code}", "params": p} for p in sample_params(code, names)]
    for code, names in REASONS.items():
        out += [{"key": f"reason.{code}", "params": p} for p in sample_params(code, names)]
    return out


_RUN = """
import catalog from %s;
const fill = (text, params) => text.replace(/\\{(\\w+)\\}/g, (whole, name) =>
  name in params ? String(params[name]) : whole);
const t = (code, params = {}) => {
  const entry = catalog[code];
  if (entry === undefined) return code;
  return typeof entry === "function" ? entry(params, t) : fill(entry, params);
};
const cases = JSON.parse(process.argv[1]);
console.log(JSON.stringify(cases.map(({ key, params }) => t(key, params))));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run the catalog")
def test_the_english_is_whole_sentences_for_every_code_and_figure() -> None:
    """Every entry, with every kind of figure its code carries, gives a finished sentence:
    no placeholder left, nothing undefined, no code shown for want of an entry."""
    every = cases()
    script = _RUN % json.dumps(SERVER_WORDS.as_uri())
    done = subprocess.run(["node", "--input-type=module", "-e", script, json.dumps(every)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    texts = json.loads(done.stdout)
    bad = [(case, text) for case, text in zip(every, texts, strict=True)
           if not re.fullmatch(r"[A-Z+“].*[.!]", text)
           or re.search(r"undefined|NaN|null|\{|error\.|reason\.", text)]
    assert not bad, bad
    # The figures are in the words.
    worded = dict(zip((json.dumps(c, sort_keys=True) for c in every), texts, strict=True))
    afford = {"key": "reason.cannot_afford", "params": {"price": 7, "coins": 1}}
    assert worded[json.dumps(afford, sort_keys=True)] == "It costs 7 coins; you have 1 coin."
    illegal = {"key": "error.illegal",
               "params": {"detail": "cannot_afford", "price": 7, "coins": 3, "card": "tavern",
                          "wonder": "the_sphinx", "seat": 0}}
    assert "7 coins" in worded[json.dumps(illegal, sort_keys=True)]


def test_an_engine_left_out_of_the_scan_is_not_served() -> None:
    """The scan may leave out only an engine nothing on the way to a client imports: once a
    service, a socket or a route uses it, its codes must be registered and worded."""
    served = ("app/api/", "app/realtime/", "app/services/", "app/codes.py", "app/main.py")
    modules = {part.removesuffix("/").replace("/", ".") for part in NOT_SERVED}
    users = [f"{path.relative_to(ROOT)} imports {node.module}"
             for path in sorted(APP.rglob("*.py"))
             if path.relative_to(ROOT).as_posix().startswith(served)
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.ImportFrom) and node.module
             and node.module.startswith(tuple(modules))]
    assert users == [], "register its codes in app/codes.py and drop it from NOT_SERVED"
