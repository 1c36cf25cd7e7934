"""Alpha agents declared, not hand-built: an options model, a President, an office maker per name.

    GREEDY = AlphaAgent(
        options=GreedyOptions,
        president=president_from(President, views={"so": ("observation",)}),
        offices={"so": office_from(GreedyStrategyOffice, "params", "width")},
    )
    AgentDef("greedy", GAMES, GREEDY.build, "...")

`build` validates a seat's raw options, builds the offices the options switch on
(`options.office_names()`) at `p<seat>/<name>`, and the President at `p<seat>`, President first.
A maker is any `(address, seed, options) -> actor`; `office_from` and `president_from` make the
usual ones, passing named options (a dotted path passes a nested field by its last name).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from actors.actor import Actor
from actors.address import office_address, player_address
from actors.alpha.options import AgentOptions
from actors.alpha.president import President

OfficeMaker = Callable[[str, int, Any], Actor]  # (address, seed, options) -> office
# (address, seed, seat, office addresses by name, options) -> President
PresidentMaker = Callable[[str, int, int, dict[str, str], Any], President]


def _named(options: Any, paths: tuple[str, ...]) -> dict[str, Any]:
    """Option values by the last name of their path: "params.keep_word" -> {"keep_word": ...}."""
    out = {}
    for path in paths:
        value = options
        for name in path.split("."):
            value = getattr(value, name)
        out[path.rsplit(".", 1)[-1]] = value
    return out


def office_from(cls: type[Actor], *paths: str) -> OfficeMaker:
    """A maker of `cls(address, seed, **options named by paths)`."""

    def make(address: str, seed: int, options: Any) -> Actor:
        return cls(address, seed, **_named(options, paths))

    return make


def president_from(cls: type[President] = President, *paths: str,
                   views: Mapping[str, tuple[str, ...]] | None = None) -> PresidentMaker:
    """A maker of `cls(address, seed, seat, offices, options.traits, views=views, **named options)`."""

    def make(address: str, seed: int, seat: int, offices: dict[str, str], options: Any) -> President:
        return cls(address, seed, seat, offices, options.traits, views=dict(views or {}), **_named(options, paths))

    return make


# a seat's raw options validated, by options model and the options as repr writes them (JSON
# values): every game of a tournament seats the same few, and the models are frozen, so shared
_VALIDATED: dict[tuple[type, str], Any] = {}
_VALIDATED_MAX = 512  # entries kept at most (then forgotten all at once)


@dataclass(frozen=True)
class AlphaAgent:
    """An Alpha agent: its options model, how to make its President, and its offices by name."""

    options: type[AgentOptions]
    offices: Mapping[str, OfficeMaker]
    president: PresidentMaker = president_from()

    def __post_init__(self) -> None:
        missing = sorted(set(self.options.roles) - set(self.offices))
        if missing:
            raise ValueError(f"{self.options.__name__} switches on offices nobody makes: {', '.join(missing)}")

    def build(self, game: str, seat: int, seed: int, raw: dict[str, Any]) -> list[Actor]:
        """The actors of the player in `seat`, President first (an `AgentDef.build`)."""
        key = (self.options, repr(raw))
        options = _VALIDATED.get(key)
        if options is None:
            if len(_VALIDATED) >= _VALIDATED_MAX:
                _VALIDATED.clear()
            options = _VALIDATED[key] = self.options.model_validate(raw)
        names = sorted(options.office_names())
        addresses = {name: office_address(seat, name) for name in names}
        president = self.president(player_address(seat), seed, seat, addresses, options)
        return [president, *(self.offices[name](addresses[name], seed, options) for name in names)]
