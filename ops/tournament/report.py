"""Tournament reports from the store: per-agent means with 95% confidence intervals, win rates,
breakdowns per seat and per role (or power), head-to-head, and openskill ratings.

Every number is an aggregate DuckDB computes over the store (seat rows grouped by what a block
needs, then summed here exactly: counts are integers, means and variances `math.fsum`s over
sorted groups), so a report of a million games moves a few thousand rows into Python, and the
same store always gives the same numbers. Ratings are rated in game order and kept with the
store (ops/tournament/ratings.py): a report rates only the games recorded since the last one.
Means use the normal approximation (mean +- 1.96 standard errors); win rates use the Wilson
score interval.

Beside every win rate stand an abort rate (the share of seats whose game was aborted over its time
budget against them: each such seat counts as a loss, ranked last, with no score) and an error
rate (the share of seats with at least one error event naming their actors: illegal moves,
failures, refused answers, retirements). An aborted game counts for the seat blamed only; it is
left out of ratings, head to head, teams and the games' own sections (it has no result).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from ops.tournament.llm import CAP_META, format_model_calls, game_model_calls, model_call_report
from ops.tournament.ratings import TEAMS, from_scratch, rate_store
from ops.tournament.store import Store

Z95 = 1.959963984540054


def mean_ci_counts(counts: Iterable[tuple[float, int]]) -> tuple[float, float, float]:
    """Mean and its 95% interval (normal approximation) of values given as (value, how many)."""
    pairs = sorted((v, c) for v, c in counts if c)
    n = sum(c for _, c in pairs)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = math.fsum(v * c for v, c in pairs) / n
    if n == 1:
        return (mean, mean, mean)
    var = math.fsum(c * (v - mean) ** 2 for v, c in pairs) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def mean_ci(values: Iterable[float]) -> tuple[float, float, float]:
    """Mean and its 95% interval (normal approximation)."""
    return mean_ci_counts(Counter(values).items())


def wilson(wins: int, n: int) -> tuple[float, float, float]:
    """Win rate and its 95% Wilson score interval."""
    if n == 0:
        return (math.nan, math.nan, math.nan)
    p = wins / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (p, max(0.0, centre - half), min(1.0, centre + half))


def _block(groups: list[tuple]) -> dict[str, Any]:
    """Summary of seat rows grouped as (score, rank, win, aborted, errors > 0, seats): an aborted
    seat has no score; errors are unknown (None) in stores older than per-seat errors."""
    scores: Counter = Counter()
    ranks: Counter = Counter()
    seats = wins = aborted = counted = erred = 0
    for score, rank, win, was_aborted, with_errors, n in groups:
        seats += n
        if score is not None:
            scores[score] += n
        if rank is not None:
            ranks[rank] += n
        wins += n if win else 0
        aborted += n if was_aborted else 0
        if with_errors is not None:
            counted += n
            erred += n if with_errors else 0
    ms, ms_lo, ms_hi = mean_ci_counts(scores.items())
    mr, mr_lo, mr_hi = mean_ci_counts(ranks.items())
    wr, wr_lo, wr_hi = wilson(wins, seats)
    return {
        "games": seats,
        "mean_score": ms,
        "mean_score_ci": [ms_lo, ms_hi],
        "mean_rank": mr,
        "mean_rank_ci": [mr_lo, mr_hi],
        "win_rate": wr,
        "win_rate_ci": [wr_lo, wr_hi],
        "aborted": aborted,
        "abort_rate": aborted / seats if seats else math.nan,
        "with_errors": erred,
        "error_rate": erred / counted if counted else math.nan,
    }


def ratings(games: list[tuple[str, list[list[str]], list[float]]]) -> tuple[dict[str, dict[str, float]], list[dict[str, Any]]]:
    """openskill (Plackett-Luce) team ratings per label, rating every game (id, teams' labels,
    teams' ranks) in the order given, from scratch: what a report's kept ratings equal."""
    return from_scratch([(teams, ranks) for _, teams, ranks in games])


REPORT_FORMAT = 2  # 2: game, cooperative, scores, sections, games_listed (1: before teams and plugins' sections)


def build_report(store: Store) -> dict[str, Any]:
    """Every number of the report, JSON-ready. A cooperative game (every game one team) gets the
    score distribution instead of ranks, ratings and head-to-head. A store opened for writing
    keeps the ratings it rated (ops/tournament/ratings.py)."""
    import json

    db = store.db
    report = _ranked_report(store)
    game = json.loads(store.get_meta("spec") or "{}").get("game")
    cooperative = db.execute("select count(*) > 0 and coalesce(bool_and(len(teams) = 1), false) from outcomes").fetchone()[0]
    report.update(format=REPORT_FORMAT, game=game, cooperative=cooperative, sections=_sections(game, db),
                  games_listed=_listed(db), model_calls=model_call_report(db),
                  capped=json.loads(store.get_meta(CAP_META) or "null"))
    _name_agents(db, report["agents"], json.loads(store.get_meta("spec") or "{}"))
    _agent_faults(db, report["agents"])
    calls = game_model_calls(db, [g["game_id"] for g in report["games_listed"]]) if report["model_calls"] else {}
    for g in report["games_listed"]:
        g["model_calls"] = calls.get(g["game_id"])
    if cooperative:
        counts = db.execute("select scores[1], sum(c) from outcomes where not aborted group by all").fetchall()
        mean, lo, hi = mean_ci_counts(counts)
        report["scores"] = {"mean": mean, "mean_ci": [lo, hi], "histogram": _histogram(counts)}
        report["head_to_head"], report["rating_history"], report["teams"] = {}, [], []  # one team: its score says it all
        for entry in report["agents"]:
            for key in ("mean_rank", "mean_rank_ci", "rating", "rank_histogram"):
                entry.pop(key, None)
            for block in [*entry["by_seat"].values(), *entry["by_role"].values()]:
                block.pop("mean_rank", None)
                block.pop("mean_rank_ci", None)
    else:
        table, history = rate_store(db, writable=not store.read_only)
        report["rating_history"] = history
        for entry in report["agents"]:
            entry["rating"] = table.get(entry["agent"])
    return report


def _has_column(db: Any, name: str) -> bool:
    return bool(db.execute("select count(*) from information_schema.columns where table_name = 'games' "
                           "and column_name = ?", [name]).fetchone()[0])


def _name_agents(db: Any, agents: list[dict[str, Any]], spec: dict[str, Any]) -> None:
    """Each agent's `name` as readers see it: its label; for an external agent the spec gave no
    label, the name its handshake gave, its label beside it (`perl-agent 1.0 (exec:agent)`)."""
    unlabelled = {e.get("agent") for e in spec.get("lineup") or () if not e.get("label")}
    said: dict[str, str] = {}
    if _has_column(db, "said"):
        rows = db.execute("""select label, min(said) from (
                select unnest(seats) as label, unnest(said) as said from games where said is not null)
            group by label""").fetchall()
        said = {label: text for label, text in rows if text}
    for entry in agents:
        label = entry["agent"]
        text = said.get(label, "")
        inner = text[text.find("[") + 1:text.rfind("]")] if "[" in text else ""
        external = label.split(":", 1)[0] in ("exec", "ws") and label.split(":", 1)[0] in unlabelled
        entry["name"] = f"{inner} ({label})" if external and inner and ":" not in inner else label


def _agent_faults(db: Any, agents: list[dict[str, Any]]) -> None:
    """Each agent's error events over the tournament: `errors` {count, games, by_category, first:
    {game_id, seq, category, actor, reason}} (None where it had none, or the store predates it)."""
    for entry in agents:
        entry["errors"] = None
    if not _has_column(db, "seat_faults"):
        return
    import json

    by_label = {entry["agent"]: entry for entry in agents}

    gids = dict(db.execute("select idx, game_id from games where seat_faults is not null").fetchall())
    rows = db.execute("""select idx, label, cast(faults as varchar) from (
            select idx, unnest(seats) as label, unnest(cast(seat_faults as json[])) as faults
            from games where seat_faults is not null)
        where cast(faults as varchar) <> 'null' order by idx""").fetchall()
    for idx, label, text in rows:
        entry = by_label.get(label)
        if entry is None:
            continue
        faults = json.loads(text)
        errs = entry["errors"]
        if errs is None:
            first = dict(faults["first"], game_id=gids[idx])
            errs = entry["errors"] = {"count": 0, "games": 0, "by_category": {}, "first": first}
        errs["games"] += 1
        for category, n in faults["by_category"].items():
            errs["by_category"][category] = errs["by_category"].get(category, 0) + n
            errs["count"] += n
    for entry in agents:
        if entry["errors"]:
            entry["errors"]["by_category"] = dict(sorted(entry["errors"]["by_category"].items()))


def fault_lines(agents: list[dict[str, Any]]) -> list[str]:
    """The agents that had errors, one line each: counts by category, the first with its game and seq."""
    from ops.faults import fault_line

    out = []
    for a in agents:
        e = a.get("errors")
        if e:
            out.append("  " + fault_line(a.get("name", a["agent"]), e, games=f" in {e['games']:,} games",
                                         game=f" in {e['first']['game_id']}"))
    return out


def _sections(game: str | None, db: Any) -> list[dict[str, Any]]:
    """The game's own report sections, as its plugin declares them (none when it declares none).
    Plugin code runs behind the plugin guard (replay/guard.py): sections that fail, or are not
    sections, are one section marked unavailable with the fault's line (the rest of the report
    stands)."""
    from games.plugin import resolve
    from games.registry import UnknownGame, get_plugin
    from ops.tournament.sections import Games
    from replay.guard import PluginFault, guard

    try:
        plugin = get_plugin(game) if game else None
    except UnknownGame:
        return []
    if plugin is None or not plugin.report:
        return []
    report = resolve(plugin.report)
    games = Games(db)

    def where() -> str:
        return f"stored game {games.reading}" if games.reading is not None else "the store"

    try:
        with guard(game, "report", where=where):
            return [_section_checked(s) for s in report(games)]
    except PluginFault as exc:
        return [{"title": f"{game} sections", "unavailable": str(exc), "rows": [], "histogram": None}]


def _section_checked(section: Any) -> dict[str, Any]:
    """A plugin's report section as the report prints it (else a TypeError, inside the guard)."""
    if not isinstance(section, dict) or not isinstance(section.get("title"), str):
        raise TypeError(f"a report section is a dict with a title, not {type(section).__name__}")
    rows = section.get("rows") or []
    for row in rows:
        if not isinstance(row, dict) or not isinstance(row.get("label"), str):
            raise TypeError(f"a report row is a dict with a label (section {section['title']!r})")
        value, ci = row.get("value"), row.get("ci")
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float, str))):
            raise TypeError(f"row {row['label']!r} of section {section['title']!r}: value is not a number or text")
        if ci is not None and not (isinstance(ci, (list, tuple)) and len(ci) == 2
                                   and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in ci)):
            raise TypeError(f"row {row['label']!r} of section {section['title']!r}: ci is not [lo, hi]")
    histogram = section.get("histogram")
    if histogram is not None and not (isinstance(histogram, dict) and all(isinstance(v, int) for v in histogram.values())):
        raise TypeError(f"section {section['title']!r}: histogram is not {{value: count}}")
    return section


LISTED = 20  # games linked from a report: the first ones, then any aborted or with agent errors
_LIST = "select game_id, summary, steps, errors, aborted, idx from games"


def _listed(db: Any) -> list[dict[str, Any]]:
    first = db.execute(f"{_LIST} order by idx limit ?", [LISTED]).fetchall()
    more = db.execute(f"{_LIST} where idx > ? and (errors <> 0 or aborted <> '') order by idx limit ?",
                      [first[-1][-1], LISTED]).fetchall() if len(first) == LISTED else []
    return [{"game_id": gid, "summary": summary, "steps": steps, "errors": errors, "aborted": aborted}
            for gid, summary, steps, errors, aborted, _ in first + more]


# The games grouped by everything the report reads of them but their ids: a tournament of a
# million games has a few thousand different outcomes (seatings x deals x results), so what is
# counted per seat, per pair of seats and per team is counted once per outcome, times `c`.
_OUTCOMES = f"""create or replace temp table outcomes as
    select seats, roles, scores, ranks, winners, {TEAMS} as teams, aborted is not null as aborted, blame, seat_errors,
           count(*) as c
    from games group by all"""


def _ranked_report(store: Store) -> dict[str, Any]:
    db = store.db
    db.execute(_OUTCOMES)
    groups = db.execute("""
        select label, seat, role, score, rank, win, aborted, errors > 0, sum(c) from (
            select c, seats[s + 1] as label, s as seat, roles[s + 1] as role, scores[s + 1] as score,
                   ranks[s + 1] as rank, list_contains(winners, s) as win, aborted, seat_errors[s + 1] as errors
            from (select *, unnest(range(len(seats))) as s from outcomes)
            where not aborted or s = blame)  -- an aborted game counts for the seat blamed only
        group by all""").fetchall()
    by_label: dict[str, list[tuple]] = defaultdict(list)
    by_seat: dict[tuple[str, int], list[tuple]] = defaultdict(list)
    by_role: dict[tuple[str, str], list[tuple]] = defaultdict(list)
    for label, seat, role, *rest in groups:
        by_label[label].append(tuple(rest))
        by_seat[(label, seat)].append(tuple(rest))
        if role:
            by_role[(label, role)].append(tuple(rest))
    games_of = dict(db.execute("""
        select label, sum(c) from (
            select c, unnest(case when aborted then [seats[blame + 1]] else list_distinct(seats) end) as label from outcomes)
        where label is not null group by all""").fetchall())
    agents = []
    for label in sorted(by_label):
        # statistics are over seats played: an agent holding several seats of a game counts each
        block = _block(by_label[label])
        entry = {"agent": label, **block, "games": games_of[label], "seats": block["games"]}
        entry["rating"] = None
        entry["by_seat"] = {str(seat): _block(rows) for (l, seat), rows in sorted(by_seat.items()) if l == label}
        entry["by_role"] = {role: _block(rows) for (l, role), rows in sorted(by_role.items()) if l == label}
        entry["rank_histogram"] = _histogram((g[1], g[-1]) for g in by_label[label] if g[1] is not None)
        agents.append(entry)
    total, failures, aborted, mean_bytes, mean_steps, mean_ms = db.execute(
        "select count(*), count(*) filter (where errors > 0), count(*) filter (where aborted is not null), "
        "avg(nbytes), avg(steps), avg(duration_ms) from games").fetchone()
    return {
        "teams": _team_blocks(db),
        "games": total,
        "games_with_agent_errors": failures,
        "games_aborted": aborted,
        "mean_log_bytes": mean_bytes,
        "mean_steps": mean_steps,
        "mean_game_ms": mean_ms,
        "agents": agents,
        "head_to_head": _head_to_head(db),
        "rating_history": [],
    }


def _head_to_head(db: Any) -> dict[str, dict[str, dict[str, Any]]]:
    """Per ordered pair of labels: their meetings (pairs of seats of one played game) and the
    share the first ranked ahead (ties count half)."""
    rows = db.execute("""
        select p.a, p.b, sum(c), sum(c * p.halves) from (
            select c, unnest(flatten([[{'a': seats[i], 'b': seats[j],
                                        'halves': case when ranks[i] < ranks[j] then 2 when ranks[i] = ranks[j] then 1 else 0 end}
                                       for j in range(1, len(seats) + 1) if seats[i] <> seats[j]]
                                      for i in range(1, len(seats) + 1)])) as p
            from outcomes where not aborted)
        group by all""").fetchall()
    h2h: dict[str, dict[str, dict[str, Any]]] = {}
    for a, b, meetings, halves in sorted(rows):
        h2h.setdefault(a, {})[b] = {"meetings": int(meetings), "score": int(halves) / 2 / int(meetings)}
    return h2h


def _team_blocks(db: Any) -> list[dict[str, Any]]:
    """Win rates (Wilson intervals) of each team make-up (its labels joined by '+'), overall and by
    team position; empty when every team is a single seat (the per-agent table says it all)."""
    widest = db.execute("select max(list_max(list_transform(teams, lambda t: len(t)))) from outcomes where not aborted").fetchone()[0]
    if not widest or widest <= 1:
        return []
    groups = db.execute("""
        select array_to_string(list_sort(list_distinct(list_transform(team, lambda s: seats[s + 1]))), '+'), pos,
               list_min(list_transform(team, lambda s: ranks[s + 1])),
               list_bool_or(list_transform(team, lambda s: list_contains(winners, s))), sum(c)
        from (select c, seats, ranks, winners, teams[pos + 1] as team, pos
              from (select *, unnest(range(len(teams))) as pos from outcomes where not aborted))
        group by all""").fetchall()
    by_team: dict[str, list[tuple[float, bool, int]]] = defaultdict(list)
    by_position: dict[tuple[str, int], list[tuple[float, bool, int]]] = defaultdict(list)
    for key, pos, rank, won, n in groups:
        by_team[key].append((rank, won, int(n)))
        by_position[(key, pos)].append((rank, won, int(n)))
    out = []
    for key, rows in sorted(by_team.items()):
        games = sum(n for _, _, n in rows)
        wins = sum(n for _, won, n in rows if won)
        rate, lo, hi = wilson(wins, games)
        positions = {}
        for (k, pos), prow in sorted(by_position.items()):
            if k == key:
                p_games = sum(n for _, _, n in prow)
                p_rate, p_lo, p_hi = wilson(sum(n for _, won, n in prow if won), p_games)
                positions[str(pos)] = {"games": p_games, "win_rate": p_rate, "win_rate_ci": [p_lo, p_hi]}
        out.append({"team": key, "games": games, "wins": wins, "win_rate": rate, "win_rate_ci": [lo, hi],
                    "mean_rank": math.fsum(r * n for r, _, n in sorted(rows)) / games, "by_position": positions})
    return out


def _histogram(counts: Iterable[tuple[float, int]]) -> dict[str, int]:
    """Counts per value (as `%g` text), in the values' order."""
    out: dict[str, int] = defaultdict(int)
    for value, n in counts:
        out[f"{value:g}"] += n
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
    w = max([18] + [len(a.get("name", a["agent"])) + 2 for a in report["agents"]])  # names from handshakes may be longer
    if report.get("cooperative"):
        head = f"{'agent':<{w}}{'seats':>7}  {'mean score [95% CI]':<26}{'win rate [95% CI]':<26}{rates}"
        lines += [head, "-" * len(head)]
        lines += [f"{a.get('name', a['agent']):<{w}}{a['seats']:>7}  {_ci(a, 'mean_score'):<26}{_ci(a, 'win_rate'):<26}"
                  f"{_rate(a, 'abort_rate'):>12}{_rate(a, 'error_rate'):>12}" for a in report["agents"]]
        s = report["scores"]
        lines += ["", f"score per game (one team): mean {_ci(s, 'mean')}; distribution (score: games): "
                  + ", ".join(f"{k}: {v}" for k, v in s["histogram"].items())]
    else:
        head = (f"{'agent':<{w}}{'seats':>7}  {'mean score [95% CI]':<26}{'mean rank [95% CI]':<26}"
                f"{'win rate [95% CI]':<26}{rates}{'rating mu/sigma':>16}")
        lines += [head, "-" * len(head)]
        for a in report["agents"]:
            r = a["rating"] or {"mu": math.nan, "sigma": math.nan}
            lines.append(
                f"{a.get('name', a['agent']):<{w}}{a['seats']:>7}  {_ci(a, 'mean_score'):<26}{_ci(a, 'mean_rank'):<26}{_ci(a, 'win_rate'):<26}"
                f"{_rate(a, 'abort_rate'):>12}{_rate(a, 'error_rate'):>12}{r['mu']:>9.2f}/{r['sigma']:<6.2f}"
            )
        lines += ["", "rank distribution (rank: seats)"]
        lines += [f"  {a['agent']:<16} " + ", ".join(f"{k}: {v}" for k, v in a["rank_histogram"].items())
                  for a in report["agents"]]
    for section in report.get("sections", []):
        lines += ["", section["title"]]
        if section.get("unavailable"):
            lines.append(f"  unavailable: {section['unavailable']}")
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
    faults = fault_lines(report["agents"])
    if faults:
        lines += ["", "agent errors (count by category; the first, with its game and seq: detente replay show DIR --game ID --at SEQ)"]
        lines += faults
    lines += format_model_calls(report.get("model_calls") or [])
    if report.get("capped"):
        c = report["capped"]
        lines += ["", f"stopped handing out games: {c['why']}; {c['recorded']:,} of {c['games']:,} games recorded "
                      "(a run with a higher cap plays on)"]
    if report["head_to_head"]:
        labels = sorted(report["head_to_head"])
        lines += ["", "head to head: share of meetings ranked ahead (ties count half), row vs column"]
        lines.append(" " * 18 + "".join(f"{l[:10]:>11}" for l in labels))
        for a in labels:
            row = report["head_to_head"][a]
            lines.append(f"{a:<18}" + "".join(f"{row[b]['score']:>11.3f}" if b in row else f"{'-':>11}" for b in labels))
    return "\n".join(lines)
