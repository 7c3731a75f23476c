"""Every sentence with a number is pluralised by its language's rules: in the browser's
catalogs (static/js/words/, through the pages' own ``t()`` and Intl.PluralRules) and in the
pages' templates (Babel's ngettext). English says "1 minute", never "1 minutes"; Romanian
"1 minut", "2 minute", "20 de minute"."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from app import i18n
from tests.api.test_word_catalogs import PARTS
from tests.api.test_words import JS, WORDS, _node

_SCRIPT = """
const [code, tag, parts, asked, figures] = JSON.parse(process.argv[2]);
globalThis.document = {
  documentElement: { dataset: { language: code, catalogs: code }, lang: tag } };
const words = await import("./js/words.js");
for (const part of parts.slice(1)) await words.loadWords(part.slice(1));
const rendered = {};
// Every entry with each of its figures 1 and its names "X"; a function, whose params
// cannot be read off, with 1 for every one it asks for.
const ones = new Proxy({}, {
  get: (target, name) => (typeof name === "symbol" ? undefined : 1), has: () => true });
for (const part of parts) {
  const catalog = (await import(`./js/words/${code}${part}.js`)).default;
  for (const [key, entry] of Object.entries(catalog)) {
    if (typeof entry === "function") {
      try {
        rendered[key] = String(words.t(key, ones));
      } catch {
        // a function that needs a param of another shape: its figures are checked alone
      }
      continue;
    }
    const texts = typeof entry === "string" ? [entry] : Object.values(entry);
    const params = { n: 1, count: 1 };
    for (const text of texts) {
      for (const m of text.matchAll(/\\{(\\w+)\\}/g)) {
        params[m[1]] = figures.includes(m[1]) ? 1 : "X";
      }
    }
    rendered[key] = words.t(key, params);
  }
}
const counted = Object.fromEntries(asked.map(([key, n]) => [`${key} ${n}`, words.t(key, { n })]));
console.log(JSON.stringify({ rendered, counted }));
"""

FIGURES = ["n", "count", "actions", "minutes", "seconds", "increment", "days", "d", "h", "m",
           "last", "more", "total", "price", "rate", "drop", "page", "pages", "first", "low",
           "high", "rating", "seq", "version", "wait"]
"""The placeholders that carry a number (the others carry names and words)."""
NOT_PLURALS = frozenset({"is", "was", "has", "its", "as", "us", "this", "less", "plus",
                         "progress", "fails"})
"""Words ending in s that follow a figure without being a plural noun."""


def _render(tmp_path: Path, code: str, asked: list[tuple[str, float]]) -> dict[str, dict[str, str]]:
    node = _node()
    (tmp_path / "package.json").write_text('{"type": "module"}')
    if not (tmp_path / "js").exists():
        shutil.copytree(WORDS, tmp_path / "js" / "words")
        shutil.copy(JS / "words.js", tmp_path / "js" / "words.js")
    (tmp_path / "run.js").write_text(_SCRIPT)
    tag = i18n.LANGUAGES[code].tag
    done = subprocess.run([node, "run.js", json.dumps([code, tag, PARTS, asked, FIGURES])],
                          capture_output=True, text=True, timeout=60, check=False,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result: dict[str, dict[str, str]] = json.loads(done.stdout)
    return result


def _one_with_a_plural(text: str) -> list[str]:
    """The "1 <plural noun>" in a text ("1 minutes")."""
    return [found for found in re.findall(r"\b1 ([a-z]+s)\b", text)
            if found not in NOT_PLURALS]


def test_no_english_message_says_1_with_a_plural(tmp_path: Path) -> None:
    rendered = _render(tmp_path, "en", [])["rendered"]
    assert len(rendered) > 300
    wrong = {key: text for key, text in rendered.items() if _one_with_a_plural(text)}
    assert wrong == {}


def test_the_check_finds_1_minutes() -> None:
    assert _one_with_a_plural("On average a game lasts 1 moves and 1 minutes.") == \
        ["moves", "minutes"]
    assert _one_with_a_plural("1 minute; it is 1 of 7; 1 has; 1 progress token") == []


@pytest.mark.parametrize(("code", "expected"), [
    ("en", {"stats.minutes 1": "1 minute", "stats.minutes 2": "2 minutes",
            "stats.moves 1": "1 move", "stats.minutes 12.5": "12.5 minutes"}),
    ("ro", {"stats.minutes 1": "1 minut", "stats.minutes 2": "2 minute",
            "stats.minutes 20": "20 de minute", "stats.minutes 12.5": "12,5 minute"}),
    ("sr", {"stats.minutes 1": "1 minut", "stats.minutes 2": "2 minuta",
            "stats.minutes 5": "5 minuta", "stats.minutes 21": "21 minut"}),
    ("pt", {"stats.minutes 1": "1 minuto", "stats.minutes 2": "2 minutos"}),
    ("hu", {"stats.minutes 1": "1 percig", "stats.minutes 2": "2 percig"}),
])
def test_the_statistics_average_is_pluralised_by_the_language_s_rules(
        tmp_path: Path, code: str, expected: dict[str, str]) -> None:
    asked = [(key.split()[0], float(key.split()[1])) for key in expected]
    assert _render(tmp_path, code, asked)["counted"] == expected


def _unpluralised(template: str) -> list[str]:
    """The {% trans %} blocks of a template that put a figure before a plural noun without
    a {% pluralize %}."""
    found = []
    for block in re.findall(r"{% trans [^%]*%}(.*?){% endtrans %}", template, re.DOTALL):
        nouns = re.findall(rf"{{{{ (?:{'|'.join(FIGURES)}) }}}} ([a-z]+s)\b", block)
        if "{% pluralize" not in block and set(nouns) - NOT_PLURALS:
            found.append(block)
    return found


def test_every_template_sentence_with_a_count_is_ngettext() -> None:
    """A template's figure followed by a plural noun is in a {% trans count=… %} block with
    its {% pluralize %} (the clocks' "5 min + 3 s" are units, not nouns)."""
    templates = Path(__file__).resolve().parents[2] / "templates"
    unpluralised = [f"{path.name}: {block}" for path in templates.rglob("*.html")
                    for block in _unpluralised(path.read_text())]
    assert unpluralised == []
    # The check can fail.
    assert _unpluralised("{% trans minutes=m %}It lasts {{ minutes }} minutes.{% endtrans %}")
    assert not _unpluralised("{% trans count=m %}{{ count }} minute{% pluralize %}"
                             "{{ count }} minutes{% endtrans %}")
