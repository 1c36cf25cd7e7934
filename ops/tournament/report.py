"""Tournament reports from the store: per-agent means with 95% confidence intervals, win rates,
breakdowns per seat and per role (or power), head-to-head, and openskill ratings.

Ratings are computed game by game in game-id order, so the same store always gives the same
table. Means use the normal approximation (mean +- 1.96 standard errors); win rates use the
Wilson score interval.

Beside every win rate stand an abort rate (the share of seats whose game was aborted over its time
budget against them: each such seat counts as a loss, ranked last, with no score) and an error
rate (the share of seats with at least one error event naming their actors: illegal moves,
failures, refused answers, retirements). An aborted game counts for the seat blamed only; it is
left out of ratings, head to head, teams and the games' own sections (it has no result).
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from typing import Any

from ops.tournament.store import Store

Z95 = 1.959963984540054


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% interval (normal approximation)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def wilson(wins: int, n: int) -> tuple[float, float, float]:
    """Win rate and its 95% Wilson score interval."""
    if n == 0:
        return (math.nan, math.nan, math.nan)
    p = wins / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (p, max(0.0, centre - half), min(1.0, centre + half))


def _block(rows: list[tuple]) -> dict[str, Any]:
    """Summary of seat rows (score, rank, win, aborted, errors); an aborted seat has no score,
    errors are unknown (None) in stores older than per-seat errors."""
    scores = [r[0] for r in rows if r[0] is not None]
    ranks = [r[1] for r in rows]
    wins = sum(1 for r in rows if r[2])
    aborted = sum(1 for r in rows if len(r) > 3 and r[3])
    counted = [r[4] for r in rows if len(r) > 4 and r[4] is not None]
    ms, ms_lo, ms_hi = mean_ci(scores)
    mr, mr_lo, mr_hi = mean_ci(ranks)
    wr, wr_lo, wr_hi = wilson(wins, len(rows))
    return {
        "games": len(rows),
        "mean_score": ms,
        "mean_score_ci": [ms_lo, ms_hi],
        "mean_rank": mr,
        "mean_rank_ci": [mr_lo, mr_hi],
        "win_rate": wr,
        "win_rate_ci": [wr_lo, wr_hi],
        "aborted": aborted,
        "abort_rate": aborted / len(rows) if rows else math.nan,
        "with_errors": sum(1 for e in counted if e),
        "error_rate": sum(1 for e in counted if e) / len(counted) if counted else math.nan,
    }


def ratings(games: list[tuple[str, list[list[str]], list[float]]]) -> tuple[dict[str, dict[str, float]], list[dict[str, Any]]]:
    """openskill (Plackett-Luce) team ratings per label, rating every game in game-id order.

    A game is its teams (each a list of seat labels: a team of one where every seat plays for
    itself) and one rank per team. Several seats with the same label in one game are rated as
    separate players of one shared rating (their updates are averaged into it). A game of one
    team (a cooperative game) rates nobody."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    state: dict[str, Any] = {}
    history: list[dict[str, Any]] = []
    for index, (gid, team_labels, ranks) in enumerate(games):
        if len(team_labels) < 2:
            continue
        teams = [[state.setdefault(label, model.rating(name=label)) for label in team] for team in team_labels]
        rated = model.rate(teams, ranks=ranks)
        sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
        for labels, players in zip(team_labels, rated):
            for label, player in zip(labels, players):
                acc = sums[label]
                acc[0] += player.mu
                acc[1] += player.sigma
                acc[2] += 1
        for label, (mu, sigma, n) in sorted(sums.items()):
            state[label] = model.rating(mu=mu / n, sigma=sigma / n, name=label)
        if index % max(1, len(games) // 200) == 0 or index == len(games) - 1:
            history.append({"game": index + 1, **{label: state[label].mu for label in sorted(state)}})
    table = {
        label: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma} for label, r in sorted(state.items())
    }
    return table, history


REPORT_FORMAT = 2  # 2: game, cooperative, scores, sections, games_listed (1: before teams and plugins' sections)


def build_report(store: Store) -> dict[str, Any]:
    """Every number of the report, JSON-ready. A cooperative game (every game one team) gets the
    score distribution instead of ranks, ratings and head-to-head."""
    report = _ranked_report(store)
    rows = _game_rows(store.db)
    played = [r for r in rows if not r["aborted"]]
    game = json.loads(store.get_meta("spec") or "{}").get("game")
    cooperative = bool(rows) and all(len(r["teams"]) == 1 for r in rows)
    report.update(format=REPORT_FORMAT, game=game, cooperative=cooperative, sections=_sections(game, played),
                  games_listed=_listed(rows))
    if cooperative:
        scores = [r["scores"][0] for r in played]
        mean, lo, hi = mean_ci(scores)
        report["scores"] = {"mean": mean, "mean_ci": [lo, hi], "histogram": _histogram(scores)}
        report["head_to_head"], report["rating_history"], report["teams"] = {}, [], []  # one team: its score says it all
        for entry in report["agents"]:
            for key in ("mean_rank", "mean_rank_ci", "rating", "rank_histogram"):
                entry.pop(key, None)
            for block in [*entry["by_seat"].values(), *entry["by_role"].values()]:
                block.pop("mean_rank", None)
                block.pop("mean_rank_ci", None)
    return report


def _game_rows(db: Any) -> list[dict[str, Any]]:
    cols = ("game_id", "seats", "scores", "ranks", "winners", "roles", "teams", "extra", "summary", "errors", "steps",
            "aborted")
    rows = db.execute(f"select {', '.join(cols)} from games order by game_id").fetchall()
    out = []
    for row in rows:
        r = dict(zip(cols, row))
        r["teams"] = r["teams"] or [[s] for s in range(len(r["seats"]))]
        r["extra"] = json.loads(r["extra"]) if isinstance(r["extra"], str) else (r["extra"] or {})
        out.append(r)
    return out


def _sections(game: str | None, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The game's own report sections, as its plugin declares them (none when it declares none)."""
    from games.plugin import resolve
    from games.registry import UnknownGame, get_plugin

    try:
        plugin = get_plugin(game) if game else None
    except UnknownGame:
        return []
    return resolve(plugin.report)(rows) if plugin is not None and plugin.report else []


LISTED = 20  # games linked from a report: the first ones, then any aborted or with agent errors


def _listed(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    picked = rows[:LISTED] + [r for r in rows[LISTED:] if r["errors"] or r["aborted"]][:LISTED]
    return [{"game_id": r["game_id"], "summary": r["summary"], "steps": r["steps"], "errors": r["errors"],
             "aborted": r["aborted"]} for r in picked]


def _ranked_report(store: Store) -> dict[str, Any]:
    db = store.db
    total = store.count()
    seat_rows = db.execute(
        "select label, seat, role, score, rank, win, game_id, aborted, errors from seats order by game_id, seat"
    ).fetchall()
    by_label: dict[str, list[tuple]] = defaultdict(list)
    by_seat: dict[tuple[str, int], list[tuple]] = defaultdict(list)
    by_role: dict[tuple[str, str], list[tuple]] = defaultdict(list)
    per_game: dict[str, list[tuple]] = defaultdict(list)
    games_of: dict[str, set[str]] = defaultdict(set)
    for label, seat, role, score, rank, win, gid, aborted, errors in seat_rows:
        row = (score, rank, win, aborted, errors)
        by_label[label].append(row)
        games_of[label].add(gid)
        by_seat[(label, seat)].append(row)
        if role:
            by_role[(label, role)].append(row)
        if not aborted:
            per_game[gid].append((label, rank))
    team_rows = _team_rows(db)
    table, history = ratings([(gid, [labels for labels, _, _, _ in teams], [rank for _, rank, _, _ in teams])
                              for gid, teams in team_rows])
    h2h: dict[str, dict[str, dict[str, Any]]] = {}
    pair_counts: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0])
    for seats in per_game.values():
        for a_label, a_rank in seats:
            for b_label, b_rank in seats:
                if a_label == b_label:
                    continue
                acc = pair_counts[(a_label, b_label)]
                acc[0] += 1.0 if a_rank < b_rank else 0.5 if a_rank == b_rank else 0.0
                acc[1] += 1
    for (a, b), (score, n) in sorted(pair_counts.items()):
        h2h.setdefault(a, {})[b] = {"meetings": n, "score": score / n}
    agents = []
    for label in sorted(by_label):
        # statistics are over seats played: an agent holding several seats of a game counts each
        entry = {"agent": label, **_block(by_label[label]), "games": len(games_of[label]), "seats": len(by_label[label])}
        entry["rating"] = table.get(label)
        entry["by_seat"] = {str(seat): _block(rows) for (l, seat), rows in sorted(by_seat.items()) if l == label}
        entry["by_role"] = {role: _block(rows) for (l, role), rows in sorted(by_role.items()) if l == label}
        entry["rank_histogram"] = _histogram([r[1] for r in by_label[label]])
        agents.append(entry)
    failures = db.execute("select count(*) from games where errors > 0").fetchone()[0]
    aborted = db.execute("select count(*) from games where aborted is not null").fetchone()[0]
    stats = db.execute("select avg(nbytes), avg(steps), avg(duration_ms) from games").fetchone()
    return {
        "teams": _team_blocks(team_rows),
        "games": total,
        "games_with_agent_errors": failures,
        "games_aborted": aborted,
        "mean_log_bytes": stats[0],
        "mean_steps": stats[1],
        "mean_game_ms": stats[2],
        "agents": agents,
        "head_to_head": h2h,
        "rating_history": history,
    }


def _team_rows(db: Any) -> list[tuple[str, list[tuple[list[str], float, bool, int]]]]:
    """Per game in game-id order: each team as (seat labels, rank, won, position)."""
    out = []
    rows = db.execute("select game_id, seats, ranks, winners, teams from games where aborted is null order by game_id").fetchall()
    for gid, seats, ranks, winners, teams in rows:
        teams = teams or [[s] for s in range(len(seats))]  # a store older than teams: seats on their own
        out.append((gid, [([seats[s] for s in team], min(ranks[s] for s in team), any(s in winners for s in team), pos)
                          for pos, team in enumerate(teams)]))
    return out


def _team_blocks(team_rows: list[tuple[str, list[tuple[list[str], float, bool, int]]]]) -> list[dict[str, Any]]:
    """Win rates (Wilson intervals) of each team make-up (its labels joined by '+'), overall and by
    team position; empty when every team is a single seat (the per-agent table says it all)."""
    if all(len(labels) == 1 for _, teams in team_rows for labels, _, _, _ in teams):
        return []
    by_team: dict[str, list[tuple[float, bool]]] = defaultdict(list)
    by_position: dict[tuple[str, int], list[tuple[float, bool]]] = defaultdict(list)
    for _, teams in team_rows:
        for labels, rank, won, pos in teams:
            key = "+".join(sorted(set(labels)))
            by_team[key].append((rank, won))
            by_position[(key, pos)].append((rank, won))
    out = []
    for key, rows in sorted(by_team.items()):
        wins = sum(won for _, won in rows)
        rate, lo, hi = wilson(wins, len(rows))
        positions = {}
        for (k, pos), prow in sorted(by_position.items()):
            if k == key:
                p_rate, p_lo, p_hi = wilson(sum(w for _, w in prow), len(prow))
                positions[str(pos)] = {"games": len(prow), "win_rate": p_rate, "win_rate_ci": [p_lo, p_hi]}
        out.append({"team": key, "games": len(rows), "wins": wins, "win_rate": rate, "win_rate_ci": [lo, hi],
                    "mean_rank": sum(r for r, _ in rows) / len(rows), "by_position": positions})
    return out


def _histogram(ranks: list[float]) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for r in ranks:
        out[f"{r:g}"] += 1
    return dict(sorted(out.items(), key=lambda kv: float(kv[0])))


def _value(row: dict[str, Any]) -> str:
    """A section row's value, with its interval and count where it has them."""
    text = f"{row['value']:.3f}" if isinstance(row["value"], float) else str(row["value"])
    if row.get("ci"):
        text += f" [{row['ci'][0]:.3f}, {row['ci'][1]:.3f}]"
    return text + (f" ({row['n']})" if row.get("n") is not None else "")


def _ci(block: dict[str, Any], key: str, fmt: str = "{:.3f}") -> str:
    lo, hi = block[f"{key}_ci"]
    return f"{fmt.format(block[key])} [{fmt.format(lo)}, {fmt.format(hi)}]"


def _rate(block: dict[str, Any], key: str) -> str:
    value = block.get(key)
    return "-" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.3f}"


def format_text(report: dict[str, Any]) -> str:
    lines = [f"{report['games']:,} games recorded ({report.get('games_aborted', 0)} aborted over their time budget, "
             f"{report['games_with_agent_errors']} with agent errors); "
             f"mean {report['mean_steps'] or 0:.1f} steps, {report['mean_log_bytes'] or 0:,.0f} log bytes per game", ""]
    rates = f"{'abort rate':>12}{'error rate':>12}"
    if report.get("cooperative"):
        head = f"{'agent':<18}{'seats':>7}  {'mean score [95% CI]':<26}{'win rate [95% CI]':<26}{rates}"
        lines += [head, "-" * len(head)]
        lines += [f"{a['agent']:<18}{a['seats']:>7}  {_ci(a, 'mean_score'):<26}{_ci(a, 'win_rate'):<26}"
                  f"{_rate(a, 'abort_rate'):>12}{_rate(a, 'error_rate'):>12}" for a in report["agents"]]
        s = report["scores"]
        lines += ["", f"score per game (one team): mean {_ci(s, 'mean')}; distribution (score: games): "
                  + ", ".join(f"{k}: {v}" for k, v in s["histogram"].items())]
    else:
        head = (f"{'agent':<18}{'seats':>7}  {'mean score [95% CI]':<26}{'mean rank [95% CI]':<26}"
                f"{'win rate [95% CI]':<26}{rates}{'rating mu/sigma':>16}")
        lines += [head, "-" * len(head)]
        for a in report["agents"]:
            r = a["rating"] or {"mu": math.nan, "sigma": math.nan}
            lines.append(
                f"{a['agent']:<18}{a['seats']:>7}  {_ci(a, 'mean_score'):<26}{_ci(a, 'mean_rank'):<26}{_ci(a, 'win_rate'):<26}"
                f"{_rate(a, 'abort_rate'):>12}{_rate(a, 'error_rate'):>12}{r['mu']:>9.2f}/{r['sigma']:<6.2f}"
            )
        lines += ["", "rank distribution (rank: seats)"]
        lines += [f"  {a['agent']:<16} " + ", ".join(f"{k}: {v}" for k, v in a["rank_histogram"].items())
                  for a in report["agents"]]
    for section in report.get("sections", []):
        lines += ["", section["title"]]
        lines += [f"  {row['label']:<24} {_value(row)}" for row in section.get("rows", [])]
        if section.get("histogram"):
            lines.append("  distribution: " + ", ".join(f"{k}: {v}" for k, v in section["histogram"].items()))
    for title, key in (("per seat", "by_seat"), ("per role / power", "by_role")):
        if any(a[key] for a in report["agents"]):
            lines += ["", f"{title}: win rate (games)"]
            for a in report["agents"]:
                cells = ", ".join(f"{k}: {b['win_rate']:.3f} ({b['games']})" for k, b in a[key].items())
                lines.append(f"  {a['agent']:<16} {cells}")
    if report.get("teams"):
        lines += ["", "teams: win rate [95% Wilson CI] (games); by team position"]
        for t in report["teams"]:
            cells = ", ".join(f"{pos}: {b['win_rate']:.3f} ({b['games']})" for pos, b in t["by_position"].items())
            lines.append(f"  {t['team']:<24} {_ci(t, 'win_rate')} ({t['games']}); {cells}")
    if report["head_to_head"]:
        labels = sorted(report["head_to_head"])
        lines += ["", "head to head: share of meetings ranked ahead (ties count half), row vs column"]
        lines.append(" " * 18 + "".join(f"{l[:10]:>11}" for l in labels))
        for a in labels:
            row = report["head_to_head"][a]
            lines.append(f"{a:<18}" + "".join(f"{row[b]['score']:>11.3f}" if b in row else f"{'-':>11}" for b in labels))
    return "\n".join(lines)
