"""Every word the browser shows goes through ``t(code, params)`` and the catalog
(``static/js/words.js``, ``static/js/words/en.js``): each code a script asks for has its
English, each entry of the catalog is asked for somewhere, and each renders whole.

One Node process reads the catalog (an ES module) and renders every entry with sample
params; the scripts under ``static/js`` are scanned for their ``t(...)`` calls:

- ``t("code")`` / ``t('code')``: the code must be a key of the catalog;
- ``t(`prefix.${x}`)``: some key must start with ``prefix.``.

A key is used when a script (other than the catalogs) holds it as a quoted string, or a
template literal's fixed start (``ask.`` of ```ask.${kind}```) begins it. The ``error.*``
and ``reason.*`` entries word the server's codes (``tests/api/test_wire_codes.py`` checks
those against ``app/codes.py``), and ``effect.*`` the catalog's effect kinds: they are
reached through such codes, so they are not looked for here.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from app.api.catalog import catalog as game_catalog
from app.api.pages import scripts_of

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "static" / "js"
WORDS = JS / "words"

DYNAMIC = ("error.", "reason.", "effect.")
"""Key prefixes reached through codes the server sends, not written in the scripts."""

_LITERAL_CALL = re.compile(r"""\bt\(\s*(?:"([^"\\\n]*)"|'([^'\\\n]*)'|`([^`$\\]*)`)""")
_TEMPLATE_CALL = re.compile(r"\bt\(\s*`([^`$\\]*)\$\{")
_TEMPLATE_HEAD = re.compile(r"`([a-z][a-z0-9_+]*(?:\.[a-z0-9_+]*)+)\$\{")
_FORBIDDEN = re.compile(r"undefined|NaN|\[object|\{")

# Reads the catalog, then renders each entry through the page's own t() with n = 1 and
# n = 2: a string or plural form gets a value for each of its {placeholders}; a function
# (whose params cannot be read off) gets a value for any param it asks for.
_SCRIPT = """
import shared from "./js/words/en.js";
import panels from "./js/words/en-panels.js";
import lobby from "./js/words/en-lobby.js";
import admin from "./js/words/en-admin.js";
import clocks from "./js/words/en-clocks.js";
import analysis from "./js/words/en-analysis.js";
import { addMessages, t } from "./js/words.js";

const catalog = { ...shared, ...panels, ...lobby, ...admin, ...clocks, ...analysis };
addMessages(panels);
addMessages(lobby);
addMessages(admin);
addMessages(clocks);
addMessages(analysis);

const placeholders = (entry) => {
  const texts = typeof entry === "string" ? [entry]
    : entry && typeof entry === "object" ? Object.values(entry) : [];
  const names = new Set();
  for (const text of texts) {
    for (const match of String(text).matchAll(/\\{(\\w+)\\}/g)) names.add(match[1]);
  }
  return [...names];
};

const anyParam = (n) => new Proxy({}, {
  get: (target, name) => (typeof name === "symbol" ? undefined : n),
  has: () => true,
  ownKeys: () => [],
});

const kinds = {};
const renders = [];
for (const [key, entry] of Object.entries(catalog)) {
  kinds[key] = typeof entry === "function" ? "function"
    : typeof entry === "object" && entry !== null ? "plural" : typeof entry;
  for (const n of [1, 2]) {
    let params;
    if (typeof entry === "function") {
      params = anyParam(n);
    } else {
      params = { n };
      for (const name of placeholders(entry)) if (name !== "n") params[name] = `<${name}>`;
    }
    let text;
    try {
      text = String(t(key, params));
    } catch (error) {
      text = `threw ${error}`;
    }
    renders.push({ key, n, text });
  }
}
console.log(JSON.stringify({ kinds, renders }));
"""


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        message = "needs Node.js to read the browser's catalog"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return node


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The catalog's keys (with the kind of each entry) and every entry rendered.

    words.js and the catalogs are copied beside a package.json that makes ``.js`` an ES
    module, so that any Node reads them as the browser does."""
    node = _node()
    work = tmp_path_factory.mktemp("words")
    (work / "package.json").write_text('{"type": "module"}')
    shutil.copytree(WORDS, work / "js" / "words")
    shutil.copy(JS / "words.js", work / "js" / "words.js")
    (work / "run.js").write_text(_SCRIPT)
    done = subprocess.run([node, str(work / "run.js")], capture_output=True, text=True,
                          timeout=60, check=False, cwd=work)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _scripts() -> list[Path]:
    return sorted(path for path in JS.rglob("*.js") if path.is_file())


def _is_catalog(path: Path) -> bool:
    return path.parent == WORDS


def _where(path: Path, text: str, offset: int) -> str:
    return f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, offset) + 1}"


def _defined_at(key: str) -> str:
    """Where a catalog defines a key (its file and line)."""
    entry = re.compile(rf'^\s*"{re.escape(key)}"\s*:', re.MULTILINE)
    for path in sorted(WORDS.glob("*.js")):
        text = path.read_text()
        found = entry.search(text)
        if found:
            return _where(path, text, found.start())
    return "?"


def _calls() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Every t() call's literal code and template prefix, each with where it is."""
    literals: list[tuple[str, str]] = []
    prefixes: list[tuple[str, str]] = []
    for path in _scripts():
        text = path.read_text()
        for match in _LITERAL_CALL.finditer(text):
            code = next(group for group in match.groups() if group is not None)
            literals.append((code, _where(path, text, match.start())))
        for match in _TEMPLATE_CALL.finditer(text):
            prefixes.append((match.group(1), _where(path, text, match.start())))
    return literals, prefixes


def test_the_scan_finds_the_calls(catalog: dict[str, Any]) -> None:
    literals, prefixes = _calls()
    codes = {code for code, _ in literals}
    assert {"turn.connecting", "lobby.queue.left", "admin.import.done"} <= codes
    assert {"ask.", "error."} <= {prefix for prefix, _ in prefixes}
    assert len(catalog["kinds"]) > 400


def test_every_code_a_script_asks_for_has_its_english(catalog: dict[str, Any]) -> None:
    keys = set(catalog["kinds"])
    literals, prefixes = _calls()
    missing = sorted({(code, where) for code, where in literals if code not in keys})
    assert not missing, f"t() asks for codes the catalog lacks: {missing}"
    no_prefix = sorted({(prefix, where) for prefix, where in prefixes
                        if not any(key.startswith(prefix) for key in keys)})
    assert not no_prefix, f"t() asks for codes no catalog key starts with: {no_prefix}"


def test_every_entry_is_used_by_a_script(catalog: dict[str, Any]) -> None:
    quoted: set[str] = set()
    heads: set[str] = set()
    for path in _scripts():
        text = path.read_text()
        if not _is_catalog(path):  # a catalog names each of its keys
            quoted.update(re.findall(r"""["'`]([A-Za-z0-9_.+\-]+)["'`]""", text))
            heads.update(_TEMPLATE_HEAD.findall(text))
    literals, prefixes = _calls()  # a catalog's entry may ask for another
    quoted.update(code for code, _ in literals)
    heads.update(prefix for prefix, _ in prefixes)
    unused = sorted((key, _defined_at(key)) for key in catalog["kinds"]
                    if not key.startswith(DYNAMIC) and key not in quoted
                    and not any(key.startswith(head) for head in heads))
    assert not unused, f"catalog entries no script uses: {unused}"


def test_every_entry_renders_whole(catalog: dict[str, Any]) -> None:
    bad = [(render["key"], render["n"], render["text"]) for render in catalog["renders"]
           if render["text"].startswith("threw ") or _FORBIDDEN.search(render["text"])]
    assert not bad, f"entries that do not render whole: {bad}"


def test_every_name_the_page_builds_from_the_game_data_has_its_english(
        catalog: dict[str, Any]) -> None:
    """Chain symbols, resources, science symbols and card colours reach the page as ids
    (the catalog, the views) and are worded by t(`chain.${id}`) and the like."""
    keys = set(catalog["kinds"])
    data = game_catalog()
    wanted = {f"chain.{card[end]}" for card in data["cards"].values()
              for end in ("chain_from", "chain_to") if card[end]}
    wanted |= {f"resource.{name}" for name in data["resources"]}
    wanted |= {f"science.{name}" for name in data["science_symbols"]}
    wanted |= {f"color.{card['color']}" for card in data["cards"].values()}
    wanted |= {f"color_kind.{card['color']}" for card in data["cards"].values()}
    assert sorted(wanted - keys) == []


PANEL_WORDS = WORDS / "en-panels.js"
PANEL_SCRIPTS = {JS / "table" / name
                 for name in ("dialogs.js", "end.js", "chat.js", "asks.js", "invite.js")}
"""The game page fetches en-panels.js with these modules only (static/js/table/table.js)."""


def test_the_words_fetched_with_the_dialogs_are_asked_for_by_them_alone() -> None:
    """A code of en-panels.js asked for by a module drawn before the dialogs or the result
    banner are opened would show as its bare code on the table."""
    panel_keys = set(re.findall(r'^\s*"([^"]+)"\s*:', PANEL_WORDS.read_text(), re.MULTILINE))
    assert {"options.build", "end.you_win", "pay.total"} <= panel_keys
    elsewhere = []
    for path in _scripts():
        if _is_catalog(path) or path in PANEL_SCRIPTS:
            continue
        text = path.read_text()
        elsewhere += [(key, path.name) for key in panel_keys
                      if re.search(rf"""["'`]{re.escape(key)}["'`]""", text)]
        elsewhere += [(head, path.name) for head in _TEMPLATE_HEAD.findall(text)
                      if any(key.startswith(head) for key in panel_keys)]
    assert not elsewhere, f"codes of en-panels.js asked for before it is loaded: {elsewhere}"


_PAGE_WORDS = re.compile(r"\{% set page_words = \[([^\]]*)\] %\}")
_AWAITED = re.compile(r"\bawait pageWords\(([^)]*)\)")
_STATIC_IMPORT = re.compile(r"""^import [^;]*?from "(\.{1,2}/[^"]+)";""", re.MULTILINE | re.DOTALL)


def _awaited_parts(script: Path, seen: set[Path]) -> set[str]:
    """The catalog's parts a module and the modules it imports (statically: they run
    before it) await at their start."""
    if script in seen:
        return set()
    seen.add(script)
    text = script.read_text()
    parts = {part for call in _AWAITED.findall(text) for part in re.findall(r'"(\w+)"', call)}
    for imported in _STATIC_IMPORT.findall(text):
        parts |= _awaited_parts((script.parent / imported).resolve(), seen)
    return parts


def test_the_words_a_page_s_script_awaits_are_fetched_with_the_page() -> None:
    """A page's template preloads (page_words) every part of the catalog its script awaits
    before drawing: else the part is fetched only once the script has run, one fetch after
    another, and the page is slower to show."""
    checked = 0
    for template in sorted((ROOT / "templates").rglob("*.html")):
        text = template.read_text()
        scripts = scripts_of(text)
        if not scripts:
            continue
        listed = _PAGE_WORDS.search(text)
        preloaded = set(re.findall(r'"(\w+)"', listed.group(1))) if listed else set()
        for script in scripts:
            awaited = _awaited_parts((JS.parent / script).resolve(), set())
            assert awaited <= preloaded, (template.name, script, awaited - preloaded)
            checked += bool(awaited)
    assert checked >= 8  # the scan finds the pages' awaits
