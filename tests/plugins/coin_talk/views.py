"""What the plugin shows: a transcript, a chart, a board and the IO's trust."""

from __future__ import annotations

import html
from typing import Any

from replay.walk import walk


def transcript(log: Any, player: int | None = None) -> tuple[str, dict[str, Any]]:
    rounds: list[dict[str, Any]] = []
    said: dict[int, str] = {}
    for step in walk(log):
        msg = step.msg
        if msg["kind"] == "heard" and msg["to"] == "p0":
            said = {line["speaker"]: line["says"][0]["call"] for line in msg["lines"] if line["says"]}
        elif msg["kind"] == "step":
            last = step.state.to_json()["history"][-1]
            rounds.append({"seq": step.seq, "coin": last["coin"], "calls": last["calls"], "said": dict(said)})
    text = "\n".join(f"round {i}: coin {r['coin']}; " + ", ".join(
        f"p{p} said {r['said'].get(p, '-')} called {r['calls'][p]}" for p in (0, 1)) for i, r in enumerate(rounds))
    return text, {"game": "coin_talk", "rounds": rounds}


def beliefs(msg: dict[str, Any]) -> list[tuple[str, str, float]]:
    return [(subject, "trust", float(value)) for u in msg["updates"] if u["path"] == ["trust"]
            for subject, value in sorted(u["value"].items())]


def scores(state: Any) -> dict[str, float]:
    data = state.to_json()
    return {"p0": data["scores"][0], "p1": data["scores"][1]}


def board(state: Any, player: int | None = None) -> str:
    data = state.to_json()
    cells = "".join(f'<text x="10" y="{20 + 16 * i}">round {i}: {html.escape(h["coin"])}</text>'
                    for i, h in enumerate(data["history"]))
    return f'<svg width="200" height="{30 + 16 * len(data["history"])}">{cells}</svg>'


def commands(sub: Any) -> None:
    """`detente coin_talk odds --rounds N`: the chance of a perfect score by guessing."""
    odds = sub.add_parser("odds", help="chance of calling every coin right by guessing")
    odds.add_argument("--rounds", type=int, default=3)
    odds.set_defaults(func=_odds)


def _odds(args: Any) -> int:
    print(f"all {args.rounds} right by guessing: 1 in {2 ** args.rounds}")
    return 0


def export_calls(log: Any) -> str:
    """Every round's calls as CSV: round, coin, call of p0, call of p1."""
    _, data = transcript(log)
    return "\n".join(["round,coin,p0,p1"] + [f"{i},{r['coin']},{r['calls'][0]},{r['calls'][1]}"
                                              for i, r in enumerate(data["rounds"])])
