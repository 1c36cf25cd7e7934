"""Game-independent baseline offices."""

from __future__ import annotations

from math import ceil, log

from actors.alpha.offices import Answer, StrategyOffice
from bus.messages import OfficeRequest, Suggestion, built


class RandomStrategyOffice(StrategyOffice):
    """Suggests up to `width` distinct legal actions drawn uniformly, all of equal utility.

    With equal utilities the President's pick among them is uniform, so the agent plays
    uniformly random legal actions. `local`: its answer is a pure function of the request and its own
    generator, so from log format 3 on the President asks its own copy directly (no message, no
    record) and draws the same actions as when the advice crossed the bus.
    """

    local = True

    def __init__(self, address: str, seed: int, width: int = 3):
        super().__init__(address, seed)
        self.width = width

    def suggest(self, request: OfficeRequest) -> Answer:
        return Answer(suggestions=self.suggest_legal(request.legal))

    def suggest_legal(self, legal: tuple[str, ...]) -> list[Suggestion]:
        """`suggest`'s suggestions from the legal actions alone: what the President asks directly
        where this office is its only one (President.attach_local), with the same draws. Each is one
        of `legal`, and a class declares this method itself (a subclass does not inherit it)."""
        n = len(legal)
        picks = sample_indices(self._rng or self.rng, n, self.width if self.width < n else n)
        picks.sort()
        known = _SUGGESTIONS
        return [known.get(action) or _suggestion(action) for action in map(legal.__getitem__, picks)]


_SUGGESTIONS: dict[str, Suggestion] = {}  # action -> its suggestion of utility 1.0: frozen, so shared
_MAX_SUGGESTIONS = 1 << 14  # actions remembered at most (then forgotten all at once)


def _suggestion(action: str) -> Suggestion:
    found = _SUGGESTIONS.get(action)
    if found is None:
        if len(_SUGGESTIONS) >= _MAX_SUGGESTIONS:
            _SUGGESTIONS.clear()
        found = _SUGGESTIONS[action] = built(Suggestion, {"action": action, "utility": 1.0})
    return found


def randbelow(rng, n: int) -> int:
    """`rng.randrange(n)` for n >= 1: the same draw, leaving `rng` in the same state, without its
    generic checks (CPython's _randbelow_with_getrandbits, as in `sample_indices`;
    tests/test_alpha_sample.py holds it to rng.randrange)."""
    getrandbits = rng.getrandbits
    bits = n.bit_length()
    r = getrandbits(bits)
    while r >= n:
        r = getrandbits(bits)
    return r


def sample_indices(rng, n: int, k: int) -> list[int]:
    """`rng.sample(range(n), k)`: the same indices from the same draws, leaving `rng` in the same
    state, without its generic checks (on the random agent's path, once an act). CPython's
    algorithm (Lib/random.py, sample and _randbelow_with_getrandbits, unchanged since 3.9)
    written out over the public getrandbits; tests/test_alpha_sample.py holds it to rng.sample."""
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    getrandbits = rng.getrandbits
    result = [0] * k
    setsize = 21
    if k > 5:
        setsize += 4 ** ceil(log(k * 3, 4))
    if n <= setsize:
        pool = list(range(n))
        for i in range(k):
            m = n - i
            bits = m.bit_length()
            j = getrandbits(bits)
            while j >= m:
                j = getrandbits(bits)
            result[i] = pool[j]
            pool[j] = pool[m - 1]
        return result
    selected: set[int] = set()
    bits = n.bit_length()
    for i in range(k):
        j = getrandbits(bits)
        while j >= n or j in selected:
            j = getrandbits(bits)
        selected.add(j)
        result[i] = j
    return result
