"""Motion on the game page (static/js/table/motion.js, static/css/table.css).

- A live move that takes a card from the structure (here a discard, sent by the other
  seat over its own socket) makes the page fly a copy of the card: a ``.bd-flying``
  element appended to ``body``, hidden from assistive technology and nothing a test or a
  player could take for a control (neither it nor anything in it is a
  ``button[data-card]`` or an ``[data-action]``, and clicks go through it); animations
  run right after the update is drawn (``document.getAnimations()``), and the copy is gone
  once its flight has finished.
  The pawn (``.bd-pawn``) slides: it has a CSS transition on ``left``.
- A first paint (a page opened, then reloaded, on a game with moves made) moves nothing:
  no animation when the view is first drawn nor after, and no card flies.
- A player who asks for reduced motion (``prefers-reduced-motion: reduce``) sees a live
  move with nothing flying and no animation, and a pawn without a transition.

What the page drew and when is recorded by a script run before the page's own
(``_RECORDER``): a mutation observer notes each ``.bd-flying`` added (with its animation)
and, each time ``#game[data-version]`` changes, the animations then (its callback runs right
after the update's drawing, in the same task). Games are created over HTTP and their wonder
draft played over the seats' sockets (conftest's ``play_over_sockets``). Nothing waits a
fixed time.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from websockets.sync.client import connect

from tests.browser.conftest import (
    SOCKET_SECONDS,
    WAIT_MS,
    SeatSocket,
    Watched,
    play_over_sockets,
)
from tests.browser.test_table_layout import OpenSeat, new_game, seat_opener

DRAFT_MOVES = 8  # the wonder draft: four picks each; then Age I, the creator first

_RECORDER = """(() => {
  const motion = window.__motion = { flights: [], shown: [] };
  let last = null;
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== Node.ELEMENT_NODE || !node.classList.contains('bd-flying')) continue;
        const controls = 'button[data-card], [data-action]';
        motion.flights.push({
          node, animation: node.getAnimations()[0] ?? null,
          inBody: node.parentElement === document.body,
          control: node.matches(controls) || node.querySelector(controls) !== null,
          hidden: node.getAttribute('aria-hidden') === 'true',
          clickThrough: getComputedStyle(node).pointerEvents === 'none',
        });
      }
    }
    const version = document.querySelector('#game')?.dataset.version ?? '';
    if (version !== last) {
      last = version;
      motion.shown.push({ version, animations: document.getAnimations().length });
    }
  }).observe(document, { subtree: true, childList: true, attributes: true,
                         attributeFilter: ['data-version'] });
})();"""

# What the recorder saw, and what moves now.
_SEEN = """() => ({
  flights: __motion.flights.map(({ node, animation, ...rest }) => ({
    ...rest, animated: animation !== null, connected: node.isConnected })),
  shown: __motion.shown,
  flyingNow: document.querySelectorAll('.bd-flying').length,
  animationsNow: document.getAnimations().length,
})"""

# Whether the pawn has a transition on `left` that takes time.
_PAWN_SLIDES = """() => {
  const style = getComputedStyle(document.querySelector('.bd-pawn'));
  const properties = style.transitionProperty.split(',').map((p) => p.trim());
  const durations = style.transitionDuration.split(',').map((d) => parseFloat(d));
  return properties.some((p, i) => ['left', 'all'].includes(p)
    && durations[i % durations.length] > 0);
}"""


@pytest.fixture
def open_seat(browser: Browser, server: str) -> Iterator[OpenSeat]:
    with seat_opener(browser, server) as open_:
        yield open_


def _drafted_game(server: str, moves: int = DRAFT_MOVES) -> tuple[str, list[dict[str, Any]]]:
    """A game past its wonder draft (and ``moves`` in all): its id and the credentials."""
    game_id, credentials = new_game(server)
    assert play_over_sockets(server, game_id, credentials, moves=moves) == moves
    return game_id, credentials


def _open_watcher(open_seat: OpenSeat, game_id: str, credentials: list[dict[str, Any]],
                  motion: str) -> Watched:
    """The page of seat 1 (who waits: seat 0 opens Age I), recording its motion."""
    watched = open_seat(game_id, credentials[1], init_script=_RECORDER, reduced_motion=motion)
    assert watched.page.locator("#game").get_attribute("data-phase") == "play"
    assert watched.page.locator("#game").get_attribute("data-to-act") == "0"
    return watched


def _discard_live(server: str, game_id: str, credentials: list[dict[str, Any]],
                  page: Page) -> dict[str, Any]:
    """Seat 0 discards a card of the structure over its own socket; once the page shows
    the move: what the recorder saw."""
    url = server.replace("http://", "ws://") + f"/ws/games/{game_id}"
    with connect(url, open_timeout=SOCKET_SECONDS) as connection:
        seat = SeatSocket(connection, 0, credentials[0]["token"])
        version = seat.version
        discard = next(action["notation"] for action in seat.view["legal_actions"]
                       if action["notation"].startswith("discard:"))
        seat.send({"type": "action", "action": discard, "version": version,
                   "client_id": f"v{version}"})
        seat.until("update", version + 1)
    page.wait_for_function("v => document.querySelector('#game').dataset.version === v",
                           arg=str(version + 1), timeout=WAIT_MS)
    seen: dict[str, Any] = page.evaluate(_SEEN)
    assert seen["shown"][-1]["version"] == str(version + 1), seen["shown"]
    return seen


def test_a_live_move_flies_the_card_taken(open_seat: OpenSeat, server: str) -> None:
    game_id, credentials = _drafted_game(server)
    watched = _open_watcher(open_seat, game_id, credentials, "no-preference")
    page = watched.page
    assert page.evaluate(_PAWN_SLIDES), "the pawn has no transition on left"
    seen = _discard_live(server, game_id, credentials, page)
    assert seen["flights"], f"no .bd-flying for the card taken: {seen}"
    for flight in seen["flights"]:
        assert flight["inBody"] and flight["hidden"] and flight["animated"], flight
        assert flight["clickThrough"], "a flying copy takes the clicks under it"
        assert not flight["control"], "a flying copy is (or holds) a control"
    assert seen["shown"][-1]["animations"] > 0, f"nothing moves after the move: {seen}"
    # Once its flight has finished, the copy goes.
    page.evaluate("() => Promise.all(__motion.flights.map((f) => f.animation?.finished))")
    page.wait_for_function("() => !document.querySelector('.bd-flying')"
                           " && __motion.flights.every((f) => !f.node.isConnected)",
                           timeout=WAIT_MS)
    watched.assert_no_errors()


def test_a_first_paint_moves_nothing(open_seat: OpenSeat, server: str) -> None:
    game_id, credentials = _drafted_game(server, moves=DRAFT_MOVES + 6)
    watched = open_seat(game_id, credentials[1], init_script=_RECORDER,
                        reduced_motion="no-preference")
    page = watched.page
    for when in ("opened", "reloaded"):
        if when == "reloaded":
            page.reload()
            page.wait_for_function("() => document.querySelector('#game').dataset.version",
                                   timeout=WAIT_MS)
        seen = page.evaluate(_SEEN)
        drawn = [shown for shown in seen["shown"] if shown["version"]]
        assert drawn and drawn[0]["version"] == str(DRAFT_MOVES + 6), (when, seen["shown"])
        assert drawn[0]["animations"] == 0, f"{when}: animations on the first paint {seen}"
        assert seen["animationsNow"] == 0, f"{when}: animations after the first paint {seen}"
        assert not seen["flights"] and not seen["flyingNow"], f"{when}: a card flies {seen}"
    watched.assert_no_errors()


def test_reduced_motion_moves_nothing(open_seat: OpenSeat, server: str) -> None:
    game_id, credentials = _drafted_game(server)
    watched = _open_watcher(open_seat, game_id, credentials, "reduce")
    page = watched.page
    assert not page.evaluate(_PAWN_SLIDES), "the pawn slides under reduced motion"
    seen = _discard_live(server, game_id, credentials, page)
    assert not seen["flights"] and not seen["flyingNow"], f"a card flies: {seen}"
    assert seen["shown"][-1]["animations"] == 0, f"animations after the move: {seen}"
    assert seen["animationsNow"] == 0, f"animations after the move: {seen}"
    watched.assert_no_errors()
