"""The browser pages: the lobby at home (a name, quick match, creating a game, the live
lists), join (the invite link), game. Jinja2 templates from ``templates/``; scripts and
styles are ES modules and CSS files under ``static/``."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

ROOT = Path(__file__).resolve().parents[2]
templates = Jinja2Templates(directory=ROOT / "templates")
router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "home.html", {"title": "Duel, online"})


@router.get("/join/{game_id}", response_class=HTMLResponse)
async def join(request: Request, game_id: str) -> HTMLResponse:
    return templates.TemplateResponse(request, "join.html",
                                      {"title": "Join a game", "game_id": game_id})


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game(request: Request, game_id: str) -> HTMLResponse:
    return templates.TemplateResponse(request, "game.html",
                                      {"title": "7 Wonders Duel", "game_id": game_id})
