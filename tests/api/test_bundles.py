"""The pages' scripts in bundles (app/api/bundles.py): a page asks for a few files, not one
per module; a module fetched later shares the page's modules (one catalog of words, one
Preact); the files are kept for a year and made again when a script changes; without
bundles the pages load their modules as written."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.api.bundles import PREFIX, Bundler
from app.api.delivery import IMMUTABLE, Fingerprints
from app.api.pages import MINIFIER, PAGE_SCRIPTS

from ..factories import serve

pytestmark = pytest.mark.one_database  # the scripts' bundles: no storage in it

ENTRY = re.compile(r'<script type="module" src="(/static/bundle/game-[^"]+)"></script>')
PRELOADS = re.compile(r'<link rel="modulepreload" href="(/static/bundle/[^"]+)">')


def _project(root: Path) -> Fingerprints:
    """A page script importing a module statically and another when needed; both import
    the module holding the shared state."""
    js = root / "static" / "js"
    js.mkdir(parents=True)
    (js / "state.js").write_text('export const catalog = {}; export const mark = "STATE-MARK";\n')
    (js / "page.js").write_text(
        'import { catalog, mark } from "./state.js";\n'
        'catalog.page = mark;\n'
        'export const later = () => import("./later.js");\n')
    (js / "later.js").write_text(
        'import { catalog } from "./state.js";\n'
        'export const seen = () => catalog.page + "LATER-MARK";\n')
    return Fingerprints(root / "static", "/static")


def _bundler(root: Path) -> Bundler:
    assert MINIFIER.binary is not None, "npm ci installs esbuild (package.json)"
    return Bundler(MINIFIER.binary, root, _project(root), scripts={"js/page.js"},
                   vendor=Fingerprints(root, "/vendor"), libraries=(), recheck=0.0)


def test_a_page_and_a_module_it_fetches_later_share_one_copy_of_their_modules(
        tmp_path: Path) -> None:
    bundle = _bundler(tmp_path).refresh()
    assert bundle is not None
    entry = bundle.entries["js/page.js"]
    bodies = {name: encoded.identity.decode() for name, (_, encoded) in bundle.files.items()}
    # The module fetched later is a file of its own, not in the page's first load...
    later = [name for name, body in bodies.items() if "LATER-MARK" in body]
    assert len(later) == 1 and later[0] not in bundle.preloads["js/page.js"]
    assert later[0] != entry
    # ...and the state both import is in one file, which the page asks for with its entry.
    holding = [name for name, body in bodies.items() if "STATE-MARK" in body]
    assert len(holding) == 1
    assert holding[0] in (*bundle.preloads["js/page.js"], entry)
    assert all(bundle.files[name][1].br is not None or len(bodies[name]) < 300
               for name in bodies)
    node = shutil.which("node")
    if node:  # the page's bundle runs, and the module it fetches later sees its state
        out = tmp_path / "out"
        out.mkdir()
        for name, body in bodies.items():
            (out / name.replace(".js", ".mjs")).write_text(body.replace(".js\"", ".mjs\""))
        run = (f'const page = await import("./{entry.replace(".js", ".mjs")}");\n'
               'const later = await page.later();\n'
               'console.log(later.seen());\n')
        (out / "run.mjs").write_text(run)
        done = subprocess.run([node, "run.mjs"], cwd=out, capture_output=True, text=True,
                              check=False, timeout=60)
        assert done.stdout.strip() == "STATE-MARKLATER-MARK", done.stderr


def test_a_changed_script_is_bundled_again_and_the_last_build_is_still_served(
        tmp_path: Path) -> None:
    bundler = _bundler(tmp_path)
    first = bundler.refresh()
    assert first is not None and bundler.refresh() is first  # unchanged: not built again
    (tmp_path / "static" / "js" / "state.js").write_text(
        'export const catalog = {}; export const mark = "NEW-MARK";\n')
    second = bundler.refresh()
    assert second is not None and second is not first
    changed = [name for name in first.files if name not in second.files]
    assert changed, "a new content has a new name"
    # A page drawn just before the change still finds its files.
    assert all(bundler.file(name) is not None for name in first.files)


def test_the_sources_are_looked_at_again_only_after_a_while(tmp_path: Path) -> None:
    """A page drawn right after another uses the build as it is (no stat calls, no
    digests); a changed script is seen at the next look."""
    bundler = _bundler(tmp_path)
    bundler.recheck = 3600.0
    first = bundler.refresh()
    (tmp_path / "static" / "js" / "state.js").write_text('export const catalog = {};\n')
    assert bundler.refresh() is first
    bundler.recheck = 0.0
    assert bundler.refresh() is not first


def test_a_script_esbuild_refuses_leaves_the_modules_as_written(tmp_path: Path) -> None:
    bundler = _bundler(tmp_path)
    (tmp_path / "static" / "js" / "page.js").write_text("import { from;\n")
    assert bundler.refresh() is None
    assert bundler.current is None


def test_the_game_page_loads_its_bundle_kept_for_a_year(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        page = client.get("/games/some-game").text
        entry = ENTRY.search(page)
        assert entry is not None, "the page's script is its bundle"
        preloads = PRELOADS.findall(page)
        assert preloads, "the chunks the entry imports are asked for with it"
        for url in (entry.group(1), *preloads):
            answer = client.get(url, headers={"accept-encoding": "br"})
            assert answer.status_code == 200, url
            assert answer.headers["cache-control"] == IMMUTABLE
            assert answer.headers["content-type"].startswith("text/javascript")
            assert answer.headers["content-encoding"] == "br"
            assert client.head(url).status_code == 200
        assert client.get(f"{PREFIX}/game-NOSUCHFILE.js").status_code == 404
        assert client.post(entry.group(1)).status_code == 405
        # Only the words are left for the import map to name.
        imports = re.search(r'<script type="importmap"[^>]*>(.*?)</script>', page, re.S)
        assert imports is not None
        assert "/static/js/words/en.js" in imports.group(1)
        assert "preact" not in imports.group(1) and "table.js" not in imports.group(1)


def test_every_page_script_is_bundled(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        client.get("/")
        bundler = client.app.state.bundler  # type: ignore[attr-defined]
        assert bundler is not None and bundler.current is not None
        assert set(bundler.current.entries) == set(PAGE_SCRIPTS)


def test_without_minifying_the_pages_load_their_modules_as_written(
        make_app: Callable[..., FastAPI]) -> None:
    app = make_app(minify_assets=False)
    with TestClient(app) as client:
        page = client.get("/games/some-game").text
        assert "/static/bundle/" not in page
        assert re.search(r'<script type="module" src="/static/js/game\.js\?v=[0-9a-f]+">', page)
        assert client.get(f"{PREFIX}/anything.js").status_code == 404
