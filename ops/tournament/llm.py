"""What a tournament keeps of its model calls: per-seat totals at game end, endpoint limits, caps.

Every model call is one `model_call` record in its game's log. A runner counts them as the game
is written (`Tally`: a record is decoded only when its bytes name the kind), so a game's row
carries, per seat, its calls, tokens in and out, cost (by the spec's `prices`), each call's
latency, retries and the causes of failed tries; the store keeps that in `games.model_calls` and
reports sum it in SQL. The spec's `endpoints` limits are served by one named Ray actor per
endpoint when the tournament runs on Ray (`serve_endpoints`, by the driver), else by this
process's gates (`configure_endpoints`).
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgpack

from actors.external.connection import set_lane  # noqa: F401  (the runner's game threads set it)
from ops.tournament.spec import TournamentSpec

KIND = b"\xaamodel_call"  # msgpack's "model_call": a record without these bytes is no model call


class Tally:
    """A log writer's stand-in that passes everything on and counts the game's model calls."""

    def __init__(self, writer: Any) -> None:
        self._writer = writer
        self.calls: list[dict[str, Any]] = []

    def header(self, header: dict[str, Any]) -> None:
        self.calls = []
        self._writer.header(header)
        # a game where no actor can make a model call (no model seat or office, no external agent):
        # records go straight to the writer, not through a search of each one
        if "external" not in header and not _kinds_of(header):
            self.record = self._writer.record  # type: ignore[method-assign]
        else:
            self.__dict__.pop("record", None)

    def record(self, payload: bytes) -> None:
        if KIND in payload:
            msg = msgpack.unpackb(payload, raw=False).get("msg") or {}
            if msg.get("kind") == "model_call":
                self.calls.append({k: msg.get(k) for k in ("seat", "model", "tokens_in", "tokens_out",
                                                           "latency_ms", "tries", "outcome")})
        self._writer.record(payload)

    def end_game(self) -> None:
        self._writer.end_game()


def model_call_totals(calls: list[dict[str, Any]], seats: int, spec: TournamentSpec) -> dict[str, Any]:
    """The row's `model_calls`: one entry per seat (None for a game without model calls)."""
    if not calls:
        return {"model_calls": None}
    per = [{"calls": 0, "tokens_in": 0, "tokens_out": 0, "cost": 0.0, "retries": 0, "defaults": 0,
            "latency_ms": [], "causes": {}} for _ in range(seats)]
    for call in calls:
        seat = call.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < seats:
            continue
        p = per[seat]
        tin, tout = int(call.get("tokens_in") or 0), int(call.get("tokens_out") or 0)
        p["calls"] += 1
        p["tokens_in"] += tin
        p["tokens_out"] += tout
        p["cost"] += spec.cost(str(call.get("model")), tin, tout)
        p["latency_ms"].append(int(call.get("latency_ms") or 0))
        tries = call.get("tries") or []
        p["retries"] += len(tries)
        p["defaults"] += call.get("outcome") == "default"
        for t in tries:
            cause = str((t or {}).get("cause"))
            p["causes"][cause] = p["causes"].get(cause, 0) + 1
    for p in per:
        p["causes"] = dict(sorted(p["causes"].items()))
    return {"model_calls": per}


def spent(rows_totals: list[Any]) -> tuple[int, float]:
    """(tokens, cost) of games' `model_calls` entries."""
    tokens, cost = 0, 0.0
    for per in rows_totals:
        for p in per or ():
            tokens += p["tokens_in"] + p["tokens_out"]
            cost += p["cost"]
    return tokens, cost


def gate_name(out: str, endpoint: str) -> str:
    """The Ray actor name of an endpoint's limits in the tournament at `out`."""
    return hashlib.blake2b(f"{out}\0{endpoint}".encode(), digest_size=8).hexdigest()


def serve_endpoints(spec: TournamentSpec, out: str) -> list[Any]:
    """The driver's part on Ray: one named actor per limited endpoint (handles kept by the caller)."""
    from actors.llm.gate import serve

    return [serve(gate_name(out, url), lim.max_in_flight, lim.rpm, lim.tpm)
            for url, lim in sorted(spec.endpoints.items())]


def configure_endpoints(spec: TournamentSpec, out: str) -> None:
    """A runner's gates: the driver's named actors where this process is on Ray and they exist,
    else gates of this process with the spec's limits."""
    from actors.llm.gate import configure

    if not spec.endpoints:
        return
    shared = _on_ray()
    for url, lim in sorted(spec.endpoints.items()):
        name = gate_name(out, url)
        if shared and _exists(name):
            configure(url, shared=name)
        else:
            configure(url, lim.max_in_flight, lim.rpm, lim.tpm)


def _on_ray() -> bool:
    try:
        import ray
    except ImportError:
        return False
    return ray.is_initialized()


def _exists(name: str) -> bool:
    import ray

    from actors.llm.gate import actor_name

    try:
        ray.get_actor(actor_name(name))
    except ValueError:
        return False
    return True


# -- reports ---------------------------------------------------------------------------------------

_PER_SEAT = """select label, p from (select unnest(seats) as label, unnest(json_extract(model_calls, '$[*]')) as p
                                     from games where model_calls is not null)"""


def spent_in_store(db: Any) -> tuple[int, float]:
    """(tokens in + out, cost) of every recorded game's model calls, summed by DuckDB."""
    tokens, cost = db.execute(f"""select coalesce(sum((p->>'tokens_in')::bigint + (p->>'tokens_out')::bigint), 0),
                                         coalesce(sum((p->>'cost')::double), 0) from ({_PER_SEAT})""").fetchone()
    return int(tokens), float(cost)


def model_call_report(db: Any) -> list[dict[str, Any]]:
    """Per agent label: games' model calls, tokens in and out, cost, latency median and p95 (ms),
    retries, answers that fell back to the rules' default, failed tries by cause. Empty when no
    recorded game made a model call."""
    has = db.execute("select count(*) from games where model_calls is not null").fetchone()[0]
    if not has:
        return []
    totals = db.execute(f"""select label, count(*), sum((p->>'calls')::bigint), sum((p->>'tokens_in')::bigint),
                                   sum((p->>'tokens_out')::bigint), sum((p->>'cost')::double), sum((p->>'retries')::bigint),
                                   sum((p->>'defaults')::bigint)
                            from ({_PER_SEAT}) group by label order by label""").fetchall()
    latency = dict((label, (p50, p95)) for label, p50, p95 in db.execute(f"""
        select label, quantile_cont(l, 0.5), quantile_cont(l, 0.95)
        from (select label, unnest((p->'latency_ms')::bigint[]) as l from ({_PER_SEAT})) group by label""").fetchall())
    causes: dict[str, dict[str, int]] = {}
    for label, cause, n in db.execute(f"""
            select label, k, sum((p->'causes'->>k)::bigint)
            from (select label, p, unnest(json_keys(p->'causes')) as k from ({_PER_SEAT}))
            group by label, k order by label, k""").fetchall():
        causes.setdefault(label, {})[cause] = int(n)
    out = []
    for label, seats, calls, tin, tout, cost, retries, defaults in totals:
        if not calls:
            continue  # an agent that makes no model calls
        p50, p95 = latency.get(label, (None, None))
        out.append({"agent": label, "seats": int(seats), "calls": int(calls or 0), "tokens_in": int(tin or 0),
                    "tokens_out": int(tout or 0), "cost": float(cost or 0.0), "latency_ms_median": p50,
                    "latency_ms_p95": p95, "retries": int(retries or 0), "defaults": int(defaults or 0),
                    "failed_tries": causes.get(label, {})})
    return out


def game_model_calls(db: Any, game_ids: list[str]) -> dict[str, dict[str, Any]]:
    """Per listed game: its model calls, tokens in/out and cost (all seats)."""
    if not game_ids:
        return {}
    rows = db.execute("""select game_id, sum((p->>'calls')::bigint), sum((p->>'tokens_in')::bigint),
                                sum((p->>'tokens_out')::bigint), sum((p->>'cost')::double)
                         from (select game_id, unnest(json_extract(model_calls, '$[*]')) as p from games
                               where model_calls is not null and list_contains(?, game_id))
                         group by game_id""", [game_ids]).fetchall()
    return {gid: {"calls": int(c), "tokens_in": int(i), "tokens_out": int(o), "cost": float(k)}
            for gid, c, i, o, k in rows}


def format_model_calls(rows: list[dict[str, Any]]) -> list[str]:
    """The text report's block of model calls per agent."""
    if not rows:
        return []
    head = (f"{'agent':<18}{'calls':>8}{'tokens in':>12}{'tokens out':>12}{'cost':>10}{'p50 ms':>9}{'p95 ms':>9}"
            f"{'retries':>9}{'defaults':>9}  failed tries by cause")
    lines = ["", "model calls", head, "-" * len(head)]
    for r in rows:
        p50 = "-" if r["latency_ms_median"] is None else f"{r['latency_ms_median']:.0f}"
        p95 = "-" if r["latency_ms_p95"] is None else f"{r['latency_ms_p95']:.0f}"
        causes = ", ".join(f"{k}: {v}" for k, v in r["failed_tries"].items()) or "-"
        lines.append(f"{r['agent']:<18}{r['calls']:>8}{r['tokens_in']:>12,}{r['tokens_out']:>12,}{r['cost']:>10.4f}"
                     f"{p50:>9}{p95:>9}{r['retries']:>9}{r['defaults']:>9}  {causes}")
    return lines


# -- the tournament's cap ---------------------------------------------------------------------------

CAP_META = "cap"  # meta key: why the last run stopped handing out games (absent: it did not)


class Cap:
    """The spec's token and cost caps, over every recorded game's model calls: once reached, no
    more batches are handed out (those in flight finish and are recorded). A later run reads what
    was spent from the store, so with a raised cap it plays on."""

    def __init__(self, spec: TournamentSpec, db: Any) -> None:
        self.spec = spec
        self.tokens, self.cost = spent_in_store(db) if spec.token_cap or spec.cost_cap else (0, 0.0)
        self.stopped: str | None = None

    def add(self, rows: list[dict[str, Any]]) -> None:
        tokens, cost = spent([r.get("model_calls") for r in rows])
        self.tokens += tokens
        self.cost += cost

    def reached(self) -> bool:
        s = self.spec
        return (s.token_cap is not None and self.tokens >= s.token_cap) or (s.cost_cap is not None and self.cost >= s.cost_cap)

    def why(self) -> str:
        s = self.spec
        if s.token_cap is not None and self.tokens >= s.token_cap:
            return f"token cap reached: {self.tokens:,} tokens used, cap {s.token_cap:,}"
        return f"cost cap reached: {self.cost:.4f} spent, cap {s.cost_cap:g}"

    def batches(self, batches: Any) -> Any:
        for batch in batches:
            if self.reached():
                self.stopped = self.why()
                return
            yield batch

    def note(self, out: Any, recorded: int) -> None:
        """Keep (or clear) in the store's meta why this run stopped short, for the report."""
        import json

        from ops.tournament.store import Store

        store = Store(out)
        try:
            if self.stopped is not None:
                store.set_meta(CAP_META, json.dumps({"why": self.stopped, "recorded": recorded, "games": self.spec.games,
                                                     "tokens": self.tokens, "cost": self.cost}))
            elif store.get_meta(CAP_META) is not None:
                store.db.execute("delete from meta where key = ?", [CAP_META])
        finally:
            store.close()


# -- recorded answers on a re-run ---------------------------------------------------------------------


def recorded_answers(spec: TournamentSpec, header: dict[str, Any]) -> Any:
    """Within: the game's `llm` actors take the model calls that `spec.answers_from` (an earlier
    run's folder) recorded for this game id, keyed by (the calling actor, call index), when that game had the
    same game, seed, options and lineup; a call it lacks is made live."""
    from contextlib import nullcontext

    if not spec.answers_from or "model_call" not in _kinds_of(header):
        return nullcontext()
    from ops.tournament.store import load_game

    try:
        found = load_game(spec.answers_from, header["game_id"])
    except Exception:  # no such folder, no such store, an unreadable game: nothing recorded to take
        return nullcontext()
    if found is None:
        return nullcontext()
    old = found[0].header
    if any(old.get(k) != header.get(k) for k in ("game", "seed", "options", "agents")):
        return nullcontext()
    calls: dict[tuple[str, int], dict[str, Any]] = {}
    for r in found[0].records:
        msg = r["msg"]
        if msg.get("kind") == "model_call":
            calls.setdefault((str(msg["sender"]), int(msg["call"])), msg)
    from actors.llm.record import answers

    return answers(lambda address, call: calls.get((address, call)))


def _kinds_of(header: dict[str, Any]) -> set[str]:
    """"model_call" when the lineup has a model seat or office (actors.llm.record.uses_llm)."""
    try:
        from actors.llm.record import uses_llm
    except ImportError:
        return set()
    return {"model_call"} if uses_llm(header.get("agents") or []) else set()
