"""The first thing to run: the Alpha architecture at work, office by office.

The village of 8 AlphaWolf players (6 villagers, a seer, a doctor) plays against 2 full AlphaWolf
werewolves four times, its offices switched on one by one: the random agent, then a President with
its Strategy Office, + the Foreign Office (joint-vote deals), + the Intelligence Office (trust and
role prediction). Each configuration is a tournament on a local Ray (the specs of thesis table 6.3,
ops/examples/alphawolf_table63_*.toml); the village's win rate rises with the offices. Writes the
HTML report of the full configuration and the pages of its first games, and verifies a sample of
every configuration's logs by replaying them.

    python -m ops.examples.quickstart [--games 100] [--out out/quickstart]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

CONFIGS = (("random", "random"), ("PR+SO", "so"), ("PR+SO+FO", "so_fo"), ("PR+SO+FO+IO", "full"))
ROOT = Path(__file__).resolve().parents[2]


def village_rate(folder: Path) -> tuple[int, int]:
    """(games the village won, games) of a recorded Werewolves tournament."""
    from ops.tournament.store import Store

    store = Store(folder, read_only=True)
    try:
        rows = store.db.execute("select roles, winners from games").fetchall()
    finally:
        store.close()
    won = sum(1 for roles, winners in rows if any(roles[w] != "werewolf" for w in winners))
    return won, len(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per configuration")
    parser.add_argument("--out", default="out/quickstart")
    args = parser.parse_args(argv)
    from ops.files import write_text
    from ops.tournament.html import format_html, write_game_pages
    from ops.tournament.progress import Progress
    from ops.tournament.report import build_report, wilson
    from ops.tournament.runner import run_tournament
    from ops.tournament.spec import load_spec
    from ops.tournament.store import Store
    from replay.verify import verify_game

    out = Path(args.out)
    results = []
    for name, stem in CONFIGS:
        spec = load_spec(ROOT / "ops" / "examples" / f"alphawolf_table63_{stem}.toml", games=args.games)
        print(f"village {name} against AlphaWolf werewolves: {args.games} games", flush=True)
        run_tournament(spec, out / stem, on_progress=Progress(every=5.0))
        results.append((name, *village_rate(out / stem)))
    print("\nvillage offices       games  village win rate [95% Wilson CI]")
    rows = []
    for (name, won, games), (_, stem) in zip(results, CONFIGS):
        rate, lo, hi = wilson(won, games)
        print(f"{name:<20}{games:>7}  {rate:.3f} [{lo:.3f}, {hi:.3f}]")
        store = Store(out / stem, read_only=True)
        try:
            report = build_report(store)
        finally:
            store.close()
        write_text(out / stem / "report.html", format_html(report, title=f"detente quickstart: village {name}"))
        write_game_pages(str(out / stem), report, str(out / stem))
        rows.append([name, str(games), f"{rate:.3f} [{lo:.3f}, {hi:.3f}]",
                     f'<a href="{stem}/report.html">report</a>', f'<a href="{stem}/pages/g00000000.html">a game</a>'])
    index = out / "index.html"
    write_text(index, _index(rows, args.games))
    checked = _verify_sample(out, [stem for _, stem in CONFIGS], verify_game)
    print(f"\nreplayed and verified {checked} games (5 of each configuration): every log reproduces its game")
    print(f"pages: {index} (the table, each configuration's report, a game's transcript page)")
    print(f"next: .venv/bin/detente replay transcript {out / 'full'} --game g00000000   (the talk, deals and trust of one game)")
    return 0


def _index(rows: list[list[str]], games: int) -> str:
    from ops.page import page
    from ops.tournament.html import _table

    intro = (f"The village (8 AlphaWolf players: 6 villagers, a seer, a doctor) against 2 full AlphaWolf werewolves, "
             f"{games} games per configuration, the village's offices switched on one by one (thesis table 6.3).")
    return page("detente quickstart: the Alpha offices, one by one",
                [("Village win rate", _table(["village offices", "games", "win rate [95% Wilson CI]", "", ""], rows))],
                intro=intro)


def _verify_sample(out: Path, stems: list[str], verify_game) -> int:
    from bus.log import read_game_at
    from ops.tournament.store import Store

    checked = 0
    for stem in stems:
        store = Store(out / stem, read_only=True)
        try:
            spots = store.db.execute('select segment, "offset" from games order by game_id limit 5').fetchall()
        finally:
            store.close()
        for segment, offset in spots:
            game, bad = read_game_at(out / stem / "logs" / segment, offset)
            verdict = verify_game(game, bad)
            if not verdict.ok:
                raise SystemExit(f"{out / stem}: {verdict.message}")
            checked += 1
    return checked


if __name__ == "__main__":
    sys.exit(main())
