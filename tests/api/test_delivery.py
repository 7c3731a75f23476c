"""How the pages' files and the catalog are delivered (app/api/delivery.py): compressed
when the client accepts it, fingerprinted static URLs cached for a year, everything else
revalidated (304), the pages never cached; the npm libraries by bare specifier from
``/vendor``, which serves those files of node_modules and no other."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import shutil
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path

import brotli
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.applications import Starlette
from starlette.routing import Mount

from app.api.delivery import (
    DIGEST_CHARS,
    IMMUTABLE,
    REVALIDATE,
    VENDOR_MODULES,
    Fingerprints,
    Minifier,
    StaticAssets,
)
from app.api.pages import PAGE_SCRIPTS, ROOT, words_of_others

from ..factories import ProtocolClient, create_game, serve

pytestmark = pytest.mark.one_database  # how files are delivered: no storage in it

STATIC = ROOT / "static"
FINGERPRINTED = re.compile(r'(?:src|href)="(/static/([^"?]+)\?v=([0-9a-f]+))"')
NODE_MODULES = ROOT / "node_modules"
VENDOR_URL = re.compile(r"/vendor/([^?]+)\?v=([0-9a-f]+)")
JAVASCRIPT = re.compile(r"(?:text|application)/javascript(?:;.*)?")


def _raw(client: TestClient, path: str, accept: str) -> tuple[dict[str, str], bytes]:
    """The answer's headers and its body as sent (not decoded)."""
    with client.stream("GET", path, headers={"accept-encoding": accept}) as response:
        assert response.status_code == 200, path
        return dict(response.headers), b"".join(response.iter_raw())


def _content_tag(headers: Mapping[str, str]) -> str:
    """The ETag of the content itself: an answer in a coding carries it with that coding
    (``"<tag>-br"``), since a tag names the bytes sent."""
    etag = headers["etag"]
    coding = headers.get("content-encoding")
    if coding is None:
        return etag
    assert etag.endswith(f'-{coding}"'), (etag, coding)
    return etag.removesuffix(f'-{coding}"') + '"'


def _import_map(html: str) -> dict[str, str]:
    found = re.search(r'<script type="importmap"[^>]*>(.*?)</script>', html, re.S)
    assert found, "the page has no import map"
    imports: dict[str, str] = json.loads(found.group(1))["imports"]
    return imports


def _but_the_nonce(body: bytes) -> bytes:
    """A page's body, but for the nonce of its answer's policy (app/api/security.py)."""
    return re.sub(rb'nonce="[\w-]+"', b'nonce=""', body)


def test_answers_are_compressed_when_the_client_accepts_it(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(minify_assets=False)) as client:
        for path in ("/games/some-game", "/static/js/table/table.js", "/static/css/table.css",
                     "/api/catalog"):
            headers, plain = _raw(client, path, "identity")
            assert "content-encoding" not in headers, path
            assert len(plain) > 2000, path
            for accept, coding, decode in (("gzip", "gzip", gzip.decompress),
                                           ("gzip, deflate, br", "br", brotli.decompress),
                                           ("br;q=0, gzip", "gzip", gzip.decompress)):
                headers, sent = _raw(client, path, accept)
                assert headers["content-encoding"] == coding, (path, accept)
                assert "accept-encoding" in headers["vary"].lower(), path
                assert len(sent) < len(plain) / 2, path
                # A file sent in several chunks goes out chunked: no length to check then.
                assert int(headers.get("content-length", len(sent))) == len(sent), path
                assert _but_the_nonce(decode(sent)) == _but_the_nonce(plain), (path, accept)
                if path != "/games/some-game" and coding == "br":
                    # Made once, so compressed harder than an answer made per request.
                    assert len(sent) < len(brotli.compress(plain, quality=6)), path
        refusal = client.get("/api/games/no-such-game", headers={"accept-encoding": "gzip"})
        assert refusal.status_code == 404 and "content-encoding" not in refusal.headers
        # The sockets are not touched.
        created = create_game(client)
        with ProtocolClient(client, created["game_id"], timeout=10) as socket:
            assert socket.join(seat=0, token=created["token"])["type"] == "welcome"


def test_the_page_names_fingerprinted_files_kept_for_a_year(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(minify_assets=False)) as client:
        page = client.get("/games/some-game")
        assert page.headers["cache-control"] == "private, no-cache"
        assert "etag" not in page.headers and "last-modified" not in page.headers
        named = FINGERPRINTED.findall(page.text)
        assert {path for _, path, _ in named} >= {"js/game.js", "css/app.css",
                                                  "css/table.css", "css/glyphs.css", "favicon.svg"}
        # The modules' imports of one another go through the import map to the same kind
        # of URL: every module of static/js but the pages' own scripts (which no module
        # imports) and the other languages' words, each mapped from its plain URL. Modules
        # in subdirectories too. (The npm libraries, by bare specifier, are the other
        # entries: tested below.)
        imports = _import_map(page.text)
        ours = {plain: url for plain, url in imports.items() if plain.startswith("/")}
        assert set(imports) - set(ours) == set(VENDOR_MODULES)
        modules = sorted(p.relative_to(STATIC).as_posix() for p in STATIC.glob("js/**/*.js"))
        assert "js/game.js" in PAGE_SCRIPTS and "js/table/table.js" not in PAGE_SCRIPTS
        others = words_of_others("en")
        assert "js/words/ro.js" in others and "js/words/en.js" not in others
        assert sorted(ours) == [f"/static/{module}" for module in modules
                                if module not in PAGE_SCRIPTS | others]
        for script in PAGE_SCRIPTS:  # no module imports a page's script
            name = script.removeprefix("js/")
            assert not [p for p in STATIC.glob("js/**/*.js")
                        if re.search(rf"""["'/]{re.escape(name)}["']""", p.read_text())]
        for plain, url in ours.items():
            found = re.fullmatch(re.escape(plain) + r"\?v=([0-9a-f]+)", url)
            assert found, url
            named.append((url, plain.removeprefix("/static/"), found.group(1)))
        game_js = next(url for url, path, _ in named if path == "js/game.js")
        assert f'src="{game_js}"' in page.text
        for url, path, digest in named:
            answer = client.get(url)
            assert answer.status_code == 200, url
            assert answer.headers["cache-control"] == IMMUTABLE == \
                "max-age=31536000, immutable", url
            assert _content_tag(answer.headers) == f'"{digest}"', url
            assert answer.content == (STATIC / path).read_bytes(), url


def test_a_page_maps_the_words_of_its_own_language_only(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        for language in ("ro", "hu", "en"):
            page = client.get("/games/some-game", headers={"accept-language": language})
            words = {plain.removeprefix("/static/js/words/") for plain in _import_map(page.text)
                     if plain.startswith("/static/js/words/")}
            assert {f"{language}.js", f"{language}-server.js", "signed.js"} <= words
            assert all(name == "signed.js" or name.startswith((f"{language}.", f"{language}-"))
                       for name in words), words


def test_the_import_map_sends_each_library_to_its_fingerprinted_file(
        make_app: Callable[..., FastAPI]) -> None:
    """A module imports Preact by bare specifier (``from "htm/preact"``); the page's import
    map sends it to the file of node_modules under /vendor, by a URL that changes with the
    file, so it is kept for a year like our own modules."""
    with serve(make_app(minify_assets=False)) as client:
        for page in ("/", "/join/some-game", "/games/some-game"):
            imports = _import_map(client.get(page).text)
            for specifier, path in VENDOR_MODULES.items():
                found = VENDOR_URL.fullmatch(imports[specifier])
                assert found, (page, specifier, imports[specifier])
                assert found.group(1) == path, (page, specifier)
                content = (NODE_MODULES / path).read_bytes()
                assert found.group(2) == hashlib.sha256(content).hexdigest()[:DIGEST_CHARS]
        compressed = 0
        for specifier, path in VENDOR_MODULES.items():
            url = imports[specifier]
            content = (NODE_MODULES / path).read_bytes()
            answer = client.get(url)
            assert answer.status_code == 200, url
            # A browser runs a module script only when it is sent as JavaScript.
            assert JAVASCRIPT.fullmatch(answer.headers["content-type"]), url
            assert answer.headers["cache-control"] == IMMUTABLE, url
            assert _content_tag(answer.headers) == f'"{url.rsplit("=", 1)[1]}"', url
            assert answer.content == content, url
            headers, sent = _raw(client, url, "gzip, deflate, br")
            if len(content) >= 500:  # smaller answers are sent as they are
                assert headers["content-encoding"] == "br", url
                assert brotli.decompress(sent) == content, url
                compressed += 1
            else:
                assert "content-encoding" not in headers and sent == content, url
            # Without the fingerprint (or with an old one) it is served, but revalidated.
            plain = client.get(url.split("?")[0])
            assert plain.status_code == 200 and plain.content == content, url
            assert plain.headers["cache-control"] == REVALIDATE, url
        assert compressed, "Preact itself is large enough to be compressed"


def test_vendor_serves_only_the_listed_modules(make_app: Callable[..., FastAPI]) -> None:
    """node_modules holds far more than the pages import (package metadata, other builds,
    sources); only the files of VENDOR_MODULES are served, and nothing outside it."""
    assert (NODE_MODULES / "preact" / "package.json").is_file()
    assert (ROOT / "pyproject.toml").is_file()
    with serve(make_app(minify_assets=False)) as client:
        for path in ("/vendor/preact/package.json", "/vendor/preact/dist/preact.js",
                     "/vendor/preact/src/index.js", "/vendor/htm/package.json",
                     "/vendor/.package-lock.json", "/vendor/preact/LICENSE", "/vendor/",
                     "/vendor/preact/dist/", "/vendor/preact", "/vendor/no-such-file.mjs",
                     "/vendor/%2e%2e/pyproject.toml", "/vendor/..%2fpyproject.toml",
                     "/vendor/preact/%2e%2e/%2e%2e/pyproject.toml",
                     "/vendor/%2e%2e/static/js/game.js"):
            answer = client.get(path)
            assert answer.status_code == 404, path
            assert b"[project]" not in answer.content, path
        # The same through the fingerprinted form: a v= does not open other files.
        answer = client.get("/vendor/preact/package.json?v=0123456789abcdef")
        assert answer.status_code == 404
        for path in VENDOR_MODULES.values():
            assert client.get(f"/vendor/{path}").status_code == 200, path


def test_a_stale_or_missing_fingerprint_is_not_kept(make_app: Callable[..., FastAPI]) -> None:
    """A page from before a deploy asks for an older ``v``: it gets today's file, to be
    revalidated before each use, never kept for a year under the old URL."""
    with serve(make_app(minify_assets=False)) as client:
        content = (STATIC / "js" / "game.js").read_bytes()
        for url in ("/static/js/game.js?v=0123456789abcdef", "/static/js/game.js?v=",
                    "/static/js/game.js", "/static/js/game.js?x=1"):
            answer = client.get(url)
            assert answer.status_code == 200, url
            assert answer.headers["cache-control"] == REVALIDATE == "no-cache", url
            assert answer.content == content, url
            assert "etag" in answer.headers, url
            # The content's ETag is the one validator: no Last-Modified, no Accept-Ranges.
            assert "last-modified" not in answer.headers, url
            assert "accept-ranges" not in answer.headers, url


def test_revalidation_gives_304_without_a_body(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(minify_assets=False)) as client:
        page = client.get("/games/some-game").text
        game_js = next(url for url, path, _ in FINGERPRINTED.findall(page)
                       if path == "js/game.js")
        for url in ("/static/js/table/table.js", "/static/css/app.css", game_js):
            first = client.get(url)
            etag = first.headers["etag"]
            for asked in ({"if-none-match": etag}, {"if-none-match": f'"other", W/{etag}'}):
                again = client.get(url, headers=asked)
                assert again.status_code == 304, (url, asked)
                assert again.content == b"", (url, asked)
                assert again.headers["etag"] == etag, (url, asked)
                assert again.headers["cache-control"] == first.headers["cache-control"]
            changed = client.get(url, headers={"if-none-match": '"0123456789abcdef"'})
            assert changed.status_code == 200 and changed.content == first.content, url

        catalog = client.get("/api/catalog")
        assert catalog.status_code == 200 and "cards" in catalog.json()
        # Revalidated on every use: a deploy that changes the catalog is seen at once.
        assert catalog.headers["cache-control"] == "no-cache"
        etag = catalog.headers["etag"]
        for tag in (etag, f"W/{etag}", "*"):
            again = client.get("/api/catalog", headers={"if-none-match": tag})
            assert again.status_code == 304, tag
            assert again.content == b"" and again.headers["etag"] == etag, tag
            assert again.headers["cache-control"] == "no-cache"
        stale = client.get("/api/catalog", headers={"if-none-match": '"0123456789abcdef"'})
        assert stale.status_code == 200 and stale.json() == catalog.json()
        assert stale.headers["etag"] == etag


def test_a_changed_file_gets_a_new_fingerprint(tmp_path: Path) -> None:
    """Static files from a directory of the test's own, served as the application serves
    ``static/``. Each content is a different length, so that the change is seen however
    coarse the file system's clock (the digests are kept per size, times and inode)."""
    script = tmp_path / "js" / "app.js"
    script.parent.mkdir()
    script.write_text("export const version = 1;\n")
    fingerprints = Fingerprints(tmp_path, "/static")
    app = Starlette(routes=[Mount("/static", StaticAssets(fingerprints))])
    with TestClient(app) as client:
        before = fingerprints.url("js/app.js")
        assert re.fullmatch(r"/static/js/app\.js\?v=[0-9a-f]{16}", before)
        assert fingerprints.url("js/app.js") == before
        assert fingerprints.import_map() == {"imports": {"/static/js/app.js": before}}
        first = client.get(before)
        assert first.headers["cache-control"] == IMMUTABLE

        script.write_text("export const version = 2.0;\n")
        after = fingerprints.url("js/app.js")
        assert after != before
        assert fingerprints.import_map() == {"imports": {"/static/js/app.js": after}}
        fresh = client.get(after)
        assert fresh.headers["cache-control"] == IMMUTABLE
        assert fresh.text == "export const version = 2.0;\n"
        assert fresh.headers["etag"] != first.headers["etag"]
        # The old URL now gives the new content, not to be kept; the old tag is stale.
        old = client.get(before)
        assert old.headers["cache-control"] == REVALIDATE and old.text == fresh.text
        revalidated = client.get(after.split("?")[0],
                                 headers={"if-none-match": first.headers["etag"]})
        assert revalidated.status_code == 200 and revalidated.text == fresh.text

    # A template naming a file that is not there, or not under the directory, fails.
    with pytest.raises(FileNotFoundError):
        fingerprints.url("js/missing.js")
    with pytest.raises(ValueError, match="not under"):
        fingerprints.url("../outside.js")


def test_scripts_and_styles_are_sent_minified(make_app: Callable[..., FastAPI],
                                              tmp_path: Path) -> None:
    """esbuild's minified form (pages.MINIFIER): smaller, still a valid ES module, its own
    ETag, the same URL; with DUEL_MINIFY_ASSETS=false the file as written."""
    node = shutil.which("node")
    for path in ("js/table/table.js", "js/game.js", "css/table.css"):
        source = (STATIC / path).read_bytes()
        with serve(make_app()) as client:
            small = client.get(f"/static/{path}")
            again = client.get(f"/static/{path}", headers={"if-none-match": small.headers["etag"]})
        with serve(make_app(minify_assets=False)) as client:
            plain = client.get(f"/static/{path}")
        assert small.status_code == plain.status_code == 200, path
        assert plain.content == source, path
        assert len(small.content) < 0.8 * len(source), path
        assert _content_tag(small.headers).endswith('m"'), path
        assert _content_tag(small.headers) != _content_tag(plain.headers), path
        assert small.headers["content-type"] == plain.headers["content-type"], path
        assert again.status_code == 304, path
        if path.endswith(".js") and node:
            module = tmp_path / "module.mjs"
            module.write_bytes(small.content)
            checked = subprocess.run([node, "--check", str(module)], capture_output=True,
                                     text=True, check=False)
            assert checked.returncode == 0, (path, checked.stderr)


def test_an_esbuild_that_cannot_run_sends_the_files_as_they_are(tmp_path: Path) -> None:
    """A binary of another platform (or a file that is not one) is given up on at the first
    try: the file is sent as written, no answer fails, esbuild is not tried again."""
    not_a_program = tmp_path / "esbuild"
    not_a_program.write_text("not a program")
    not_a_program.chmod(0o755)
    minifier = Minifier(not_a_program)
    path = STATIC / "js" / "words.js"
    assert minifier.minified(path.read_bytes(), str(path)) is None
    assert minifier.binary is None
    assert minifier.minified(path.read_bytes(), str(path)) is None
    fingerprints = Fingerprints(STATIC, "/static")
    app = Starlette(routes=[Mount("/static", StaticAssets(fingerprints,
                                                          minifier=Minifier(not_a_program)))])
    with TestClient(app) as client:
        answer = client.get("/static/js/words.js")
    assert answer.status_code == 200 and answer.content == path.read_bytes()


def test_each_coding_has_its_own_tag_and_a_tiny_file_goes_as_it_is(tmp_path: Path) -> None:
    """A cache that kept the brotli bytes must not be told they are the gzip ones: each
    coding's answer has its own ETag, and a revalidation is a 304 only for the tag of the
    coding the request gets. A file too small for a coding to pay for its headers is sent
    as it is, whatever the client accepts."""
    (tmp_path / "big.css").write_text(".a { color: red; }\n" * 200)
    (tmp_path / "tiny.js").write_text("export const version = 1;\n")
    app = Starlette(routes=[Mount("/static", StaticAssets(Fingerprints(tmp_path)))])
    with TestClient(app) as client:
        tags = {}
        for accept, coding in (("br, gzip", "br"), ("gzip", "gzip"), ("identity", None)):
            headers, _ = _raw(client, "/static/big.css", accept)
            assert headers.get("content-encoding") == coding, accept
            assert headers["vary"] == "Accept-Encoding", accept
            tags[coding] = headers["etag"]
        assert len(set(tags.values())) == 3
        assert {_content_tag({"etag": tag, **({"content-encoding": c} if c else {})})
                for c, tag in tags.items()} == {tags[None]}
        for coding, accept in (("br", "br"), ("gzip", "gzip"), (None, "identity")):
            for tag_coding, tag in tags.items():
                again = client.get("/static/big.css",
                                   headers={"accept-encoding": accept, "if-none-match": tag})
                assert again.status_code == (304 if tag_coding == coding else 200), \
                    (accept, tag)
        headers, sent = _raw(client, "/static/tiny.js", "br, gzip")
        assert "content-encoding" not in headers
        assert sent == b"export const version = 1;\n"
