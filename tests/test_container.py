"""The container files, checked without a Docker engine.

The Dockerfile, docker-compose.yml and .dockerignore are read as text and checked against
the repository they package: the paths they copy, the project's build metadata, the
Makefile's way of serving the application, and the settings the server really reads.
"""

from __future__ import annotations

import importlib
import json
import re
import shlex
import tomllib
from dataclasses import dataclass
from ipaddress import ip_network
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml  # PyYAML comes with uvicorn[standard], a dependency of the project

from app.api import pages
from app.api.delivery import VENDOR_MODULES
from app.config import Settings, parse_networks
from app.db.session import make_engine

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


# ---------------------------------------------------------------------- Dockerfile
@dataclass(frozen=True)
class Instruction:
    keyword: str
    arguments: str
    workdir: str
    """The working directory in effect when the instruction runs."""
    stage: int
    """The index of the build stage it belongs to (its FROM included)."""


@dataclass(frozen=True)
class Stage:
    """One build stage: a FROM and the instructions up to the next. The last one is the
    image that runs; the others only give it files (``COPY --from=<name>``)."""

    index: int
    name: str | None
    base: str
    """The image (or earlier stage) it starts from."""
    instructions: tuple[Instruction, ...]


def _logical_lines() -> list[str]:
    """The Dockerfile's lines, continuation lines joined, comments dropped."""
    logical: list[str] = []
    pending = ""
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.startswith("#"):
            continue  # a comment inside a continued instruction
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        logical.append(pending + stripped)
        pending = ""
    assert not pending, "the Dockerfile ends inside a continued line"
    return logical


def _stages() -> list[Stage]:
    """The build stages in order, each instruction with the WORKDIR it runs in. A stage
    built on an earlier one starts in that one's working directory, any other in ``/``."""
    stages: list[Stage] = []
    current: list[Instruction] = []
    name: str | None = None
    base = ""
    workdir = "/"

    def close() -> None:
        if current:
            stages.append(Stage(len(stages), name, base, tuple(current)))

    for text in _logical_lines():
        keyword, _, arguments = text.partition(" ")
        keyword = keyword.upper()
        arguments = arguments.strip()
        if keyword == "FROM":
            close()
            words = [w for w in arguments.split() if not w.startswith("--")]  # --platform
            assert len(words) in (1, 3), f"FROM {arguments}: expected IMAGE [AS NAME]"
            base = words[0]
            name = words[2].lower() if len(words) == 3 else None
            assert len(words) == 1 or words[1].upper() == "AS", f"FROM {arguments}"
            earlier = {s.name: s for s in stages if s.name}
            parent = earlier.get(base.lower())
            workdir = parent.instructions[-1].workdir if parent else "/"
            current = []
        elif not stages and not current:
            # Before the first FROM only ARGs (for the FROM lines) may stand.
            assert keyword == "ARG", f"{keyword} before the first FROM"
            continue
        if keyword == "WORKDIR":
            workdir = str(PurePosixPath(workdir) / arguments)
        current.append(Instruction(keyword, arguments, workdir, len(stages)))
    close()
    assert stages, "the Dockerfile has no FROM"
    names = [s.name for s in stages if s.name]
    assert len(names) == len(set(names)), f"stage names repeat: {names}"
    return stages


def _final_stage() -> Stage:
    """The stage that is the image: the last one."""
    return _stages()[-1]


def _parent_stage(stage: Stage) -> Stage | None:
    """The earlier stage ``stage`` is built on (``FROM <stage name>``), if any."""
    earlier = [s for s in _stages()[:stage.index] if s.name == stage.base.lower()]
    return earlier[-1] if earlier else None


def _instructions() -> list[Instruction]:
    """The instructions of the image that runs (the final stage), its FROM first."""
    return list(_final_stage().instructions)


def _only(keyword: str) -> Instruction:
    """The one ``keyword`` instruction of the final stage."""
    found = [i for i in _instructions() if i.keyword == keyword]
    assert len(found) == 1, f"expected one {keyword}, found {len(found)}"
    return found[0]


def _command_words(instruction: Instruction) -> list[str]:
    """CMD/ENTRYPOINT/RUN as words: the exec (JSON) form as written, the shell form split."""
    if instruction.arguments.startswith("["):
        words = json.loads(instruction.arguments)
        assert isinstance(words, list) and all(isinstance(w, str) for w in words)
        return words
    return ["sh", "-c", instruction.arguments]


def _as_shell(words: list[str]) -> str:
    """Words to run as one shell line: ``sh -c LINE`` is LINE."""
    if len(words) >= 3 and PurePosixPath(words[0]).name in ("sh", "bash") and words[1] == "-c":
        return " ".join(words[2:])
    return shlex.join(words)


def _start_script() -> str:
    """What the container runs on start, as one shell line (ENTRYPOINT then CMD)."""
    words: list[str] = []
    for keyword in ("ENTRYPOINT", "CMD"):
        found = [i for i in _instructions() if i.keyword == keyword]
        if found:
            words += _command_words(found[-1])
    assert words, "the image runs nothing on start"
    return _as_shell(words)


def _shell_commands(script: str) -> list[tuple[str, list[str]]]:
    """A shell line as (operator before it, words) per simple command."""
    out: list[tuple[str, list[str]]] = []
    operator = ""
    for part in re.split(r"(&&|\|\||;)", script):
        if part in ("&&", "||", ";"):
            operator = part
            continue
        words = shlex.split(part)
        if words and words[0] == "exec":
            words = words[1:]
        if words:
            out.append((operator, words))
    return out


def _option(words: list[str], name: str) -> str | None:
    """The value of ``--name value`` or ``--name=value`` among ``words``."""
    for i, word in enumerate(words):
        if word == name and i + 1 < len(words):
            return words[i + 1]
        if word.startswith(name + "="):
            return word.split("=", 1)[1]
    return None


def _uvicorn_words() -> list[str]:
    commands = [words for _, words in _shell_commands(_start_script())
                if PurePosixPath(words[0]).name == "uvicorn"]
    assert len(commands) == 1, "the image must start exactly one uvicorn"
    return commands[0]


def _makefile_uvicorn_words() -> list[str]:
    """The uvicorn command of the Makefile's ``run`` target."""
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    recipe = re.search(r"^run:.*\n((?:\t.*\n?)+)", text, re.MULTILINE)
    assert recipe, "the Makefile has no run target"
    for line in recipe.group(1).splitlines():
        words = shlex.split(line.strip())
        if words and words[0].endswith("/uvicorn"):
            return words
    raise AssertionError("the Makefile's run target starts no uvicorn")


# ---------------------------------------------------------------------- .dockerignore
def _ignore_patterns() -> list[tuple[bool, re.Pattern[str]]]:
    """(excluded?, regex) per line, in order: Go's filepath.Match plus ``**``, as Docker
    reads .dockerignore (``*`` stops at ``/``, ``!`` re-includes, last match wins)."""
    out = []
    for line in (ROOT / ".dockerignore").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        include = line.startswith("!")
        pattern = line[1:] if include else line
        pattern = pattern.strip("/")
        regex = ""
        i = 0
        while i < len(pattern):
            if pattern.startswith("**/", i):
                regex += "(?:.*/)?"
                i += 3
            elif pattern.startswith("**", i):
                regex += ".*"
                i += 2
            elif pattern[i] == "*":
                regex += "[^/]*"
                i += 1
            elif pattern[i] == "?":
                regex += "[^/]"
                i += 1
            elif pattern[i] == "[":
                end = pattern.index("]", i)
                regex += "[" + pattern[i + 1:end].replace("!", "^", 1) + "]"
                i = end + 1
            else:
                regex += re.escape(pattern[i])
                i += 1
        out.append((not include, re.compile(regex + r"\Z")))
    return out


def _ignored(path: str) -> bool:
    """Whether the build context leaves ``path`` (relative to the repository) out: the
    path itself or one of its parent directories matches."""
    parts = PurePosixPath(path).parts
    for depth in range(1, len(parts) + 1):
        candidate = "/".join(parts[:depth])
        excluded = False
        for exclude, regex in _ignore_patterns():
            if regex.match(candidate):
                excluded = exclude
        if excluded:
            return True
    return False


# ---------------------------------------------------------------------- COPY simulation
@dataclass(frozen=True)
class Copy:
    index: int
    """The index of the COPY/ADD among its stage's instructions."""
    sources: list[str]
    destination: str
    """Absolute; ending in ``/`` when written so."""
    stage: int
    origin: Stage | None
    """The stage copied from (``--from``), or None for the build context."""


def _copies(stage: Stage | None = None) -> list[Copy]:
    """The COPY/ADD instructions of ``stage`` (of every stage when None). The sources of a
    ``--from`` copy are absolute paths in that stage (a relative one starts at its root)."""
    stages = _stages()
    out = []
    for current in [stage] if stage else stages:
        for index, instruction in enumerate(current.instructions):
            if instruction.keyword not in ("COPY", "ADD"):
                continue
            if instruction.arguments.startswith("["):
                words = json.loads(instruction.arguments)
            else:
                words = shlex.split(instruction.arguments)
            flags = [w for w in words if w.startswith("--")]
            words = [w for w in words if not w.startswith("--")]
            origin = None
            for flag in flags:
                if flag.startswith("--from="):
                    named = flag.split("=", 1)[1].lower()
                    earlier = [s for s in stages[:current.index] if s.name == named]
                    assert earlier, f"{instruction.keyword} {flag}: no earlier stage so named"
                    origin = earlier[0]
            assert origin is None or instruction.keyword == "COPY", "ADD takes no --from"
            *sources, destination = words
            if origin is not None:
                sources = [str(PurePosixPath("/") / source) for source in sources]
            target = PurePosixPath(instruction.workdir) / destination
            out.append(Copy(index, sources,
                            str(target) + ("/" if destination.endswith("/") else ""),
                            current.index, origin))
    return out


def _npm_ci(stage: Stage) -> tuple[int, Instruction, list[str]] | None:
    """The RUN of ``stage`` that installs the npm packages: its index, itself, its words."""
    for index, instruction in enumerate(stage.instructions):
        if instruction.keyword != "RUN":
            continue
        for _, words in _shell_commands(_as_shell(_command_words(instruction))):
            if PurePosixPath(words[0]).name == "npm" and "ci" in words:
                return index, instruction, words
    return None


def _directories_of(stage: Stage) -> set[str]:
    """The paths of ``stage`` known to be directories: those it copied a directory of the
    build context to, and the node_modules its ``npm ci`` makes (and its base stage's)."""
    parent = _parent_stage(stage)
    known = _directories_of(parent) if parent else set()
    for copy in _copies(stage):
        if copy.origin is None and len(copy.sources) == 1 and (ROOT / copy.sources[0]).is_dir():
            known.add(str(PurePosixPath(copy.destination)))
        elif copy.origin is not None:
            origin = _directories_of(copy.origin)
            known |= {str(PurePosixPath(copy.destination)) for s in copy.sources if s in origin}
    npm = _npm_ci(stage)
    if npm:
        known.add(str(PurePosixPath(npm[1].workdir) / "node_modules"))
    return known


def _image_paths_before(index: int, stage: Stage | None = None) -> set[str]:
    """Absolute paths in the image of ``stage`` (the final one by default: copied files and
    directories) once the instructions before ``index`` ran; a stage built on an earlier
    one starts with all of that one's."""
    stage = stage or _final_stage()
    parent = _parent_stage(stage)
    paths = _image_paths_before(len(parent.instructions), parent) if parent else set()
    for copy in _copies(stage):
        if copy.index >= index:
            break
        into_directory = copy.destination.endswith("/") or len(copy.sources) > 1
        directories = _directories_of(copy.origin) if copy.origin else set()
        for source in copy.sources:
            is_dir = (ROOT / source).is_dir() if copy.origin is None else source in directories
            if copy.origin is None and source in (".", "./"):
                # The whole context: its top-level entries land in the destination.
                for entry in ROOT.iterdir():
                    if not _ignored(entry.name):
                        paths.add(str(PurePosixPath(copy.destination) / entry.name))
            elif is_dir:
                # A directory's contents land in the destination itself (COPY app . would
                # spread the package over the working directory).
                paths.add(str(PurePosixPath(copy.destination)))
            elif into_directory:
                paths.add(str(PurePosixPath(copy.destination) / PurePosixPath(source).name))
            else:
                paths.add(str(PurePosixPath(copy.destination)))
    return paths


def _pip_install() -> tuple[int, Instruction, list[str]]:
    """The RUN that installs the project: its index, itself and its pip words."""
    for index, instruction in enumerate(_instructions()):
        if instruction.keyword != "RUN":
            continue
        for _, words in _shell_commands(_as_shell(_command_words(instruction))):
            pip = PurePosixPath(words[0]).name.startswith("pip") or words[1:3] == ["-m", "pip"]
            if pip and "install" in words:
                return index, instruction, words
    raise AssertionError("no RUN installs the project with pip")


def _client_stage() -> tuple[Stage, Instruction, list[str], int]:
    """The stage that installs the browser libraries: itself, its ``npm ci`` RUN and words,
    and the RUN's index."""
    found = [(stage, _npm_ci(stage)) for stage in _stages()]
    installing = [(stage, npm) for stage, npm in found if npm]
    assert len(installing) == 1, "expected one stage to run npm ci"
    stage, npm = installing[0]
    assert npm
    index, instruction, words = npm
    return stage, instruction, words, index


def _start_dir() -> PurePosixPath:
    return PurePosixPath([i for i in _instructions()
                          if i.keyword in ("CMD", "ENTRYPOINT")][-1].workdir)


# ---------------------------------------------------------------------- the tests
def test_the_base_image_is_python_3_11_or_newer_as_the_project_requires() -> None:
    stage = _final_stage()
    while (parent := _parent_stage(stage)) is not None:
        stage = parent  # FROM <an earlier stage>: that stage's image
    base = stage.base
    match = re.fullmatch(r"(?:docker\.io/(?:library/)?)?python:(\d+)\.(\d+)[\w.-]*", base)
    assert match, f"expected an official python image with a version tag, got {base}"
    minimum = re.fullmatch(r">=\s*(\d+)\.(\d+)", PYPROJECT["project"]["requires-python"])
    assert minimum, "requires-python is expected as >=X.Y"
    image = (int(match.group(1)), int(match.group(2)))
    assert image >= (3, 11)
    assert image >= (int(minimum.group(1)), int(minimum.group(2)))


def test_every_copied_path_exists_and_is_in_the_build_context() -> None:
    copies = _copies()
    assert copies
    for copy in copies:
        if copy.origin is not None:
            continue  # from an earlier stage, checked with it
        for source in copy.sources:
            if source in (".", "./"):
                continue
            assert not any(c in source for c in "*?["), f"copy named paths, not {source}"
            assert (ROOT / source).exists(), f"COPY {source}: no such path in the repository"
            assert not _ignored(source), f"COPY {source}: .dockerignore leaves it out"


def test_pip_installs_the_project_without_dev_extras_after_copying_what_it_builds_from() -> None:
    index, instruction, words = _pip_install()
    targets = [w for w in words[words.index("install") + 1:] if not w.startswith("-")]
    assert len(targets) == 1, f"install the project alone, not {targets}"
    assert "-e" not in words and "--editable" not in words, "an image installs, not links"
    target = targets[0]
    assert "[" not in target, f"{target}: the image installs no extras (dev tools)"
    source = PurePosixPath(instruction.workdir) / target
    present = _image_paths_before(index)
    # What setuptools reads: the metadata, the readme it names, and the packages it finds.
    needed = ["pyproject.toml", PYPROJECT["project"]["readme"]]
    needed += sorted({pattern.rstrip("*").rstrip(".")
                      for pattern in PYPROJECT["tool"]["setuptools"]["packages"]["find"]
                      ["include"]})
    for name in needed:
        assert (ROOT / name).exists()
        assert str(source / name) in present, f"{name} is not in {source} before pip runs"
        assert not _ignored(name), f".dockerignore leaves {name} out of the build"
    for package, patterns in PYPROJECT["tool"]["setuptools"]["package-data"].items():
        for pattern in patterns:
            folder = ROOT / package.replace(".", "/")
            assert list(folder.glob(pattern)), f"package data {package}/{pattern} is missing"
            for path in folder.glob(pattern):
                assert not _ignored(str(path.relative_to(ROOT))), f"{path} is not in the build"


def test_the_migrations_run_where_alembic_finds_its_config_and_scripts() -> None:
    start_dir = _start_dir()
    present = _image_paths_before(len(_instructions()))
    for name in ("alembic.ini", "migrations", "app"):
        assert str(start_dir / name) in present, f"{name} is not in {start_dir}"
    config = (ROOT / "alembic.ini").read_text()
    assert re.search(r"^script_location\s*=\s*%\(here\)s/migrations\s*$", config, re.MULTILINE)
    assert (ROOT / "migrations" / "env.py").exists()
    assert list((ROOT / "migrations" / "versions").glob("*.py"))


def test_the_pages_and_their_files_are_beside_the_application() -> None:
    """The browser pages are read from the directory holding ``app`` (templates, static):
    the image must have them there, or every page fails."""
    start_dir = _start_dir()
    present = _image_paths_before(len(_instructions()))
    assert str(start_dir / "app") in present
    served = {p.relative_to(ROOT).parts[0] for p in (pages.ROOT / "templates",
                                                      pages.ROOT / "static")}
    assert pages.ROOT == ROOT
    for name in sorted(served):
        assert str(start_dir / name) in present, f"{name} is not in {start_dir}"
        assert not _ignored(name), f".dockerignore leaves {name} out of the build"


def test_the_image_runs_in_production_mode() -> None:
    """Production: no session key or admin password is made up for the operator."""
    environment = dict(
        word.split("=", 1) for env in _instructions() if env.keyword == "ENV"
        for word in shlex.split(env.arguments) if "=" in word)
    assert environment.get("DUEL_ENVIRONMENT") == "production"


def test_the_container_migrates_then_serves_the_makefile_application() -> None:
    commands = _shell_commands(_start_script())
    names = [PurePosixPath(words[0]).name for _, words in commands]
    assert "alembic" in names and "uvicorn" in names
    migrate = names.index("alembic")
    serve = names.index("uvicorn")
    assert commands[migrate][1][1:] == ["upgrade", "head"]
    assert migrate < serve, "the database must be migrated before the server starts"
    assert all(op == "&&" for op, _ in commands[migrate + 1:serve + 1]), (
        "a failed migration must stop the start (join with &&)")
    uvicorn = _uvicorn_words()
    make = _makefile_uvicorn_words()
    assert "--factory" in uvicorn and "--factory" in make
    factory = _option(uvicorn, "--factory")
    assert factory == _option(make, "--factory"), "the image serves another application"
    module, _, name = str(factory).partition(":")
    assert callable(getattr(importlib.import_module(module), name))
    assert _option(uvicorn, "--ws-max-size") == _option(make, "--ws-max-size")
    # The protocol classes that free a closed socket at once and compress without keeping
    # a compressor per socket (app/serving.py).
    for protocol in ("--http", "--ws"):
        assert _option(uvicorn, protocol) == _option(make, protocol)
        module, _, name = str(_option(make, protocol)).partition(":")
        assert module == "app.serving" and hasattr(importlib.import_module(module), name)
    # No "server: uvicorn" on every answer: bytes for nothing, and a hint to an attacker.
    assert "--no-server-header" in uvicorn and "--no-server-header" in make
    # The server alone decides whom to believe of X-Forwarded-For (DUEL_TRUSTED_PROXIES):
    # uvicorn's own belief (from 127.0.0.1, by default) would let a local client pose as
    # any address to the login throttle and the limits (docs/security.md).
    assert "--no-proxy-headers" in uvicorn and "--no-proxy-headers" in make
    assert _option(uvicorn, "--host") == "0.0.0.0", "only 0.0.0.0 is reachable from outside"


def test_the_exposed_port_is_the_one_uvicorn_listens_on() -> None:
    exposed = {port.split("/")[0] for port in _only("EXPOSE").arguments.split()}
    assert exposed == {_option(_uvicorn_words(), "--port")}


def test_the_server_runs_as_a_user_the_image_creates_not_root() -> None:
    instructions = _instructions()
    users = [(i, ins) for i, ins in enumerate(instructions) if ins.keyword == "USER"]
    assert users, "the container would run as root"
    at, user = users[-1]
    name = user.arguments.split(":")[0]
    assert name not in ("root", "0")
    start = max(i for i, ins in enumerate(instructions) if ins.keyword in ("CMD", "ENTRYPOINT"))
    assert at < start
    if not name.isdigit():
        created = [ins for ins in instructions[:at] if ins.keyword == "RUN"
                   and re.search(rf"\b(useradd|adduser)\b.*\b{re.escape(name)}\b", ins.arguments)]
        assert created, f"USER {name} is never created"


def test_the_build_context_leaves_out_environments_caches_and_data() -> None:
    for path in (".git", ".venv", "build", ".pytest_cache", ".mypy_cache", ".ruff_cache",
                 "duel.db", "app/engine/__pycache__", "test-output", "node_modules"):
        assert _ignored(path), f"{path} would be sent to the Docker build"
    for path in ("pyproject.toml", "README.md", "alembic.ini", "app/main.py",
                 "app/engine/data/duel.toml", "migrations/env.py", "package.json",
                 "package-lock.json"):
        assert not _ignored(path), f"{path} would be missing from the build"


def test_the_client_stage_installs_the_locked_libraries_with_npm_ci() -> None:
    """``npm ci`` installs exactly what package-lock.json pins (and fails when it does not
    match package.json), so the image serves the libraries the tests ran with."""
    client, npm, words, index = _client_stage()
    assert client.index < _final_stage().index, "npm belongs in a stage of its own"
    assert client.name, "the final stage copies from the client stage by its name"
    assert re.fullmatch(r"(?:docker\.io/(?:library/)?)?node:\d+[\w.-]*", client.base), (
        f"expected an official node image with a version tag, got {client.base}")
    assert "--omit=dev" in words, "the image needs no development packages"
    present = _image_paths_before(index, client)
    for name in ("package.json", "package-lock.json"):
        assert (ROOT / name).is_file(), f"{name} is not in the repository"
        assert not _ignored(name), f".dockerignore leaves {name} out of the build"
        assert str(PurePosixPath(npm.workdir) / name) in present, (
            f"{name} is not in {npm.workdir} before npm ci runs")
    for instruction in client.instructions:
        if instruction.keyword == "RUN":
            for _, command in _shell_commands(_as_shell(_command_words(instruction))):
                assert not (PurePosixPath(command[0]).name == "npm"
                            and command[1:2] in (["install"], ["i"])), (
                    "npm install may stray from the lockfile; npm ci does not")


def test_the_image_gets_node_modules_from_the_client_stage_beside_the_pages() -> None:
    """The server reads the npm libraries from the directory holding ``app`` (app/api/
    pages.py: VENDOR), as it does ``static``: the image has there what ``npm ci`` made."""
    client, npm, _, _ = _client_stage()
    installed = str(PurePosixPath(npm.workdir) / "node_modules")
    start_dir = _start_dir()
    assert pages.ROOT == ROOT
    vendor = pages.VENDOR.directory.relative_to(ROOT)
    assert vendor.parent == pages.STATIC.directory.relative_to(ROOT).parent, (
        "node_modules is read from beside static")
    expected = str(start_dir / vendor)
    final = _final_stage()
    # A directory's contents land in the destination itself, trailing slash or not.
    placed = [copy.destination.rstrip("/") for copy in _copies(final)
              if copy.origin == client and installed in copy.sources]
    assert placed == [expected], (
        f"expected {installed} of stage {client.name} copied to {expected}, got {placed}")
    assert expected in _image_paths_before(len(final.instructions))
    assert str(start_dir / "static") in _image_paths_before(len(final.instructions))
    # The developer's node_modules stays out of the build: the image's comes from npm ci.
    assert _ignored(str(vendor)), ".dockerignore should leave the local node_modules out"


def test_every_vendor_module_comes_from_a_dependency_pinned_as_locked() -> None:
    """Each file served at /vendor belongs to a package package.json depends on (not a dev
    one: npm ci --omit=dev leaves those out), pinned to the version the lockfile installs."""
    manifest = json.loads((ROOT / "package.json").read_text())
    lock = json.loads((ROOT / "package-lock.json").read_text())
    dependencies: dict[str, str] = manifest.get("dependencies", {})
    # npm ci refuses a lockfile that does not match package.json.
    assert lock["packages"][""].get("dependencies", {}) == dependencies
    assert VENDOR_MODULES
    for specifier, path in VENDOR_MODULES.items():
        parts = PurePosixPath(path).parts
        assert ".." not in parts and not PurePosixPath(path).is_absolute(), path
        package = "/".join(parts[:2]) if parts[0].startswith("@") else parts[0]
        assert specifier == package or specifier.startswith(package + "/"), (
            f"{specifier} is mapped to a file of another package ({path})")
        assert package in dependencies, f"{path}: package.json does not depend on {package}"
        locked = lock["packages"].get(f"node_modules/{package}")
        assert locked, f"package-lock.json does not lock {package}"
        assert not locked.get("dev"), f"{package} is locked as a development package"
        assert dependencies[package] == locked["version"], (
            f"package.json asks for {package} {dependencies[package]}, "
            f"the lockfile has {locked['version']}: pin it exactly")


# ---------------------------------------------------------------------- docker-compose.yml
@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert isinstance(data, dict)
    return data


def _environment(service: dict[str, Any]) -> dict[str, str]:
    """A service's environment, written as a mapping or as a list of NAME=value."""
    environment = service.get("environment", {})
    if isinstance(environment, list):
        return dict(item.split("=", 1) for item in environment)
    return {key: str(value) for key, value in environment.items()}


def test_compose_runs_two_replicas_behind_a_proxy_on_one_database(
        compose: dict[str, Any]) -> None:
    assert set(compose["services"]) == {"proxy", "app", "migrate", "db"}
    app = compose["services"]["app"]
    for name in ("app", "migrate"):  # both from this repository's image
        build = compose["services"][name]["build"]
        context = build if isinstance(build, str) else build.get("context", ".")
        assert context in (".", "./"), f"{name} is built from this repository"
        if isinstance(build, dict) and "dockerfile" in build:
            assert build["dockerfile"] == "Dockerfile"
    assert app["deploy"]["replicas"] >= 2
    assert "ports" not in app, "replicas are reached through the proxy, not a host port"
    assert compose["services"]["db"]["image"].split(":")[0] == "postgres"
    assert compose["services"]["proxy"]["image"].split(":")[0] == "caddy"
    # The replicas believe the proxy's X-Forwarded-For, and no one else's.
    trusted = parse_networks(_environment(app)["DUEL_TRUSTED_PROXIES"])
    [subnet] = [ip_network(pool["subnet"]) for pool in
                compose["networks"]["default"]["ipam"]["config"]]
    assert trusted == (subnet,) and subnet.is_private


def test_the_proxy_sends_to_every_replica_on_the_port_the_image_serves(
        compose: dict[str, Any]) -> None:
    proxy = compose["services"]["proxy"]
    ports = [str(p) for p in proxy["ports"]]
    assert ports == ["8000:8000"]
    public = urlsplit(_environment(compose["services"]["app"])["DUEL_PUBLIC_URL"])
    assert public.port == int(ports[0].split(":")[0]), "invite links must reach the proxy"
    [mount] = proxy["volumes"]
    source, target = str(mount).split(":")[:2]
    assert target == "/etc/caddy/Caddyfile"
    caddyfile = (ROOT / source).read_text()
    assert re.search(r"^:" + ports[0].split(":")[1] + r" \{", caddyfile, re.M), \
        "the proxy listens on the published port"
    # Every replica, by Docker's DNS name of the service, on uvicorn's port.
    found = re.search(r"dynamic a (\S+) (\d+)", caddyfile)
    assert found, "the proxy must look the replicas up (one name, every address)"
    assert found.group(1) == "app" and found.group(2) == _option(_uvicorn_words(), "--port")
    assert proxy["depends_on"]["app"]["condition"] == "service_healthy"


def test_the_database_is_migrated_once_before_the_replicas_start(
        compose: dict[str, Any]) -> None:
    migrate = compose["services"]["migrate"]
    assert migrate["command"] == ["alembic", "upgrade", "head"]
    depends = compose["services"]["app"]["depends_on"]
    assert depends["migrate"]["condition"] == "service_completed_successfully"
    assert _environment(migrate)["DUEL_DATABASE_URL"] == \
        _environment(compose["services"]["app"])["DUEL_DATABASE_URL"]
    check = " ".join(compose["services"]["app"]["healthcheck"]["test"])
    assert "/readyz" in check, "a replica is healthy once ready (database migrated)"


def test_the_app_reaches_the_db_service_with_its_credentials(compose: dict[str, Any]) -> None:
    environment = _environment(compose["services"]["app"])
    db = _environment(compose["services"]["db"])
    url = urlsplit(environment["DUEL_DATABASE_URL"])
    assert url.scheme == "postgresql+asyncpg", "the server needs SQLAlchemy's async driver"
    assert url.hostname == "db" and url.hostname in compose["services"]
    assert url.port in (None, 5432)
    assert url.username == db["POSTGRES_USER"]
    assert url.password == db["POSTGRES_PASSWORD"]
    assert url.path.lstrip("/") == db["POSTGRES_DB"]
    # The URL is one the server accepts: the engine is built (no connection is made).
    make_engine(environment["DUEL_DATABASE_URL"]).sync_engine.dispose()


def test_every_app_setting_is_one_the_server_reads(compose: dict[str, Any]) -> None:
    # Settings ignore unknown variables, so a misspelt one would silently do nothing.
    known = {f"DUEL_{name.upper()}" for name in Settings.model_fields}
    environment = _environment(compose["services"]["app"])
    assert set(environment) <= known, set(environment) - known
    settings = Settings(**{k.removeprefix("DUEL_").lower(): v for k, v in environment.items()})
    assert settings.database_url == environment["DUEL_DATABASE_URL"]


def test_compose_asks_the_operator_for_the_secrets(compose: dict[str, Any]) -> None:
    environment = _environment(compose["services"]["app"])
    assert environment["DUEL_ENVIRONMENT"] == "production"
    # ${VAR:?message}: compose refuses to start without it; nothing secret is written here.
    assert re.fullmatch(r"\$\{DUEL_SECRET_KEY:\?[^}]+\}", environment["DUEL_SECRET_KEY"])
    assert re.fullmatch(r"\$\{DUEL_ADMIN_PASSWORD(:-)?\}", environment["DUEL_ADMIN_PASSWORD"])


def test_the_app_waits_for_a_healthy_database(compose: dict[str, Any]) -> None:
    depends = compose["services"]["app"]["depends_on"]
    assert isinstance(depends, dict), "the short list form does not wait for health"
    assert depends["db"]["condition"] == "service_healthy"
    db = compose["services"]["db"]
    test = db["healthcheck"]["test"]
    check = test if isinstance(test, str) else " ".join(test[1:])
    if isinstance(test, list):
        assert test[0] in ("CMD", "CMD-SHELL")
    assert "pg_isready" in check
    environment = _environment(db)
    assert _option(shlex.split(check), "-U") == environment["POSTGRES_USER"]
    assert _option(shlex.split(check), "-d") == environment["POSTGRES_DB"]


def test_the_database_keeps_its_data_in_a_named_volume(compose: dict[str, Any]) -> None:
    mounts = compose["services"]["db"]["volumes"]
    named = {str(m).split(":")[0]: str(m).split(":")[1] for m in mounts}
    volumes = compose.get("volumes") or {}
    assert any(source in volumes and target == "/var/lib/postgresql/data"
               for source, target in named.items()), "the data would die with the container"
