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
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml  # PyYAML comes with uvicorn[standard], a dependency of the project

from app.api import pages
from app.config import Settings
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


def _instructions() -> list[Instruction]:
    """The Dockerfile's instructions, continuation lines joined, comments dropped, each
    with the WORKDIR it runs in."""
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
    out = []
    workdir = "/"
    for text in logical:
        keyword, _, arguments = text.partition(" ")
        keyword = keyword.upper()
        arguments = arguments.strip()
        if keyword == "WORKDIR":
            workdir = str(PurePosixPath(workdir) / arguments)
        out.append(Instruction(keyword, arguments, workdir))
    return out


def _only(keyword: str) -> Instruction:
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
def _copies() -> list[tuple[int, list[str], str]]:
    """(index of the instruction, sources, absolute destination) per COPY/ADD from the
    build context."""
    out = []
    for index, instruction in enumerate(_instructions()):
        if instruction.keyword not in ("COPY", "ADD"):
            continue
        if instruction.arguments.startswith("["):
            words = json.loads(instruction.arguments)
        else:
            words = shlex.split(instruction.arguments)
        assert not any(w.startswith("--from") for w in words), "no multi-stage build expected"
        words = [w for w in words if not w.startswith("--")]
        *sources, destination = words
        target = PurePosixPath(instruction.workdir) / destination
        out.append((index, sources, str(target) + ("/" if destination.endswith("/") else "")))
    return out


def _image_paths_before(index: int) -> set[str]:
    """Absolute paths in the image (copied files and directories) once the instructions
    before ``index`` ran."""
    paths: set[str] = set()
    for at, sources, destination in _copies():
        if at >= index:
            break
        into_directory = destination.endswith("/") or len(sources) > 1
        for source in sources:
            if source in (".", "./"):
                # The whole context: its top-level entries land in the destination.
                for entry in ROOT.iterdir():
                    if not _ignored(entry.name):
                        paths.add(str(PurePosixPath(destination) / entry.name))
            elif (ROOT / source).is_dir():
                # A directory's contents land in the destination itself (COPY app . would
                # spread the package over the working directory).
                paths.add(str(PurePosixPath(destination)))
            elif into_directory:
                paths.add(str(PurePosixPath(destination) / PurePosixPath(source).name))
            else:
                paths.add(str(PurePosixPath(destination)))
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


# ---------------------------------------------------------------------- the tests
def test_the_base_image_is_python_3_11_or_newer_as_the_project_requires() -> None:
    base = _only("FROM").arguments.split()[0]
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
    for _, sources, _ in copies:
        for source in sources:
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
    start_dir = PurePosixPath([i for i in _instructions()
                               if i.keyword in ("CMD", "ENTRYPOINT")][-1].workdir)
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
    start_dir = PurePosixPath([i for i in _instructions()
                               if i.keyword in ("CMD", "ENTRYPOINT")][-1].workdir)
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
                 "duel.db", "app/engine/__pycache__", "test-output"):
        assert _ignored(path), f"{path} would be sent to the Docker build"
    for path in ("pyproject.toml", "README.md", "alembic.ini", "app/main.py",
                 "app/engine/data/duel.toml", "migrations/env.py"):
        assert not _ignored(path), f"{path} would be missing from the build"


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


def test_compose_runs_the_app_and_its_database(compose: dict[str, Any]) -> None:
    assert set(compose["services"]) == {"app", "db"}
    app = compose["services"]["app"]
    build = app["build"]
    context = build if isinstance(build, str) else build.get("context", ".")
    assert context in (".", "./"), "the app is built from this repository"
    if isinstance(build, dict) and "dockerfile" in build:
        assert build["dockerfile"] == "Dockerfile"
    assert compose["services"]["db"]["image"].split(":")[0] == "postgres"


def test_compose_publishes_the_port_the_image_serves(compose: dict[str, Any]) -> None:
    ports = [str(p) for p in compose["services"]["app"]["ports"]]
    assert ports == ["8000:8000"]
    container_port = ports[0].split(":")[-1]
    assert container_port == _option(_uvicorn_words(), "--port")
    public = urlsplit(_environment(compose["services"]["app"])["DUEL_PUBLIC_URL"])
    assert public.port == int(ports[0].split(":")[0]), "invite links must reach the server"


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
