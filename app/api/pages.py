"""The browser pages: the lobby at home (a name, quick match, creating a game, the live
lists), join (the invite link), game, replay; the leaderboard, a player's profile and the
site's statistics (drawn by their scripts from app/api/standings.py's routes). Jinja2
templates from ``templates/``; scripts and styles are ES modules and CSS files under
``static/``, named in the templates by ``static_url(path)`` (a URL that changes with the
file's content) and reached by the modules through the page's ``import_map()`` (see
app/api/delivery.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool

from app import i18n
from app.services.players import PlayerService

from .bundles import Bundle, Bundler
from .delivery import PAGE_HEADERS, VENDOR_MODULES, Fingerprints, Minifier, vendor_import_map
from .identity import player_id_of, renew_session
from .security import local_path, nonce_context

ROOT = Path(__file__).resolve().parents[2]
STATIC = Fingerprints(ROOT / "static", "/static")
"""The files served at ``/static`` (app/main.py mounts them)."""
VENDOR = Fingerprints(ROOT / "node_modules", "/vendor")
"""The browser libraries from npm, served at ``/vendor`` (only ``VENDOR_MODULES``)."""
MINIFIER = Minifier.from_node_modules(ROOT / "node_modules")
"""One per process: each file is minified once, whichever application serves it."""
# Every template may write ``nonce="{{ csp_nonce }}"`` on an inline script (app/api/security.py).
# Every page is in the request's language (app/i18n.py): ``{% trans %}`` and ``_()`` translate.
templates = Jinja2Templates(directory=ROOT / "templates",
                            context_processors=[nonce_context, i18n.language_context])
i18n.install(templates.env)
templates.env.globals["static_url"] = STATIC.url
templates.env.globals["words_base"] = f"{STATIC.prefix}/js/words/"
"""Where static/js/words.js finds the catalogs (``<html data-words>``)."""


def scripts_of(template: str) -> list[str]:
    """The modules a template's page loads itself (``page_script("js/…")``), under static/."""
    return re.findall(r"""page_script\(['"](js/[^'"]+\.js)['"]\)""", template)


PAGE_SCRIPTS = frozenset(
    name for template in (ROOT / "templates").rglob("*.html")
    for name in scripts_of(template.read_text()))
"""The modules a page loads itself (by its fingerprinted URL): no module imports them, so
the import map (which every page carries) need not name them."""
BUNDLER = Bundler(MINIFIER.binary, ROOT, STATIC, scripts=PAGE_SCRIPTS, vendor=VENDOR,
                  libraries=VENDOR_MODULES.values())
"""One per process, as the minifier: the page scripts bundled (app/api/bundles.py), for
the applications that send their files minified."""


def _bundle(context: Context) -> Bundle | None:
    """The bundles a page is drawn with: its application's last build, if it bundles."""
    request = context.get("request")
    bundler = getattr(request.app.state, "bundler", None) if request is not None else None
    return bundler.current if isinstance(bundler, Bundler) else None


@pass_context
def page_script(context: Context, script: str) -> Markup:
    """The page's own module (``js/….js``): its bundle, with the chunks the bundle imports
    asked for at once (``modulepreload``), or else the module as written."""
    bundle = _bundle(context)
    entry = bundle.entry_url(script) if bundle is not None else None
    if bundle is None or entry is None:
        return Markup('<script type="module" src="{}"></script>').format(STATIC.url(script))
    preloads = Markup("").join(Markup('<link rel="modulepreload" href="{}">\n').format(url)
                               for url in bundle.preload_urls(script))
    return preloads + Markup('<script type="module" src="{}"></script>').format(entry)


templates.env.globals["page_script"] = page_script


WORDS = re.compile(r"js/words/([a-z]+)(?:-[a-z]+)?\.js")
"""A catalog of words: ``js/words/<language>.js`` or ``js/words/<language>-<part>.js``."""
CATALOG_LANGUAGES = frozenset(language.catalog_code for language in i18n.LANGUAGES.values())


def words_of_others(language: str) -> frozenset[str]:
    """The catalogs of words of every language but ``language``: a page imports only its
    own language's (static/js/words.js), so its import map need not name the others'
    (about 30 of its 70 entries, and half its bytes once compressed)."""
    found = (WORDS.fullmatch(path.relative_to(STATIC.directory).as_posix())
             for path in (STATIC.directory / "js" / "words").glob("*.js"))
    return frozenset(match.group(0) for match in found if match is not None
                     and match.group(1) in CATALOG_LANGUAGES and match.group(1) != language)


@pass_context
def import_map(context: Context) -> dict[str, dict[str, str]]:
    """The page's import map: our modules by URL (its own language's words only), the npm
    libraries by bare specifier; with bundles, only the words, the one thing the bundles
    ask for by URL."""
    language = context.get("catalog_language")
    others = words_of_others(language) if isinstance(language, str) else frozenset()
    if _bundle(context) is not None:
        return STATIC.import_map(under="js/words", leave_out=others)
    ours = STATIC.import_map(leave_out=PAGE_SCRIPTS | others)
    return {"imports": {**ours["imports"], **vendor_import_map(VENDOR)}}


templates.env.globals["import_map"] = import_map
router = APIRouter(include_in_schema=False)


async def refresh_bundles(request: Request) -> None:
    """The application's bundles brought up to date with the scripts, off the event loop
    (a build runs esbuild), before a page that names them is drawn."""
    bundler = getattr(request.app.state, "bundler", None)
    if isinstance(bundler, Bundler):
        await run_in_threadpool(bundler.refresh)


async def _render(request: Request, name: str, context: dict[str, Any]) -> HTMLResponse:
    """A player's page, with the player in it: the header names them from the first paint,
    and the scripts read it from the page instead of asking ``GET /api/me``."""
    await refresh_bundles(request)
    players: PlayerService = request.app.state.players
    player = await players.get(player_id_of(request))
    if player is not None:
        renew_session(request)
    return templates.TemplateResponse(
        request, name, {**context, "player": player.me_json() if player else None},
        headers=PAGE_HEADERS)


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    return await _render(request, "home.html", {})


@router.get("/my-games", response_class=HTMLResponse)
async def my_games(request: Request) -> HTMLResponse:
    return await _render(request, "my_games.html", {})


@router.get("/account", response_class=HTMLResponse)
async def account(request: Request) -> HTMLResponse:
    return await _render(request, "account.html", {})


@router.get("/replay/{game_id}", response_class=HTMLResponse)
async def replay(request: Request, game_id: str) -> HTMLResponse:
    return await _render(request, "replay.html", {"game_id": game_id})


@router.get("/leaderboard", response_class=HTMLResponse)
async def leaderboard(request: Request) -> HTMLResponse:
    return await _render(request, "leaderboard.html", {})


@router.get("/players/{username}", response_class=HTMLResponse)
async def profile(request: Request, username: str) -> HTMLResponse:
    # The script says when no such player exists: the page itself is the same for all.
    return await _render(request, "profile.html", {"username": username})


@router.get("/stats", response_class=HTMLResponse)
async def stats(request: Request) -> HTMLResponse:
    return await _render(request, "stats.html", {})


@router.get("/join/{game_id}", response_class=HTMLResponse)
async def join(request: Request, game_id: str) -> HTMLResponse:
    return await _render(request, "join.html", {"game_id": game_id})


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game(request: Request, game_id: str) -> HTMLResponse:
    return await _render(request, "game.html", {"game_id": game_id})


@router.get("/how-to-play", response_class=HTMLResponse)
async def how_to_play(request: Request) -> HTMLResponse:
    return await _render(request, "how_to_play.html", {})


@router.get("/language/{code}")
async def choose_language(request: Request, code: str, next: str | None = None) -> Response:
    """The picker's links: this browser's language from now on (a cookie; an account keeps
    it too), then back to the page it was picked on. An unknown code is refused
    (``not_found``) and changes nothing."""
    i18n.require_offered(request, code)
    response = RedirectResponse(local_path(next) or "/", 303)
    i18n.set_cookie(request, response, code)
    if code in i18n.LANGUAGES:
        players: PlayerService = request.app.state.players
        await players.remember_language(player_id_of(request), code)
    return response
