"""The pages' scripts as bundles: each page's modules, and the libraries they import, in a
few files rather than one per module.

A first visit to the game's page fetched 20 modules one by one; each answer carries about
250 bytes of HTTP/1.1 status line and headers, and each file is compressed alone. esbuild
(the binary :class:`~app.api.delivery.Minifier` already runs) bundles a page's script with
everything it imports statically into one file, minified; the modules a page fetches when
first needed (a literal ``import("./dialogs.js")``) become files of their own, and what
they share with the page goes into shared chunks (``--splitting``), so that a module, and
its state (the catalog of words, Preact's), exists once in the page.

- One build per page script (the templates' ``page_script("js/…")``), so that a page's
  chunks are cut by what that page and its own lazy modules share, not by what every page
  shares (the game page: 5 files, against 10 with all pages in one build).
- The catalogs of words stay out of the bundles (``static/js/words.js`` asks for them by an
  absolute URL that esbuild leaves alone): a page fetches its own language's only, through
  the page's import map, as without bundles.
- Every output's name carries a hash of its content, so it is sent with a year's
  ``immutable`` caching from ``/static/bundle/<name>``, compressed once (brotli 11).
- The build is made again when a script under ``static/js`` or a library changes
  (:meth:`Bundler.refresh`, run off the event loop before a page is drawn, looks at the
  sources at most every :data:`RECHECK_SECONDS`), and the last
  two builds are served, so that a page drawn just before a rebuild still finds its files.
- No esbuild, an esbuild that fails, or ``DUEL_MINIFY_ASSETS=false``: no bundles; the
  pages load the modules one by one from ``/static`` through their import map, as written.
"""

from __future__ import annotations

import hashlib
import json
import logging
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import Receive, Scope, Send

from .delivery import IMMUTABLE, Encoded, Fingerprints

log = logging.getLogger(__name__)

PREFIX = "/static/bundle"
"""Where the outputs are served (app/main.py mounts :class:`BundleAssets` there)."""
RECHECK_SECONDS = 2.0
"""How often the sources are looked at again (a few milliseconds of stat calls and
digests): a page drawn sooner after the last look uses the build as it is."""
BUILD_SECONDS = 60
"""How long one page's build may take before it counts as failed (a few tens of
milliseconds on a quiet machine)."""


@dataclass(frozen=True)
class Bundle:
    """One build of every page script: what each page loads, and the files to serve."""

    sources: str
    """A digest of the sources it was built from."""
    entries: dict[str, str]
    """A page script (``js/game.js``) -> the name of its bundled entry."""
    preloads: dict[str, tuple[str, ...]]
    """A page script -> the names of the chunks its entry imports statically, directly or
    not: the page asks for them with the entry rather than after it."""
    files: dict[str, tuple[str, Encoded]] = field(repr=False)
    """Every output by name, with the digest of its content (its ETag)."""

    def entry_url(self, script: str) -> str | None:
        name = self.entries.get(script)
        return f"{PREFIX}/{name}" if name else None

    def preload_urls(self, script: str) -> list[str]:
        return [f"{PREFIX}/{name}" for name in self.preloads.get(script, ())]


def _static_closure(outputs: dict[str, dict[str, object]], start: str) -> list[str]:
    """The outputs ``start`` imports statically, directly or not, by their metafile keys."""
    found: list[str] = []
    waiting = [start]
    while waiting:
        imports = outputs[waiting.pop()].get("imports", [])
        assert isinstance(imports, list)
        for imported in imports:
            path = imported["path"]
            if imported["kind"] == "import-statement" and path not in found:
                found.append(path)
                waiting.append(path)
    return found


class Bundler:
    """Builds the bundles of ``scripts`` (paths under the static directory) with the
    esbuild binary, from the directory ``root`` (where ``node_modules`` is), again when a
    source changes: a script under ``static/js`` or one of ``libraries`` (under the
    ``vendor`` directory). The sources' digests are the fingerprints' (read again only
    when a file's size or times change)."""

    def __init__(self, binary: Path | None, root: Path, static: Fingerprints, *,
                 scripts: Iterable[str], vendor: Fingerprints, libraries: Iterable[str],
                 recheck: float = RECHECK_SECONDS) -> None:
        self.binary = binary
        self.root = root
        self.static = static.directory
        self.fingerprints = static
        self.vendor = vendor
        self.libraries = tuple(libraries)
        self.scripts = tuple(sorted(scripts))
        self._current: Bundle | None = None
        self._previous: Bundle | None = None
        self._failed: str | None = None  # the sources of a build that failed
        self._lock = threading.Lock()
        self.recheck = recheck
        self._checked_at = -recheck

    def _sources_digest(self) -> str:
        digest = hashlib.sha256()
        for path in sorted((self.static / "js").rglob("*.js")):
            digest.update(f"{path}:{self.fingerprints.of_file(str(path), path.stat())}\n"
                          .encode())
        for library in self.libraries:
            digest.update(f"{library}:{self.vendor.url(library)}\n".encode())
        return digest.hexdigest()[:16]

    @property
    def current(self) -> Bundle | None:
        """The last build, without looking at the sources (None: there is none)."""
        return self._current

    def refresh(self) -> Bundle | None:
        """The build of the sources as they are now, made if they changed; None when
        there is no esbuild or the build failed (the pages then load the modules as
        written). Blocking: a build runs esbuild once per page script."""
        if self.binary is None:
            return None
        if time.monotonic() - self._checked_at < self.recheck:
            return self._current  # what the last look found (None: its build failed)
        self._checked_at = time.monotonic()
        sources = self._sources_digest()
        if self._current is not None and self._current.sources == sources:
            return self._current
        with self._lock:
            if self._current is not None and self._current.sources == sources:
                return self._current
            if self._failed == sources:
                return None
            built = self._build(sources)
            if built is None:
                self._failed = sources
                self._previous, self._current = self._current, None
                return None
            self._previous, self._current = self._current, built
            return built

    def file(self, name: str) -> tuple[str, Encoded] | None:
        """The output called ``name`` in the current or the previous build, with its
        digest."""
        for bundle in (self._current, self._previous):
            if bundle is not None and name in bundle.files:
                return bundle.files[name]
        return None

    def _build(self, sources: str) -> Bundle | None:
        entries: dict[str, str] = {}
        preloads: dict[str, tuple[str, ...]] = {}
        files: dict[str, tuple[str, Encoded]] = {}
        for script in self.scripts:
            with tempfile.TemporaryDirectory(prefix="bundle-") as out:
                outputs = self._run(script, Path(out))
                if outputs is None:
                    return None
                source = (self.static / script).relative_to(self.root).as_posix()
                entry = next((key for key, output in outputs.items()
                              if output.get("entryPoint") == source), None)
                if entry is None:
                    log.error("esbuild made no entry for %s: the pages load their modules "
                              "one by one", script)
                    return None
                entries[script] = Path(entry).name
                preloads[script] = tuple(Path(chunk).name
                                         for chunk in _static_closure(outputs, entry))
                for key in outputs:
                    name = Path(key).name
                    if name not in files and name.endswith(".js"):
                        body = (self.root / key).resolve().read_bytes()
                        files[name] = (hashlib.sha256(body).hexdigest()[:16], Encoded.of(body))
        log.info("bundled %d page scripts into %d files", len(entries), len(files))
        return Bundle(sources, entries, preloads, files)

    def _run(self, script: str, out: Path) -> dict[str, dict[str, object]] | None:
        """esbuild's metafile outputs for ``script`` built into ``out``, or None."""
        assert self.binary is not None
        metafile = out / "meta.json"
        command = [str(self.binary), str(self.static / script), "--bundle", "--splitting",
                   "--format=esm", "--minify", "--charset=utf8", "--log-level=error",
                   f"--outdir={out}", "--entry-names=[name]-[hash]",
                   "--chunk-names=chunk-[hash]", f"--metafile={metafile}"]
        try:
            done = subprocess.run(command, cwd=self.root, capture_output=True,
                                  timeout=BUILD_SECONDS, check=False)
        except (OSError, subprocess.SubprocessError) as error:
            log.error("esbuild cannot run (%s): the pages load their modules one by one",
                      error)
            self.binary = None
            return None
        if done.returncode != 0:
            log.error("esbuild could not bundle %s (the pages load their modules one by "
                      "one): %s", script, done.stderr.decode(errors="replace").strip())
            return None
        outputs: dict[str, dict[str, object]] = json.loads(metafile.read_text())["outputs"]
        return outputs


class BundleAssets:
    """Serves the bundles' files from memory (``/static/bundle/<name>``): immutable, in the
    best coding the browser accepts. A name no kept build has is a 404."""

    def __init__(self, bundler: Bundler) -> None:
        self.bundler = bundler

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            raise HTTPException(status_code=404)
        if scope["method"] not in ("GET", "HEAD"):
            raise HTTPException(status_code=405, headers={"Allow": "GET, HEAD"})
        name = scope["path"].removeprefix(scope.get("root_path", "")).lstrip("/")
        found = self.bundler.file(name)
        if found is None:
            raise HTTPException(status_code=404)
        digest, encoded = found
        response = encoded.response(Headers(scope=scope), media_type="text/javascript",
                                    etag=f'"{digest}"', cache_control=IMMUTABLE)
        await response(scope, receive, send)
