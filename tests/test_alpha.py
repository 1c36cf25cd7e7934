"""The Alpha President: knowledge base, its template and hooks, KB changes as logged events, the builder."""

from __future__ import annotations
import pytest

from actors.alpha.builder import AlphaAgent, office_from, president_from
from actors.alpha.kb import KnowledgeBase
from actors.alpha.offices import Answer, IntelligenceOffice, StrategyOffice
from actors.alpha.options import AgentOptions
from actors.alpha.president import President, Step
from actors.alpha.traits import Traits
from actors.match import make_header, record
from actors.registry import AGENTS, AgentDef, AgentSpec, build_player, parse_lineup, parse_spec
from bus.log import parse_log
from bus.messages import Act, ActRequest, KBChange, KBUpdate, OfficeReply, OfficeRequest, Suggestion, Talk, TalkTurn


def test_kb_copy_on_write_keeps_views_stable():
    kb = KnowledgeBase({"trust": {"1": 1.0}})
    view = kb.view(["trust", "missing"])
    kb.set(("trust", "1"), 0.2)
    kb.set(("beliefs", "3", "werewolf"), 0.9)
    assert view == {"trust": {"1": 1.0}}
    assert kb.get("trust", "1") == 0.2 and kb.get("beliefs", "3", "werewolf") == 0.9
    kb.apply([KBUpdate(path=("trust", "1"), value=None)])
    assert kb.get("trust") == {}


def _request(legal=("abstain", "vote:1", "vote:2")):
    return ActRequest(sender="referee", to="p0", turn=4, player=0, legal=legal, observation={"me": 0})


def test_president_alone_picks_a_legal_action():
    pr = President("p0", 1, 0, {}, Traits())
    [act] = pr.handle(_request())
    assert isinstance(act, Act) and act.action in _request().legal and act.turn == 4


def test_president_asks_io_then_so_and_logs_kb_changes():
    pr = President("p0", 1, 0, {"io": "p0/io", "so": "p0/so"}, Traits(risk=0.0))
    [ask_io] = pr.handle(_request())
    assert isinstance(ask_io, OfficeRequest) and ask_io.to == "p0/io" and ask_io.task == "update"
    assert ask_io.view["observation"] == {"me": 0}
    update = KBUpdate(path=("trust", "2"), value=0.4)
    out = pr.handle(OfficeReply(sender="p0/io", to="p0", task="update", turn=4, updates=(update,)))
    assert isinstance(out[0], KBChange) and out[0].updates == (update,) and out[0].source == "p0/io"
    ask_so = out[1]
    assert ask_so.to == "p0/so" and ask_so.view["trust"] == {"2": 0.4} and ask_so.legal == _request().legal
    suggestions = (Suggestion(action="vote:2", utility=5.0), Suggestion(action="vote:1", utility=1.0))
    [act] = pr.handle(OfficeReply(sender="p0/so", to="p0", task="suggest", turn=4, suggestions=suggestions))
    assert act.action == "vote:2"  # risk 0: the best suggestion


def test_stale_office_reply_is_ignored():
    pr = President("p0", 1, 0, {"so": "p0/so"}, Traits())
    pr.handle(_request())
    assert pr.handle(OfficeReply(sender="p0/so", to="p0", task="suggest", turn=3)) == []


def test_utility_weighted_choice_prefers_higher_utility():
    counts = {"vote:1": 0, "vote:2": 0}
    for seed in range(400):
        pr = President("p0", seed, 0, {"so": "p0/so"}, Traits(risk=0.5))
        pr.handle(_request())
        sugg = (Suggestion(action="vote:1", utility=1.0), Suggestion(action="vote:2", utility=3.0))
        [act] = pr.handle(OfficeReply(sender="p0/so", to="p0", task="suggest", turn=4, suggestions=sugg))
        counts[act.action] += 1
    assert counts["vote:2"] > counts["vote:1"] > 0


def test_honest_president_keeps_commitment():
    pr = President("p0", 1, 0, {}, Traits(honesty=1.0))
    pr.kb.set(("commitments", "4"), "vote:2")
    [act] = pr.handle(_request())
    assert act.action == "vote:2"


class TrustingIO(IntelligenceOffice):
    def update(self, request):
        seat = request.view["seat"]
        return Answer(updates=[KBUpdate(path=("trust", str((seat + 1) % 10)), value=1.5)])


class FirstSO(StrategyOffice):
    def suggest(self, request):
        return Answer(suggestions=[Suggestion(action=request.legal[-1], utility=1.0)])


def _io_so(game, seat, seed, opts):
    offices = {"io": f"p{seat}/io", "so": f"p{seat}/so"}
    return [President(f"p{seat}", seed, seat, offices, Traits()), TrustingIO(offices["io"], seed), FirstSO(offices["so"], seed)]


def test_every_kb_change_is_a_logged_event(monkeypatch):
    monkeypatch.setitem(AGENTS, "ioso", AgentDef("ioso", None, _io_so, "test"))
    header = make_header("werewolves", 2, [AgentSpec(name="ioso")] * 10)
    records = [r["msg"] for r in parse_log(record(header)).games[0].records]
    changes = [m for m in records if m["kind"] == "kb_change"]
    requests = [m for m in records if m["kind"] == "office_request" and m["task"] == "update"]
    assert changes and len(changes) == len(requests)
    assert all(c["updates"][0]["path"][0] == "trust" for c in changes)


def test_spec_parsing_and_offices_switch():
    spec = parse_spec("random:offices=;width=2;traits.honesty=0.9")
    assert spec.options == {"offices": "", "width": 2, "traits": {"honesty": 0.9}}
    actors = build_player(spec, "werewolves", 3, 1)
    assert [a.address for a in actors] == ["p3"]  # no office switched on: President alone
    assert [a.address for a in build_player(parse_spec("random"), "werewolves", 3, 1)] == ["p3", "p3/so"]
    assert len(parse_lineup("random", 10)) == 10


class CarefulPresident(President):
    """Overrides two hooks only: the SO is asked for deal utilities too, and the last legal action wins."""

    def plan_act(self, request):
        return super().plan_act(request) + [Step("so", "deal_utility"), Step("fo", "negotiate")]

    def choose(self, request, suggestions):
        return request.legal[-1]


def test_a_subclass_overrides_hooks_not_the_pipeline():
    pr = CarefulPresident("p0", 1, 0, {"so": "p0/so"}, Traits())
    [ask] = pr.handle(_request())
    assert (ask.task, ask.legal) == ("suggest", _request().legal)  # the absent IO and FO are skipped
    [ask] = pr.handle(OfficeReply(sender="p0/so", to="p0", task="suggest", turn=4))
    assert ask.task == "deal_utility" and ask.view["legal"] == list(_request().legal)
    [act] = pr.handle(OfficeReply(sender="p0/so", to="p0", task="deal_utility", turn=4))
    assert isinstance(act, Act) and act.action == "vote:2"


def test_talk_turn_sends_what_the_foreign_office_says():
    pr = President("p0", 1, 0, {"fo": "p0/fo", "so": "p0/so"}, Traits())
    turn = TalkTurn(sender="referee", to="p0", turn=2, channel="public", round=1, max_rounds=3, members=(0, 1), observation={})
    [ask] = pr.handle(turn)
    assert ask.to == "p0/fo" and ask.legal == () and ask.view["talk"] == {"channel": "public", "round": 1, "max_rounds": 3}
    [talk] = pr.handle(OfficeReply(sender="p0/fo", to="p0", task="negotiate", turn=2))
    assert isinstance(talk, Talk) and talk.says == () and talk.round == 1
    assert pr.speaks and not President("p0", 1, 0, {"so": "p0/so"}, Traits()).speaks


SPECS = ["random", "alphawolf", "alphawolf:offices=so", "alphawolf:village=random;wolves=so+fo",
         "alphawolf:village=so+fo;wolves=random", "dipblue:archetype=naive", "dipblue:archetype=no_press",
         "alphadip:offices=so", "alphadip:offices=so+fo", "dumbbot:offices="]


# external agents (exec, ws) speak when their handshake says so: tests/external (the talker plays Werewolves);
# the llm agent is one actor that speaks where the game has talk (tests/llm)
@pytest.mark.parametrize("text", SPECS + sorted(set(AGENTS) - {s.split(":")[0] for s in SPECS} - {"exec", "ws", "llm"}))
def test_speaks_when_it_has_a_foreign_office(text):
    """`speaks` is the flag placements read; it agrees with the older rule "a pN/fo actor exists"."""
    from games.registry import game_names

    spec = parse_spec(text)
    agent = AGENTS[spec.name]
    for game in sorted(agent.games or game_names()):
        actors = build_player(spec, game, 2, 1)
        assert actors[0].speaks == any(a.address == "p2/fo" for a in actors), (text, game)


class _TwoOptions(AgentOptions):
    roles = ("io", "so")
    offices: tuple[str, ...] = ("io", "so")
    width: int = 2


class _WideSO(FirstSO):
    def __init__(self, address, seed, width, honesty):
        super().__init__(address, seed)
        self.width, self.honesty = width, honesty


def test_builder_makes_the_declared_offices_at_their_addresses():
    agent = AlphaAgent(
        options=_TwoOptions,
        president=president_from(views={"so": ("legal",)}),
        offices={"io": office_from(TrustingIO), "so": office_from(_WideSO, "width", "traits.honesty")},
    )
    pr, io, so = agent.build("werewolves", 4, 9, {"offices": "pr+so+io", "width": 5, "traits": {"honesty": 0.25}})
    assert (pr.address, io.address, so.address) == ("p4", "p4/io", "p4/so")
    assert pr.offices == {"io": "p4/io", "so": "p4/so"} and pr.views["so"] == ("legal",)
    assert (so.width, so.honesty, pr.traits.honesty) == (5, 0.25, 0.25)
    assert [a.address for a in agent.build("werewolves", 4, 9, {"offices": "so"})] == ["p4", "p4/so"]
    with pytest.raises(ValueError, match="nobody makes: io"):
        AlphaAgent(options=_TwoOptions, offices={"so": office_from(FirstSO)})
