"""The browser's catalogs in every language (static/js/words/<code>*.js) against the English
ones (tests/api/test_words.py checks the English against the scripts): each language has
every file and every code English has, and no other; each entry renders whole through the
page's own ``t()`` in that language, with the figures and names the English shows; a plural
entry has every plural form of its language (Intl.PluralRules); and the pseudo-locale marks
every entry.

One Node process sets up a page of each language (``<html data-language lang>``), imports
``words.js`` for it and loads every part of the catalog, as the pages do.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from app import i18n
from tests.api.test_words import JS, WORDS, _node

PARTS = ["", "-panels", "-lobby", "-admin", "-clocks", "-analysis", "-server"]
"""The files of a language's catalog: <code>.js (shared) and <code>-<part>.js."""

_SCRIPT = """
const PARTS = %(parts)s;
const LANGUAGES = %(languages)s;  // code -> its <html lang>
const SAMPLES = [0, 1, 2, 3, 5, 11, 21, 101, 1000000];

async function page(code, tag) {
  const catalogs = code === "qps" ? "en" : code;  // as app/i18n.py's Language.catalogs says
  globalThis.document = { documentElement: { dataset: { language: code, catalogs }, lang: tag } };
  const words = await import(`./js/words.js?page=${code}`);  // a module of its own per page
  for (const part of PARTS.slice(1)) await words.loadWords(part.slice(1));
  return words;
}

async function entries(code) {
  const all = {};
  for (const part of PARTS) {
    const module = await import(`./js/words/${code}${part}.js`);
    all[part] = module.default;
  }
  return all;
}

const placeholders = (entry) => {
  const texts = typeof entry === "string" ? [entry]
    : entry && typeof entry === "object" ? Object.values(entry) : [];
  const names = new Set();
  for (const text of texts) for (const m of String(text).matchAll(/\\{(\\w+)\\}/g)) names.add(m[1]);
  return names;
};
const kind = (entry) => (typeof entry === "function" ? "function"
  : typeof entry === "object" && entry !== null ? "plural" : typeof entry);

const english = await entries("en");
const report = {};
for (const [code, tag] of Object.entries(LANGUAGES)) {
  const problems = [];
  report[code] = problems;
  let theirs;
  try {
    theirs = await entries(code === "qps" ? "en" : code);
  } catch (error) {
    problems.push(`cannot load: ${error}`);
    continue;
  }
  const words = await page(code, tag);
  const categories = new Intl.PluralRules(tag).resolvedOptions().pluralCategories;
  for (const part of PARTS) {
    const ours = english[part];
    const other = theirs[part];
    for (const key of Object.keys(ours)) {
      if (!(key in other)) problems.push(`${code}${part}: lacks ${key}`);
    }
    for (const key of Object.keys(other)) {
      if (!(key in ours)) problems.push(`${code}${part}: has ${key}, which English has not`);
    }
    for (const [key, entry] of Object.entries(other)) {
      if (!(key in ours)) continue;
      const wanted = placeholders(ours[key]);
      if (kind(entry) === "plural") {
        for (const category of categories) {
          if (!(category in entry)) problems.push(`${key}: no "${category}" form`);
        }
      }
      if (kind(entry) !== "function" && kind(ours[key]) !== "function") {
        const got = placeholders(entry);
        for (const name of wanted) {
          // A plural form may say its count in words ("one coin"); the other figures show.
          const counted = name === "n" || name === "count";
          if (!got.has(name) && !counted) problems.push(`${key}: drops {${name}}`);
        }
        for (const name of got) if (!wanted.has(name)) problems.push(`${key}: adds {${name}}`);
      }
      // Rendered through the page's t(), for each sample count, with every param given.
      for (const n of SAMPLES) {
        // A function's params cannot be read off: it gets n for any it asks for.
        const params = kind(ours[key]) === "function"
          ? new Proxy({}, {
            get: (target, name) => (typeof name === "symbol" ? undefined : n), has: () => true })
          : { ...Object.fromEntries([...wanted].map((name) => [name, `<${name}>`])), n, count: n };
        let text;
        try {
          text = String(words.t(key, params));
        } catch (error) {
          text = `threw ${error}`;
        }
        if (/undefined|NaN|\\[object|threw /.test(text) || /\\{\\w+\\}/.test(text)) {
          problems.push(`${key} (n=${n}): ${text}`);
          break;
        }
        if (code === "qps" && !(text.startsWith("⟦") && text.endsWith("⟧"))) {
          problems.push(`${key}: not marked: ${text}`);
          break;
        }
      }
    }
  }
}
console.log(JSON.stringify(report));
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    node = _node()
    work = tmp_path_factory.mktemp("catalogs")
    (work / "package.json").write_text('{"type": "module"}')
    shutil.copytree(WORDS, work / "js" / "words")
    shutil.copy(JS / "words.js", work / "js" / "words.js")
    languages = {code: language.tag for code, language in i18n.LANGUAGES.items()
                 if code != i18n.DEFAULT}
    languages[i18n.PSEUDO.code] = i18n.PSEUDO.tag
    (work / "run.js").write_text(_SCRIPT % {"parts": json.dumps(PARTS),
                                            "languages": json.dumps(languages)})
    done = subprocess.run([node, str(work / "run.js")], capture_output=True, text=True,
                          timeout=120, check=False, cwd=work)
    assert done.returncode == 0, done.stderr
    result: dict[str, list[str]] = json.loads(done.stdout)
    return result


def test_every_language_has_every_file() -> None:
    for code in i18n.LANGUAGES:
        for part in PARTS:
            assert (WORDS / f"{code}{part}.js").is_file(), f"{code}{part}.js"
    # No catalog of a language we do not offer, and no stray file.
    known = {f"{code}{part}.js" for code in i18n.LANGUAGES for part in PARTS} | {"signed.js"}
    assert {path.name for path in WORDS.glob("*.js")} == known


@pytest.mark.parametrize("code", [*(c for c in i18n.LANGUAGES if c != i18n.DEFAULT),
                                  i18n.PSEUDO.code])
def test_the_catalog_of_each_language_matches_the_english(report: dict[str, list[str]],
                                                          code: str) -> None:
    assert report[code] == [], "\n".join(report[code][:40])


def test_the_check_finds_a_gap(tmp_path: Path) -> None:
    """A catalog without one of English's codes, or with a placeholder lost, is reported:
    the check above can fail."""
    node = _node()
    work = tmp_path
    (work / "package.json").write_text('{"type": "module"}')
    shutil.copytree(WORDS, work / "js" / "words")
    shutil.copy(JS / "words.js", work / "js" / "words.js")
    broken = work / "js" / "words" / "hu.js"
    text = broken.read_text()
    first_key = text.split('"n.coins"', 1)
    assert len(first_key) == 2, "hu.js has no n.coins entry"
    broken.write_text(text.replace('"n.coins"', '"n.coins.gone"', 1))
    (work / "run.js").write_text(_SCRIPT % {"parts": json.dumps(PARTS),
                                            "languages": json.dumps({"hu": "hu"})})
    done = subprocess.run([node, str(work / "run.js")], capture_output=True, text=True,
                          timeout=120, check=False, cwd=work)
    assert done.returncode == 0, done.stderr
    problems: dict[str, Any] = json.loads(done.stdout)
    assert "hu: lacks n.coins" in problems["hu"]
    assert "hu: has n.coins.gone, which English has not" in problems["hu"]


def test_the_admin_pages_name_the_computer_as_the_game_pages_do() -> None:
    """The computer's levels are worded twice, for the admin's pages (app/locales) and for
    the scripts (computer.* in static/js/words/<code>.js): the same in every language."""
    node = _node()
    script = ("const out = {}; for (const code of %s) {"
              " out[code] = (await import(`./static/js/words/${code}.js`)).default; }"
              " console.log(JSON.stringify(Object.fromEntries(Object.entries(out).map("
              "([code, m]) => [code, Object.fromEntries(Object.entries(m)"
              ".filter(([key]) => key.startsWith('computer.')))]))));")
    others = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]
    done = subprocess.run([node, "--input-type=module", "-e", script % json.dumps(others)],
                          capture_output=True, text=True, timeout=60, check=False,
                          cwd=WORDS.parents[2])
    assert done.returncode == 0, done.stderr
    scripts = json.loads(done.stdout)
    levels = {"random": "Random", "greedy": "Greedy", "easy": "Easy", "medium": "Medium",
              "hard": "Hard"}
    for code in others:
        with (i18n.LOCALES / code / "LC_MESSAGES" / "messages.po").open("rb") as source:
            pages = read_po(source, locale=code)
        for level, english in levels.items():
            assert pages[english].string == scripts[code][f"computer.level.{level}"], (code, level)
        assert pages["Computer · %(level)s"].string.replace("%(level)s", "{level}") \
            == scripts[code]["computer.name"], code
