"""The seed's 48-10-1 network: a board's value for one player, and its TD(lambda) update.

Inputs (seed): one cell per territory, 1 if the player owns it, else 0, in games.risk.mapdata
order; then one cell per continent, the share of it the player owns. Ten sigmoid hidden units,
one sigmoid output.

Exact arithmetic (ours), so the agent's choices are the same on every CPU and Python: weights
are integers, the real weight times SCALE. A hidden unit's input sum, times 252 (the least
common multiple of the continent sizes, so every share is a whole number of 1/252ths), is an
exact integer, computed in any order and updated incrementally when a territory changes hands;
only the sigmoid's `math.exp` is a float function, the output sum is a `math.fsum`, and a value
is rounded to VALUE_DIGITS before anything compares it.

File format `FORMAT` (JSON): {"format", "inputs", "hidden", "scale", "w1": HIDDEN rows of
INPUTS + 1 integers (bias last), "w2": HIDDEN + 1 integers (bias last), "meta": {...}}.
`Net.digest` is the sha256 of the weights alone, to check a file against the command that made it.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from actors.risk.params import HIDDEN, INIT_SCALE, INPUTS, VALUE_DIGITS, WEIGHT_DIGITS
from games.risk.mapdata import CONTINENT_MEMBERS, CONTINENT_OF, NUM_TERRITORIES

FORMAT = "detente-risk-td/1"
SCALE = 10 ** WEIGHT_DIGITS
WEIGHTS_DIR = Path(__file__).parent / "weights"
SHIPPED = ("trained", "trained-2000", "mistrained")  # nets in WEIGHTS_DIR, by name: <name>.json
_SIZES = tuple(len(m) for m in CONTINENT_MEMBERS)
_LCM = math.lcm(*_SIZES)  # 252
_PER = tuple(_LCM // s for s in _SIZES)  # 1/252ths per territory of each continent's share
_DENOM = _LCM * SCALE
_NT = NUM_TERRITORIES


@dataclass(frozen=True)
class Net:
    """Integer weights: w1[j] = hidden unit j's INPUTS weights then its bias; w2 = HIDDEN then bias."""

    w1: tuple[tuple[int, ...], ...]
    w2: tuple[int, ...]

    def to_json(self, meta: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"format": FORMAT, "inputs": INPUTS, "hidden": HIDDEN, "scale": SCALE,
                "w1": [list(r) for r in self.w1], "w2": list(self.w2), "meta": dict(meta or {})}

    def digest(self) -> str:
        """sha256 of the weights alone (canonical JSON), independent of the metadata."""
        text = json.dumps({"w1": [list(r) for r in self.w1], "w2": list(self.w2)}, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()


def random_net(seed: int) -> Net:
    """Weights uniform in [-INIT_SCALE, INIT_SCALE] (on the SCALE grid) from `seed`."""
    rng = random.Random(f"risk-td-init/{seed}")
    top = int(INIT_SCALE * SCALE)
    w1 = tuple(tuple(rng.randint(-top, top) for _ in range(INPUTS + 1)) for _ in range(HIDDEN))
    w2 = tuple(rng.randint(-top, top) for _ in range(HIDDEN + 1))
    return Net(w1, w2)


def net_from_json(data: dict[str, Any]) -> Net:
    if (data.get("format") != FORMAT or data.get("inputs") != INPUTS or data.get("hidden") != HIDDEN
            or data.get("scale") != SCALE):
        raise ValueError(f"not a {FORMAT} network ({INPUTS} inputs, {HIDDEN} hidden units, scale {SCALE})")
    w1 = tuple(tuple(int(x) for x in row) for row in data["w1"])
    w2 = tuple(int(x) for x in data["w2"])
    if len(w1) != HIDDEN or any(len(r) != INPUTS + 1 for r in w1) or len(w2) != HIDDEN + 1:
        raise ValueError("weights of the wrong shape")
    return Net(w1, w2)


@cache
def shipped_net(name: str) -> Net:
    """A network that ships with the package (`trained`, `trained-2000`, `mistrained`)."""
    if name not in SHIPPED:
        raise ValueError(f"no shipped network {name!r} (known: {', '.join(SHIPPED)})")
    return net_from_json(json.loads((WEIGHTS_DIR / f"{name}.json").read_text()))


def get_net(name: str, seed: int = 0) -> Net:
    """`random` (weights from `seed`) or a shipped network by name."""
    return random_net(seed) if name == "random" else shipped_net(name)


def features(owned: Sequence[bool]) -> list[float]:
    """The 48 inputs of a board for a player owning the territories marked in `owned`."""
    counts = [0] * len(_SIZES)
    for t in range(_NT):
        if owned[t]:
            counts[CONTINENT_OF[t]] += 1
    return [1.0 if o else 0.0 for o in owned] + [c / s for c, s in zip(counts, _SIZES)]


def _sigmoid(s: float) -> float:
    return 0.0 if s < -700.0 else 1.0 / (1.0 + math.exp(-s))


def _sums(net: Net, owned: Sequence[bool]) -> list[int]:
    """Each hidden unit's input sum times _LCM * SCALE: an exact integer."""
    idx = [t for t in range(_NT) if owned[t]]
    counts = [0] * len(_SIZES)
    for t in idx:
        counts[CONTINENT_OF[t]] += 1
    weights = [(_NT + c, _PER[c] * k) for c, k in enumerate(counts) if k]
    out = []
    for row in net.w1:
        s = _LCM * (row[INPUTS] + sum(map(row.__getitem__, idx)))
        out.append(s + sum(row[i] * w for i, w in weights))
    return out


def _output(net: Net, sums: Sequence[int]) -> tuple[list[float], float]:
    hidden = [_sigmoid(s / _DENOM) for s in sums]
    w2 = net.w2
    total = math.fsum([float(w2[HIDDEN])] + [w2[j] * hidden[j] for j in range(HIDDEN)])
    return hidden, _sigmoid(total / SCALE)


def forward(net: Net, owned: Sequence[bool]) -> tuple[list[float], float]:
    """(hidden activations, output) for the board marked in `owned` (unrounded: for learning)."""
    return _output(net, _sums(net, owned))


def value(net: Net, owned: Sequence[bool]) -> float:
    """The network's value of the board for the owner of `owned`, rounded to VALUE_DIGITS."""
    return round(forward(net, owned)[1], VALUE_DIGITS)


class Evaluator:
    """Values of one board and of that board with one more territory owned (incrementally)."""

    def __init__(self, net: Net, owned: Sequence[bool]):
        self.net, self.owned = net, owned
        self.sums = _sums(net, owned)

    def value(self) -> float:
        return round(_output(self.net, self.sums)[1], VALUE_DIGITS)

    def value_with(self, t: int) -> float:
        """The value with territory `t` owned as well."""
        if self.owned[t]:
            return self.value()
        c, per = _NT + CONTINENT_OF[t], _PER[CONTINENT_OF[t]]
        sums = [s + _LCM * row[t] + per * row[c] for s, row in zip(self.sums, self.net.w1)]
        return round(_output(self.net, sums)[1], VALUE_DIGITS)


class Learner:
    """One player's network learning by TD(lambda) over the boards it sees in one game.

    `see(owned)` takes the board at the start of each of its turns; `end(reward)` the final
    target (seed: a won board +1, a lost board -1; ours: 1 and 0, the sigmoid's range). Sutton's
    TD(lambda), as in TD-Gammon: delta = V(s_t+1) - V(s_t); w += alpha * delta * e, then
    e = lam * e + grad V(s_t+1). Weights stay on the SCALE grid (each step is rounded to it).
    `misupdate` flips the sign of the hidden layer's gradient (the "incorrectly-trained" net)."""

    def __init__(self, net: Net, alpha: float, lam: float, misupdate: bool = False):
        self.w1 = [list(r) for r in net.w1]
        self.w2 = list(net.w2)
        self.alpha, self.lam, self.sign = alpha, lam, -1.0 if misupdate else 1.0
        self.e1 = [[0.0] * (INPUTS + 1) for _ in range(HIDDEN)]
        self.e2 = [0.0] * (HIDDEN + 1)
        self.v: float | None = None  # V(s_t) of the last board seen
        self.done = False

    def net(self) -> Net:
        """The current weights (a snapshot: the learner goes on changing)."""
        return Net(tuple(tuple(r) for r in self.w1), tuple(self.w2))

    def see(self, owned: Sequence[bool]) -> None:
        """A new board: learn from the step since the last one, then trace this one."""
        if self.done:
            return
        if self.v is not None:
            self._learn(forward(self, owned)[1] - self.v)  # type: ignore[arg-type]
        hidden, v = forward(self, owned)  # type: ignore[arg-type]
        self._trace(features(owned), hidden, v)
        self.v = v

    def end(self, reward: float) -> None:
        """The game is over for this player: learn towards `reward` (once)."""
        if self.done:
            return
        self.done = True
        if self.v is not None:
            self._learn(reward - self.v)

    def _trace(self, x: list[float], hidden: list[float], v: float) -> None:
        g = v * (1.0 - v)
        lam, e1, e2, w2, sign = self.lam, self.e1, self.e2, self.w2, self.sign
        for j in range(HIDDEN):
            e2[j] = lam * e2[j] + g * hidden[j]
            back = sign * g * (w2[j] / SCALE) * hidden[j] * (1.0 - hidden[j])
            row = e1[j]
            for i in range(INPUTS):
                row[i] = lam * row[i] + back * x[i]
            row[INPUTS] = lam * row[INPUTS] + back
        e2[HIDDEN] = lam * e2[HIDDEN] + g

    def _learn(self, delta: float) -> None:
        step = self.alpha * delta * SCALE
        for j in range(HIDDEN):
            row, er = self.w1[j], self.e1[j]
            for i in range(INPUTS + 1):
                row[i] += round(step * er[i])
        for j in range(HIDDEN + 1):
            self.w2[j] += round(step * self.e2[j])
