"""The languages the site speaks, and which one a request gets.

- Pages are Jinja2 templates whose words go through ``{% trans %}``/``_()`` (Jinja2's i18n
  extension); the translations are Babel catalogs, ``app/locales/<code>/LC_MESSAGES/messages.po``
  (``make messages`` extracts the English and updates them). They are compiled in memory when
  first used: the repository holds no compiled ``.mo`` files.
- The browser's words are the catalogs ``static/js/words/<code>*.js``, keyed by the codes
  the server sends; a page tells its scripts the language with ``<html data-language>``.
- Names of cards, wonders and tokens: ``app/engine/data/names/<code>.toml`` (app/api/catalog.py).

A request's language: the ``lang`` cookie (set by the picker every page shows, and from the
account at login), else the best match of ``Accept-Language``, else English.

The pseudo-locale ``qps`` (tests only, when ``Settings.pseudo_locale`` is on) shows every
translated word marked ``⟦…⟧`` and accented, so a scan of a rendered page finds any word that
did not go through a catalog.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from functools import cache
from gettext import NullTranslations
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations
from jinja2 import pass_context
from jinja2.runtime import Context
from starlette.requests import Request
from starlette.responses import Response

from app.config import Settings
from app.services.errors import ServiceError

LOCALES = Path(__file__).resolve().parent / "locales"
COOKIE = "lang"
"""The cookie that remembers a browser's choice (a year)."""


@dataclass(frozen=True, slots=True)
class Language:
    code: str
    """Our code: the cookie's value, the catalogs' names."""
    native: str
    """Its name in itself, for the picker."""
    tag: str
    """BCP 47: ``<html lang>``, and the locale of the page's ``Intl`` formats."""
    catalogs: str = ""
    """Whose catalogs it reads, if another language's (the pseudo-locale reads English's)."""

    @property
    def catalog_code(self) -> str:
        return self.catalogs or self.code


LANGUAGES: dict[str, Language] = {language.code: language for language in (
    Language("en", "English", "en"),
    Language("ro", "Română", "ro"),
    Language("sr", "Srpski", "sr-Latn"),  # Latin script, as the Serbian rulebook
    Language("pt", "Português", "pt-BR"),  # Brazilian, as the Portuguese rulebook
    Language("hu", "Magyar", "hu"),
)}
DEFAULT = "en"
PSEUDO = Language("qps", "Pseudo", "en", catalogs="en")
"""Not offered: English marked, for the tests that look for unmarked words."""


def accepted(header: str | None) -> str | None:
    """The language of ours an ``Accept-Language`` header prefers most, if any: tags by
    their quality (``q``, 1 when absent; 0 refuses), ties in the header's order, each
    matched by its primary subtag (``pt-PT`` asks for ``pt``)."""
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        primary = tag.strip().split("-")[0].lower()
        if quality > 0 and primary in LANGUAGES:
            ranked.append((-quality, position, primary))
    return min(ranked)[2] if ranked else None


def language_of(request: Request) -> Language:
    """The language this request's page is in (see the module's text)."""
    chosen = request.cookies.get(COOKIE, "")
    if offered(request, chosen):
        return LANGUAGES.get(chosen, PSEUDO)
    return LANGUAGES[accepted(request.headers.get("accept-language")) or DEFAULT]


def picked(request: Request) -> str | None:
    """The language this browser picked (the cookie), if it is one of ours."""
    code = request.cookies.get(COOKIE)
    return code if code in LANGUAGES else None


def set_cookie(request: Request, response: Response, code: str) -> None:
    """Remember a browser's choice for a year (the page's scripts never read it; HTTPS
    only where the site is served over HTTPS)."""
    settings: Settings = request.app.state.settings
    response.set_cookie(COOKIE, code, max_age=365 * 24 * 3600, httponly=True, samesite="lax",
                        secure=settings.secure_cookies)


def offered(request: Request, code: str) -> bool:
    """Whether a page may be in this language here (the pseudo-locale only where allowed)."""
    return code in LANGUAGES or (code == PSEUDO.code and pseudo_allowed(request))


def require_offered(request: Request, code: str) -> None:
    """Refuse a language not offered here (``not_found``)."""
    if not offered(request, code):
        raise ServiceError("not_found", f"no language {code[:20]!r}", 404)


def pseudo_allowed(request: Request) -> bool:
    """The pseudo-locale where the settings ask for it, and never in production."""
    settings: Settings = request.app.state.settings
    return settings.pseudo_locale and not settings.production


@cache
def translations(code: str) -> NullTranslations:
    """The compiled catalog of a language (English, the source, has none)."""
    if code == DEFAULT:
        return NullTranslations()
    path = LOCALES / code / "LC_MESSAGES" / "messages.po"  # one for each of ours: tested
    with path.open("rb") as source:
        catalog = read_po(source, locale=code)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled)


_KEPT = re.compile(r"%\([a-z_]+\)[sd]|%%|\{[a-z_]+\}|<[^>]*>|&[a-z#0-9]+;")
"""What the pseudo-locale leaves as it is: placeholders, markup and entities."""
_ACCENTED = str.maketrans("aceinosuyACEINOSUY", "áçéîñöšüýÁÇÉÎÑÖŠÜÝ")
OPEN, CLOSE = "⟦", "⟧"


def pseudo(text: str) -> str:
    """English marked and accented: ``Open games`` → ``⟦Öpéñ gáméš⟧``."""
    parts: list[str] = []
    end = 0
    for kept in _KEPT.finditer(text):
        parts.append(text[end:kept.start()].translate(_ACCENTED))
        parts.append(kept.group())
        end = kept.end()
    parts.append(text[end:].translate(_ACCENTED))
    return f"{OPEN}{''.join(parts)}{CLOSE}"


def gettext(code: str, message: str) -> str:
    if code == PSEUDO.code:
        return pseudo(message)
    return translations(code).gettext(message)


def ngettext(code: str, singular: str, plural: str, n: int) -> str:
    if code == PSEUDO.code:
        return pseudo(singular if n == 1 else plural)
    return translations(code).ngettext(singular, plural, n)


@pass_context
def _template_gettext(context: Context, message: str) -> str:
    return gettext(context.get("language", DEFAULT), message)


@pass_context
def _template_ngettext(context: Context, singular: str, plural: str, n: int) -> str:
    return ngettext(context.get("language", DEFAULT), singular, plural, n)


@pass_context
def _template_number(context: Context, value: int) -> str:
    """A figure as the page's language writes it (``1 234`` in Hungarian), by Babel."""
    return format_decimal(value, locale=context.get("html_lang", DEFAULT).replace("-", "_"))


def install(environment: Any) -> None:
    """Jinja2's i18n extension on an environment, translating into each page's
    ``language`` (put there by :func:`language_context`), and the ``number`` filter."""
    environment.filters["number"] = _template_number
    environment.add_extension("jinja2.ext.i18n")
    # A message's line breaks and indents are the template's, not the message's.
    environment.policies["ext.i18n.trimmed"] = True
    environment.install_gettext_callables(_template_gettext, _template_ngettext, newstyle=True)


def language_context(request: Request) -> dict[str, Any]:
    """A Jinja2 context processor: the page's ``language`` (code, name in itself, tag, whose
    catalogs) and the picker's ``languages``."""
    language = language_of(request)
    return {"language": language.code, "language_native": language.native,
            "html_lang": language.tag, "catalog_language": language.catalog_code,
            "languages": list(LANGUAGES.values())}
