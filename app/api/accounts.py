"""Accounts, optional (``docs/lobby.md``, Accounts): register, log in and out, change the
password, log out everywhere. A guest keeps playing as before without one."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict

from app import i18n
from app.services.accounts import PASSWORD_MAX, PASSWORD_MIN, USERNAME, Client, Login

from .clients import client_address
from .identity import (
    forget_player,
    hold_player,
    login_devices,
    player_id_of,
    remember_device,
)
from .players import Accounts, Me
from .refusals import refusals

router = APIRouter(prefix="/api", tags=["players"])


PASSWORD_READ = 4 * PASSWORD_MAX
"""Longer than this, a password is not even read (invalid_request); up to it, one over
PASSWORD_MAX is refused by its rule (weak_password, long)."""


USERNAME_RULES = "3 to 24 letters, digits, - or _ (else 422 bad_username)"
PASSWORD_RULES = (f"{PASSWORD_MIN} to {PASSWORD_MAX} characters, and not too easy to guess "
                  "(a common password, a repeat, a keyboard run, the username with a number), "
                  "which the schema cannot say: else 422 weak_password (params.cause: short, "
                  "long or common)")
NEW_PASSWORD_SCHEMA: JsonDict = {"minLength": PASSWORD_MIN, "maxLength": PASSWORD_MAX}
"""A new password's length as the server checks it (to refuse with ``weak_password``)."""


class Credentials(BaseModel):
    """A login: any username and password are tried (a wrong one is 401 bad_login)."""

    model_config = ConfigDict(strict=True)

    username: str = Field(min_length=1, max_length=100)
    password: str = Field(max_length=PASSWORD_READ)


class NewAccount(BaseModel):
    model_config = ConfigDict(strict=True)

    username: str = Field(min_length=1, max_length=100, description=USERNAME_RULES,
                          json_schema_extra={"pattern": f"^{USERNAME.pattern}$",
                                             "minLength": 3, "maxLength": 24})
    password: str = Field(max_length=PASSWORD_READ, description=PASSWORD_RULES,
                          json_schema_extra=NEW_PASSWORD_SCHEMA)


class NewPassword(BaseModel):
    model_config = ConfigDict(strict=True)

    current_password: str = Field(max_length=PASSWORD_READ)
    new_password: str = Field(max_length=PASSWORD_READ, description=PASSWORD_RULES,
                              json_schema_extra=NEW_PASSWORD_SCHEMA)


class Confirm(BaseModel):
    """An empty JSON object: a change must come as JSON, which no form can post."""

    model_config = ConfigDict(strict=True, extra="forbid")



def _client(request: Request) -> Client:
    return Client(client_address(request, request.app.state.settings.proxy_networks),
                  login_devices(request))


def _logged_in(request: Request, response: Response, login: Login) -> Me:
    """The session now holds the account, and this browser as one the account knows (its
    own mistakes with the password, from now on, are counted apart). The account's language
    becomes this browser's."""
    if login.player.language in i18n.LANGUAGES:
        i18n.set_cookie(request, response, login.player.language)
    hold_player(request, login.player.player_id, login.epoch)
    remember_device(request, login.account)
    return Me(**login.player.me_json())


@router.post("/account", status_code=201, responses=refusals(400, 409, 422, 429))
async def register(body: NewAccount, request: Request, response: Response,
                   accounts: Accounts) -> Me:
    """Register this browser's player (a guest: their games stay theirs; none yet: a new
    player named after the username). The browser is then logged in."""
    login = await accounts.register(player_id_of(request), body.username, body.password,
                                    _client(request), language=i18n.picked(request))
    return _logged_in(request, response, login)


@router.post("/login", responses=refusals(400, 401, 422, 429))
async def log_in(body: Credentials, request: Request, response: Response,
                 accounts: Accounts) -> Me:
    """Log in to an account; a guest's games in this browser become the account's."""
    login = await accounts.login(body.username, body.password, _client(request),
                                 guest_id=player_id_of(request),
                                 language=i18n.picked(request))
    return _logged_in(request, response, login)


@router.post("/logout-everywhere", status_code=204, responses=refusals(400, 401, 422))
async def log_out_everywhere(_confirm: Confirm, request: Request,
                             accounts: Accounts) -> Response:
    """End every session of this account, in every browser, this one included."""
    await accounts.log_out_everywhere(player_id_of(request))
    forget_player(request)
    return Response(status_code=204)


@router.put("/account/password", responses=refusals(400, 401, 422, 429))
async def change_password(body: NewPassword, request: Request, response: Response,
                          accounts: Accounts) -> Me:
    """A new password: every other session of the account ends, this one goes on."""
    login = await accounts.change_password(player_id_of(request), body.current_password,
                                           body.new_password, _client(request))
    return _logged_in(request, response, login)
