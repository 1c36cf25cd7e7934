"""Rules-level conformance checks any game can import (see DESIGN.md section 5).

Each check takes a `Game` and raw options, plays seeded random games and raises AssertionError
with a message naming the game, seed and step on the first violation. What applies is decided
from the game's capability flags, never from its name.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable, Iterable, Literal, get_args, get_origin

import msgpack

from games.api import (
    ACTION_ENCODING,
    CHANCE,
    PRIVATE_INFORMATION,
    SIMULTANEOUS,
    TALK,
    VIEWS,
    Game,
    IllegalAction,
    Options,
    State,
    TalkItem,
    TalkSpec,
)

_MADE_UP = "__not_a_legal_action__"

Visitor = Callable[[State, str], None]


def check_random_playthroughs(game: Game, options: dict[str, Any] | None = None,
                              seeds: Iterable[int] = range(20)) -> None:
    """Play seeded uniform-random games and check the API contract at every node."""
    opts = game.options(options)
    n = game.num_players(opts)

    def visit(state: State, where: str) -> None:
        _check_node(game, state, n, where)

    for seed in seeds:
        final = _play(game, opts, seed, visit)
        _check_terminal(game, final, n, f"{game.name} seed {seed}", opts)


def check_serialisation(game: Game, options: dict[str, Any] | None = None,
                        seeds: Iterable[int] = range(5)) -> None:
    """At every node: JSON and msgpack round trips, state_from_json inverse, clone independence."""
    opts = game.options(options)

    def visit(state: State, where: str) -> None:
        data = state.to_json()
        _assert_json_ready(data, f"{where}: to_json()")
        digest = state.digest()
        assert json.loads(json.dumps(data)) == data, f"{where}: to_json() changes through JSON"
        packed = msgpack.unpackb(msgpack.packb(data), raw=False)
        assert packed == data, f"{where}: to_json() changes through msgpack"
        back = game.state_from_json(packed)
        assert back.to_json() == data, f"{where}: state_from_json(to_json()) differs"
        assert back.digest() == digest, f"{where}: state_from_json(to_json()) changes the digest"
        assert state.to_json() == data, f"{where}: to_json() is not stable"
        copy = state.clone()
        assert copy.digest() == digest, f"{where}: clone() has a different digest"
        if not copy.is_terminal():
            _step(copy, random.Random(0))
            assert state.digest() == digest, f"{where}: acting on a clone changed the original"

    for seed in seeds:
        _play(game, opts, seed, visit)


def check_information_hiding(game: Game, options: dict[str, Any] | None = None,
                             seeds: Iterable[int] = range(10)) -> None:
    """For games with private information: resample_hidden(p) keeps observation(p) unchanged."""
    opts = game.options(options)
    if not game.has(PRIVATE_INFORMATION, opts):
        return
    n = game.num_players(opts)
    changed = 0

    def visit(state: State, where: str) -> None:
        nonlocal changed
        digest = state.digest()
        rng = random.Random(where)
        for p in range(n):
            seen = state.observation(p)
            other = state.resample_hidden(p, rng)
            assert state.digest() == digest, f"{where}: resample_hidden({p}) changed the state"
            again = other.observation(p)
            if again != seen:
                keys = sorted(k for k in set(seen) | set(again) if seen.get(k) != again.get(k))
                raise AssertionError(
                    f"{where}: player {p} can tell a resampled state apart: observation "
                    f"differs in {keys} (the observation leaks hidden information, or "
                    f"resample_hidden does not keep what the player knows)")
            changed += other.digest() != digest

    for seed in seeds:
        _play(game, opts, seed, visit)
    assert changed, (
        f"{game.name}: resample_hidden never changed the state, so the information-hiding "
        f"check proves nothing (does resample_hidden redraw anything?)")


def check_talk(game: Game, options: dict[str, Any] | None = None,
               seeds: Iterable[int] = range(10)) -> None:
    """Talk vocabulary is well formed; talk specs name sorted, valid channel members."""
    opts = game.options(options)
    n = game.num_players(opts)
    if not game.has(TALK):
        assert not game.talk_models, f"{game.name}: talk_models without the TALK capability"
    kinds: dict[str, str] = {}
    for model in game.talk_models:
        where = f"{game.name} talk model {model.__name__}"
        assert issubclass(model, TalkItem), f"{where}: not a TalkItem"
        field = model.model_fields.get("kind")
        assert field is not None, f"{where}: has no `kind` field"
        args = get_args(field.annotation)
        assert get_origin(field.annotation) is Literal and len(args) == 1, (
            f"{where}: `kind` must be a single Literal, got {field.annotation!r}")
        assert field.default == args[0], f"{where}: `kind` must default to {args[0]!r}"
        assert args[0] not in kinds, f"{where}: kind {args[0]!r} also used by {kinds.get(args[0])}"
        kinds[args[0]] = model.__name__

    def visit(state: State, where: str) -> None:
        spec = state.talk()
        if spec is None:
            return
        assert game.has(TALK), f"{where}: talk() opens channels without the TALK capability"
        assert not state.is_terminal() and not state.is_chance(), (
            f"{where}: talk before a node with no decision")
        assert isinstance(spec, TalkSpec), f"{where}: talk() returned {spec!r}"
        assert isinstance(spec.max_rounds, int) and spec.max_rounds >= 0, (
            f"{where}: max_rounds {spec.max_rounds!r} must be an int >= 0")
        assert spec.channels, f"{where}: a talk spec with no channel"
        for name, members in spec.channels.items():
            assert isinstance(name, str), f"{where}: channel name {name!r} is not a string"
            assert isinstance(members, tuple), f"{where}: channel {name!r} members not a tuple"
            assert list(members) == sorted(set(members)), (
                f"{where}: channel {name!r} members {members} not sorted and unique")
            assert all(type(m) is int and 0 <= m < n for m in members), (
                f"{where}: channel {name!r} members {members} are not seats 0..{n - 1}")
            if game.has(SIMULTANEOUS):
                extra = set(members) - set(state.current_players())
                assert not extra, f"{where}: channel {name!r} members {sorted(extra)} do not act"

    for seed in seeds:
        _play(game, opts, seed, visit)


def check_action_encoding(game: Game, options: dict[str, Any] | None = None,
                          seeds: Iterable[int] = range(5)) -> None:
    """For games with ACTION_ENCODING: every legal action is in the vocabulary, numbered and
    named back the same, and numbers outside 0..num_distinct_actions - 1 are rejected; where the
    game keys its legal sets (`State.legal_actions_key`), one key never stands for two lists."""
    opts = game.options(options)
    if not game.has(ACTION_ENCODING, opts):
        return
    n = game.num_players(opts)
    keyed: dict[Any, list[str]] = {}
    size = game.num_distinct_actions(opts)
    assert size > 0, f"{game.name}: an empty action vocabulary"
    for bad in (-1, size):
        try:
            game.decode_action(opts, bad)
        except IllegalAction:
            continue
        raise AssertionError(f"{game.name}: decode_action({bad}) accepted outside 0..{size - 1}")

    def visit(state: State, where: str) -> None:
        for p in state.current_players():
            for action in state.legal_actions(p):
                try:
                    number = game.encode_action(opts, action)
                except IllegalAction:
                    raise AssertionError(f"{where}: legal action {action!r} of player {p} is not in the "
                                         f"action vocabulary (a kind of action the vocabulary forgot?)") from None
                assert game.decode_action(opts, number) == action, f"{where}: {action!r} does not decode back"
        for p in range(n):
            key = state.legal_actions_key(p)
            if key is not None:
                legal = state.legal_actions(p)
                assert keyed.setdefault(key, legal) == legal, (
                    f"{where}: legal_actions_key {key!r} of player {p} stands for {keyed[key]} and {legal}")

    for seed in seeds:
        _play(game, opts, seed, visit)


def check_views(game: Game, options: dict[str, Any] | None = None,
                seeds: Iterable[int] = range(3)) -> None:
    """For games with VIEWS: every legal action has a one-line description; the text and the tensor
    of an observation are pure functions of it (the same for an equal copy, the observation left
    unchanged, equal on a second call); the tensor is float32, finite, of `observation_shape`, and
    `state_observation_tensor` of the state equals it; and
    for games with private information a resampled state (which the seat cannot tell apart) gives
    the same text and tensor."""
    import numpy

    opts = game.options(options)
    if not game.has(VIEWS, opts):
        return
    n = game.num_players(opts)
    shape = tuple(game.observation_shape(opts))
    assert shape and all(type(d) is int and d > 0 for d in shape), (
        f"{game.name}: observation_shape {shape!r} must be a tuple of positive ints")
    hidden = game.has(PRIVATE_INFORMATION, opts)
    described: set[str] = set()

    def views(seat: int, observation: dict[str, Any], where: str) -> tuple[str, bytes]:
        before = msgpack.packb(observation)
        text = game.observation_text(opts, seat, observation)
        tensor = game.observation_tensor(opts, seat, observation)
        assert msgpack.packb(observation) == before, f"{where}: a view of seat {seat}'s observation changed it"
        assert isinstance(text, str) and text.strip(), f"{where}: observation_text of seat {seat} is empty"
        assert isinstance(tensor, numpy.ndarray) and tensor.dtype == numpy.float32, (
            f"{where}: observation_tensor of seat {seat} is not a float32 numpy array")
        assert tensor.shape == shape, (
            f"{where}: observation_tensor of seat {seat} has shape {tensor.shape}, declared {shape}")
        assert bool(numpy.isfinite(tensor).all()), f"{where}: observation_tensor of seat {seat} holds NaN or inf"
        return text, tensor.tobytes()

    def visit(state: State, where: str) -> None:
        rng = random.Random(where)
        for seat in range(n):
            observation = state.observation(seat)
            first = views(seat, observation, where)
            direct = game.state_observation_tensor(opts, state, seat)
            assert isinstance(direct, numpy.ndarray) and direct.dtype == numpy.float32 and \
                direct.tobytes() == first[1] and direct.shape == shape, (
                    f"{where}: state_observation_tensor of seat {seat} differs from the tensor of its observation")
            again = views(seat, msgpack.unpackb(msgpack.packb(observation)), where)  # an equal copy
            assert first == again, (f"{where}: the views of seat {seat} differ for an equal observation "
                                    f"(a set iterated? state kept between calls?)")
            if hidden:
                other = state.resample_hidden(seat, rng)
                assert views(seat, other.observation(seat), where) == first, (
                    f"{where}: seat {seat}'s views change when what it cannot see is redrawn")
        for seat in state.current_players():
            for action in state.legal_actions(seat):
                if action in described:
                    continue
                line = game.describe_action(opts, action)
                assert isinstance(line, str) and line.strip() and "\n" not in line, (
                    f"{where}: describe_action({action!r}) must be one non-empty line, got {line!r}")
                described.add(action)

    for seed in seeds:
        _play(game, opts, seed, visit)


def run_all(game: Game, options: dict[str, Any] | None = None) -> None:
    """Every rules-level conformance check that applies to `game`."""
    check_random_playthroughs(game, options)
    check_serialisation(game, options)
    check_information_hiding(game, options)
    check_talk(game, options)
    check_action_encoding(game, options)
    check_views(game, options)


# -- helpers -------------------------------------------------------------------------------

def _play(game: Game, opts: Options, seed: int, visit: Visitor) -> State:
    """One uniform-random game; `visit(state, where)` runs at every node, terminal included."""
    rng = random.Random(seed)
    state = game.new_initial_state(opts)
    bound = game.max_steps_for(opts)
    for step in range(bound + 1):
        visit(state, f"{game.name} seed {seed} step {step}")
        if state.is_terminal():
            return state
        _step(state, rng)
    raise AssertionError(f"{game.name} seed {seed}: not over after max_steps={bound}")


def _step(state: State, rng: random.Random) -> None:
    if state.is_chance():
        state.apply_chance(state.sample_chance(rng))
    else:
        state.apply_actions({p: rng.choice(state.legal_actions(p))
                             for p in state.current_players()})


def _check_node(game: Game, state: State, n: int, where: str) -> None:
    players = state.current_players()
    assert players == sorted(set(players)), f"{where}: current_players {players} not sorted/unique"
    assert all(type(p) is int and 0 <= p < n for p in players), (
        f"{where}: current_players {players} are not seats 0..{n - 1}")
    for p in range(n):
        _assert_json_ready(state.observation(p), f"{where}: observation({p})")
    if state.is_terminal():
        assert not players, f"{where}: players {players} to act at a terminal node"
        assert not state.is_chance(), f"{where}: a node both terminal and chance"
        return
    if state.is_chance():
        assert game.has(CHANCE), f"{where}: a chance node without the CHANCE capability"
        assert not players, f"{where}: players {players} to act at a chance node"
        _assert_rejected(state, lambda: state.apply_chance(_MADE_UP),
                         f"{where}: made-up chance outcome {_MADE_UP!r}")
        return
    assert players, f"{where}: a decision node with nobody to act"
    assert game.has(SIMULTANEOUS) or len(players) == 1, (
        f"{where}: players {players} act together without the SIMULTANEOUS capability")
    for p in range(n):
        legal = state.legal_actions(p)
        if p not in players:
            assert legal == [], f"{where}: player {p} is not to act but has legal {legal}"
            continue
        assert legal, f"{where}: player {p} is to act but has no legal action"
        assert all(isinstance(a, str) for a in legal), f"{where}: player {p} non-string actions"
        assert legal == sorted(set(legal)), f"{where}: player {p} legal {legal} not sorted/unique"
        default = state.default_action(p)
        assert default in legal, f"{where}: player {p} default {default!r} not in legal {legal}"
    chosen = {p: state.default_action(p) for p in players}
    bad = {**chosen, players[0]: _MADE_UP}
    _assert_rejected(state, lambda: state.apply_actions(bad),
                     f"{where}: player {players[0]} action {_MADE_UP!r}")
    missing = {p: a for p, a in chosen.items() if p != players[0]}
    _assert_rejected(state, lambda: state.apply_actions(missing),
                     f"{where}: actions without player {players[0]}")
    outsiders = [p for p in range(n) if p not in players]
    if outsiders:
        extra = {**chosen, outsiders[0]: state.default_action(outsiders[0])}
        _assert_rejected(state, lambda: state.apply_actions(extra),
                         f"{where}: an action from player {outsiders[0]}, who is not to act")


def _check_terminal(game: Game, state: State, n: int, where: str, opts: Options | None = None) -> None:
    out = state.outcome()
    assert len(out.returns) == n, f"{where}: {len(out.returns)} returns for {n} players"
    lo, hi = game.return_bounds(opts) if opts is not None else (game.min_return, game.max_return)
    for p, r in enumerate(out.returns):
        assert lo <= r <= hi, f"{where}: player {p} return {r} outside [{lo}, {hi}]"
    assert all(type(w) is int and 0 <= w < n for w in out.winners), (
        f"{where}: winners {out.winners} are not seats 0..{n - 1}")


def _assert_rejected(state: State, apply: Callable[[], None], what: str) -> None:
    before = state.digest()
    try:
        apply()
    except IllegalAction:
        pass
    else:
        raise AssertionError(f"{what} was accepted; it must raise IllegalAction")
    assert state.digest() == before, f"{what} raised IllegalAction but changed the state"


def _assert_json_ready(value: Any, where: str) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            assert isinstance(k, str), f"{where}: non-string key {k!r}"
            _assert_json_ready(v, where)
    elif isinstance(value, list):
        for v in value:
            _assert_json_ready(v, where)
    else:
        assert value is None or isinstance(value, (str, int, float, bool)), (
            f"{where}: {type(value).__name__} value {value!r} is not JSON")
