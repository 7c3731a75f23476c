"""Random games driven through the public API, checked step by step against the audit
oracle (``audit_oracle``): the legal actions and their prices, the coins after every step,
the discard pile, hands passing, conflicts at each age end and the final scores.

Every disagreement is collected as a string (not raised at once), so one run reports them
all and a test can name the ones it expects.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from app.classic import Game, Options, view

from . import audit_oracle as oracle


@dataclass
class Audit:
    positions: int = 0          # (seat, decision) pairs whose legal actions were compared
    actions: int = 0            # legal actions compared
    steps: int = 0
    games: int = 0
    interrupts: int = 0         # one-seat steps (seventh card, Halikarnassos) checked
    findings: list[str] = field(default_factory=list)

    def note(self, kind: str, text: str) -> None:
        if len(self.findings) < 400:
            self.findings.append(f"{kind}: {text}")

    def kinds(self) -> Counter[str]:
        return Counter(f.split(":", 1)[0] for f in self.findings)


def _neighbours(cities: list[dict[str, Any]], seat: int) -> tuple[dict[str, Any], dict[str, Any]]:
    me = cities[seat]
    return cities[me["left"]], cities[me["right"]]


def _when_built(card: str, seat: int, cities: list[dict[str, Any]]) -> int:
    """Coins a structure brings when built, counted on ``cities`` as they stand then."""
    me = cities[seat]
    left, right = _neighbours(cities, seat)
    total = 0
    for effect in oracle.effects(oracle.CARDS[card]["effect"]):
        if effect[0] == "coins":
            total += int(effect[1])
        elif effect[0] == "coins_per":
            kind, per, whose = effect[1], int(effect[2]), effect[3]
            group = [me] + ([left, right] if "neighbours" in whose else [])
            for city in group:
                total += per * (city["stages_built"] if kind == "wonder_stage"
                                else oracle.colour_count(city, kind))
    return total


def _stage_coins(city: dict[str, Any], stage_number: int) -> int:
    row = oracle.STAGES[(city["board"], city["side"])][stage_number - 1]
    return sum(int(e[1]) for e in oracle.effects(row["effect"]) if e[0] == "coins")


def choose(rng: random.Random, actions: list[Any]) -> Any:
    """A random legal action, building more often than discarding (richer cities)."""
    builds = [a for a in actions if not str(a).startswith("discard")]
    if builds and rng.random() < 0.85:
        return rng.choice(builds)
    return rng.choice(actions)


def compare_legal(game: Game, audit: Audit, tag: str,
                  chainable: list[set[str]] | None = None,
                  seventh_budget: dict[int, int] | None = None) -> None:
    """The engine's legal actions against the oracle's, for every seat owing a decision;
    ``chainable``: each seat's cards built in an earlier age (RO L292, PT L214);
    ``seventh_budget``: what Babylon B may spend on the seventh card, played in turn 6 (RO
    L701): its coins at the start of turn 6 less the sixth card's cost (RO L257-259).
    Without them, every card serves chains (a position set up by hand) and coins are
    spent as held."""
    public = view(game, None)
    cities = public["seats"]
    for seat, decision in sorted(game.pending().items()):
        mine = view(game, seat)["you"]
        engine = {str(a) for a in game.legal_actions(seat)}
        if decision == "discard_build":
            names = set(cities[seat]["cards"])
            expected = {f"halikarnassos:{c}" for c in mine.get("pile", []) if c not in names}
        else:
            left, right = _neighbours(cities, seat)
            me = cities[seat]
            if decision == "seventh" and seventh_budget is not None:
                me = dict(me, coins=seventh_budget[seat])
            olympia_a2 = (me["board"] == "olympia" and me["side"] == "A"
                          and me["stages_built"] >= 2 and not me["free_build_used"])
            expected = oracle.expected_actions(me, left, right, mine["hand"],
                                               free_build=olympia_a2,
                                               chainable=None if chainable is None
                                               else chainable[seat])
            if olympia_a2:  # a free build of a card that is free anyway may be refused
                free = {a for a in expected if a.startswith("build:") and a.endswith(":0:0")
                        and oracle.CARDS[a.split(":")[1]]["cost_coins"] == "0"}
                needless = {"olympia:" + a.split(":")[1] for a in free}
                engine |= needless & expected
        audit.positions += 1
        audit.actions += len(expected)
        if engine != expected:
            audit.note("legal", f"{tag} seat {seat} {decision} board {cities[seat]['board']}"
                       f"{cities[seat]['side']} engine-only {sorted(engine - expected)[:6]} "
                       f"oracle-only {sorted(expected - engine)[:6]}")


def play_game(seed: int, players: int, sides: str, audit: Audit, *,
              check_legal: bool = True) -> Game:
    game = Game.new(seed, Options(players=players, sides=sides))
    rng = random.Random(seed * 7919 + players)
    pile: Counter[str] = Counter()
    tokens: list[list[int]] = [[] for _ in range(players)]
    tag0 = f"seed {seed} {players}p {sides}"
    owed: set[tuple[int, str]] = set()       # the one-seat steps the last turn owes
    seen_steps: set[tuple[int, str]] = set()
    chainable: list[set[str]] = [set() for _ in range(players)]
    seventh_budget: dict[int, int] = {}
    built_this_turn: list[tuple[int, str]] = []  # (seat, card), for Vineyard and Bazar
    while not game.over:
        tag = f"{tag0} age {game.age} turn {game.turn} step {game.step}"
        if game.phase == "pick" and owed != seen_steps:
            audit.note("interrupts", f"{tag} expected {sorted(owed)} engine {sorted(seen_steps)}")
        if game.phase == "pick":
            audit.interrupts += len(owed)
            owed, seen_steps = set(), set()
            built_this_turn = []
        else:
            seen_steps |= set(game.pending().items())
        if check_legal:
            compare_legal(game, audit, tag, chainable, seventh_budget)
        before = view(game, None)
        hands = {s: list(view(game, s)["you"]["hand"]) for s in range(players)}
        phase, age, turn = game.phase, game.age, game.turn
        chosen = {s: choose(rng, game.legal_actions(s)) for s in game.pending()}
        order = list(chosen)
        rng.shuffle(order)
        for seat in order:
            game.apply(seat, chosen[seat])
        audit.steps += 1
        after = view(game, None)
        # the discard pile this step adds
        for action in chosen.values():
            text = str(action)
            if text.startswith("discard:"):
                pile[text.split(":")[1]] += 1
            elif text.startswith("halikarnassos:"):
                pile[text.split(":")[1]] -= 1
        if phase == "pick" and turn == 6:
            babylon_seventh = after["decision"] == "seventh"
            for seat, action in chosen.items():
                rest = list(hands[seat])
                rest.remove(str(action).split(":")[1])
                if babylon_seventh and seat in after["to_act"]:
                    continue
                pile.update(rest)
        if phase == "pick":
            owed = _owed(after, chosen, pile, turn)
        _check_coins(before, after, chosen, phase=phase, audit=audit, tag=tag,
                     chainable=chainable, built_this_turn=built_this_turn)
        if phase == "pick" and turn == 6:
            seventh_budget = {seat: before["seats"][seat]["coins"]
                              - _spent(str(action), before["seats"][seat], chainable[seat])
                              for seat, action in chosen.items()}
        for seat, action in chosen.items():
            kind, card = str(action).split(":")[:2]
            if kind in ("build", "olympia", "halikarnassos"):
                built_this_turn.append((seat, card))
        if after["age"] != age:
            chainable = [set(city["cards"]) for city in after["seats"]]
        if sum(pile.values()) != after["discard_count"]:
            audit.note("pile", f"{tag} pile count engine {after['discard_count']} "
                       f"oracle {sum(pile.values())}")
        if phase == "pick" and turn < 6 and after["decision"] == "pick":
            _check_passing(game, hands, chosen, age=age, audit=audit, tag=tag)
        if after["age"] != age or game.over:
            _check_conflicts(after, tokens, age, audit, tag)
        if game.pending():
            for seat, decision in game.pending().items():
                if decision == "discard_build":
                    shown = Counter(view(game, seat)["you"].get("pile", []))
                    if shown != +pile:
                        audit.note("pile", f"{tag} Halikarnassos sees {sorted(shown.elements())}"
                                   f" oracle {sorted((+pile).elements())}")
    if owed != seen_steps:
        audit.note("interrupts", f"{tag0} at the end expected {sorted(owed)} "
                   f"engine {sorted(seen_steps)}")
    _check_scores(game, audit, tag0)
    audit.games += 1
    return game


def _owed(after: dict[str, Any], chosen: dict[int, Any], pile: Counter[str],
          turn: int) -> set[tuple[int, str]]:
    """Babylon B's seventh card after turn 6 (RO L695-704) and Halikarnassos' build after a
    stage with the power (RO L671-674, L694-703), when the pile holds a card it may build."""
    owed: set[tuple[int, str]] = set()
    for seat, city in enumerate(after["seats"]):
        if turn == 6 and city["board"] == "babylon" and city["side"] == "B" \
                and city["stages_built"] >= 2:
            owed.add((seat, "seventh"))
        if str(chosen.get(seat, "")).startswith("wonder:"):
            stage = oracle.STAGES[(city["board"], city["side"])][city["stages_built"] - 1]
            if "build_from_discard" in stage["effect"] and set(+pile) - set(city["cards"]):
                owed.add((seat, "discard_build"))
    return owed


def _check_passing(game: Game, hands: dict[int, list[str]], chosen: dict[int, Any], *,
                   age: int, audit: Audit, tag: str) -> None:
    for seat, action in chosen.items():
        rest = Counter(hands[seat])
        rest[str(action).split(":")[1]] -= 1
        target = game.left_of(seat) if age in (1, 3) else game.right_of(seat)
        got = Counter(view(game, target)["you"]["hand"])
        if got != +rest:
            audit.note("passing", f"{tag} seat {seat}'s hand not at seat {target}")


def _spent(action: str, me: dict[str, Any], chainable: set[str]) -> int:
    """The coins ``action`` costs the seat (``me`` as it stood before)."""
    parts = action.split(":")
    if parts[0] not in ("build", "wonder"):
        return 0
    bank = 0
    if parts[0] == "build" and not (
            set(filter(None, oracle.CARDS[parts[1]]["chain_from"].split("|"))) & chainable):
        bank = int(oracle.CARDS[parts[1]]["cost_coins"])
    return bank + int(parts[2]) + int(parts[3])


def _late_coins(seat: int, before: dict[str, Any], after: dict[str, Any],
                built_this_turn: list[tuple[int, str]], delta: list[int]) -> None:
    """A card ``seat`` adds after the reveal (the seventh card, Halikarnassos' build) counts
    for its neighbours' Vineyard and Bazar built that same turn (RO L1030-1032, L1048-1049,
    PT L757-761)."""
    for owner, card in built_this_turn:
        me = after["seats"][owner]
        if owner == seat or seat not in (me["left"], me["right"]):
            continue
        for effect in oracle.effects(oracle.CARDS[card]["effect"]):
            if effect[0] == "coins_per" and "neighbours" in effect[3]:
                kind, per = effect[1], int(effect[2])
                was, now = before["seats"][seat], after["seats"][seat]
                if kind == "wonder_stage":
                    delta[owner] += per * (now["stages_built"] - was["stages_built"])
                else:
                    delta[owner] += per * (oracle.colour_count(now, kind)
                                           - oracle.colour_count(was, kind))


def _check_coins(before: dict[str, Any], after: dict[str, Any], chosen: dict[int, Any], *,
                 phase: str, audit: Audit, tag: str, chainable: list[set[str]],
                 built_this_turn: list[tuple[int, str]]) -> None:
    cities = after["seats"]
    n = len(cities)
    delta = [0] * n
    for seat, action in chosen.items():
        text = str(action)
        parts = text.split(":")
        kind, card = parts[0], parts[1]
        me = before["seats"][seat]
        if kind == "discard":
            delta[seat] += 3
        elif kind in ("build", "wonder"):
            left, right = int(parts[2]), int(parts[3])
            delta[seat] -= left + right
            delta[me["left"]] += left
            delta[me["right"]] += right
            if kind == "build":
                delta[seat] -= int(oracle.CARDS[card]["cost_coins"]) if not (
                    set(filter(None, oracle.CARDS[card]["chain_from"].split("|")))
                    & chainable[seat]) else 0
                delta[seat] += _when_built(card, seat, cities)
            else:
                delta[seat] += _stage_coins(me, me["stages_built"] + 1)
        elif kind in ("olympia", "halikarnassos"):
            delta[seat] += _when_built(card, seat, cities)
        if phase != "pick":
            _late_coins(seat, before, after, built_this_turn, delta)
    for seat in range(n):
        got = cities[seat]["coins"] - before["seats"][seat]["coins"]
        if got != delta[seat]:
            audit.note("coins", f"{tag} {phase} seat {seat} engine {got:+d} oracle {delta[seat]:+d}"
                       f" actions {[str(chosen.get(s)) for s in range(n)]}")


def _check_conflicts(after: dict[str, Any], tokens: list[list[int]], age: int, audit: Audit,
                     tag: str) -> None:
    cities = after["seats"]
    for seat, city in enumerate(cities):
        strength = oracle.shields(city)
        if strength != city["shields"]:
            audit.note("shields", f"{tag} seat {seat} engine {city['shields']} oracle {strength}")
        left, right = _neighbours(cities, seat)
        for other in (left, right):
            tokens[seat] += oracle.conflict_tokens(strength, oracle.shields(other), age)
        if sorted(tokens[seat]) != sorted(city["tokens"]):
            audit.note("military",
                       f"{tag} seat {seat} engine {city['tokens']} oracle {tokens[seat]}")


def _check_scores(game: Game, audit: Audit, tag: str) -> None:
    outcome = game.outcome()
    assert outcome is not None
    cities = view(game, None)["seats"]
    sheets = {s["seat"]: s for s in outcome.to_json()["sheets"]}
    totals = []
    for seat in range(game.players):
        left, right = _neighbours(cities, seat)
        mine = oracle.score(cities[seat], left, right)
        engine = sheets[seat]
        # which guild Olympia copies when two choices score the same total is free
        engine = dict(engine, guilds=engine["guilds"] + engine["science"], science=0)
        mine = dict(mine, guilds=mine["guilds"] + mine["science"], science=0)
        for key, value in mine.items():
            if engine[key] != value:
                audit.note("score", f"{tag} seat {seat} {cities[seat]['board']}"
                           f"{cities[seat]['side']} {key} engine {engine[key]} oracle {value}")
        totals.append((mine["total"], cities[seat]["coins"]))
    order = sorted(set(totals), reverse=True)
    places = [1 + sum(1 for t in totals if t > mine) for mine in totals]
    engine_places = outcome.to_json().get("places", None)
    if engine_places is not None and list(engine_places) != places:
        audit.note("ranking", f"{tag} engine places {engine_places} oracle {places} {order}")
