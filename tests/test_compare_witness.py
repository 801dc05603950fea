"""Witnesses: a situation found by the SMT layer (or among a probe's situations), each side played by the
reference engine; three-valued: a witness, proved alike, or UNKNOWN with the reason."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import z3

import verify.compare as pkg

from verify.compare import proofs
from verify.compare import smt_search
from verify.compare.from_rulesets import _Ctx, load_registry
from verify.compare.probes import BY_ID, BY_PARAM, PROBES
from verify.compare.proofs import prove
from verify.compare.search import by_situations, find
from verify.compare.witness import witness
from verify.config import EngineConfig
from verify.config.board import load_deeds
from verify.engine.step import apply
from verify.spec.catalogue import load_catalogue


@pytest.fixture(scope="module")
def ctx():
    return _Ctx(load_registry())


def sides(ctx, rid: str, other: dict, label: str = "other") -> list:
    """A bundled ruleset against the same with ``other`` set (its own money)."""
    r = ctx.reg.resolve(rid)
    return [ctx.party(r), ctx.party(r, other, label)]


def classic(w) -> list:
    return [o.classic for o in w.outcomes]


def test_the_smt_layer_finds_the_unmortgage_witness_and_the_engine_plays_it(ctx):
    w, differs = witness(BY_ID["unmortgage_cost"], sides(ctx, "official", {"mortgage.interest_base": "price"}))
    assert differs is True and w.method == "smt" and w.verdict == "DIFFERS"
    # the engine's own figures: mortgage value plus 10 % of it, or of the printed price
    act = w.script[0]["actions"][0]
    cfg = EngineConfig.from_ruleset(ctx.reg.resolve("official"))
    d = cfg.board.deed(act["square"])
    assert classic(w) == [d.mortgage + round(d.mortgage * 0.1 + 1e-9), d.mortgage + round(d.price * 0.1 + 1e-9)]
    state = w.games[0][1]["state"]
    after, _ = apply(cfg, state, act)                 # the recorded situation really plays so
    assert state["players"][0]["cash"] - after["players"][0]["cash"] == w.outcomes[0].outcome


def test_a_larger_money_scale_shows_its_own_money(ctx):
    w, _ = witness(BY_ID["unmortgage_cost"], sides(ctx, "platform-classic", {"mortgage.interest_base":
                                                                               "mortgage_value"}))
    assert all(o.outcome == 10 * o.classic for o in w.outcomes)


def test_jail_after_the_last_try(ctx):
    w, _ = witness(BY_ID["jail_last_try"], sides(ctx, "official", {"jail.after_last_try": "released_and_move"}))
    assert w.situation["failed"] == 3 and w.method == "engine"
    assert classic(w) == [50, 0]
    # the question asks whether the player stays or leaves as well as how much: the answer says both
    assert [o.text for o in w.outcomes] == ["leaves, paying 50", "leaves, paying 0"]


def test_equivalent_trade_checks_are_proved_alike(ctx):
    """The 50 % gap already implies "at most twice": z3 proves no trade separates the two checks."""
    w, differs = witness(BY_ID["trade_accepted"], sides(ctx, "online-vn", {"trade.max_value_ratio": 2}))
    assert differs is False and w is None
    # online-vn's ratio is the 2 its gap implies: lifting the gap alone leaves that bound, so lift both
    w, differs = witness(BY_ID["trade_accepted"], sides(ctx, "online-vn", {"trade.max_value_gap": "none",
                                                                           "trade.max_value_ratio": "none"}))
    assert differs is True and classic(w) == [False, True]


def test_exact_go_bonus(ctx):
    w, _ = witness(BY_ID["go_salary"], sides(ctx, "official", {"go.exact_landing_bonus": 100}))
    assert w.situation["exact"] is True
    assert classic(w) == [200, 300]


def test_every_probe_reads_catalogued_parameters():
    cat = load_catalogue()
    assert all(pid in cat for pid in BY_PARAM)
    assert len({p.id for p in PROBES}) == len(PROBES)


def test_no_board_values_in_the_comparison_code():
    """Prices, rents and house costs come from the bundled board data, never from the comparison's code."""
    prices = {d.price for d in load_deeds("us-2008")}
    for path in Path(pkg.__file__).parent.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        runs = re.findall(r"[(\[]\s*\d+(?:\s*,\s*\d+){4,}\s*[)\]]", text)     # five numbers or more
        assert not [t for t in runs if len(set(map(int, re.findall(r"\d+", t))) & prices) >= 5], path


@pytest.mark.parametrize("gap,ratio,verdict", [(0.5, 2, "PROVED"), (0.5, 3, "PROVED"), (0.5, 1, "REFUTED"),
                                               (0.6, 2, "REFUTED")])
def test_gap_implies_ratio_is_three_valued(gap, ratio, verdict):
    got = prove("gap_implies_ratio", {"trade.max_value_gap": gap, "trade.max_value_ratio": ratio}.__getitem__, {})
    assert got.verdict == verdict
    if verdict == "REFUTED":
        assert got.model                              # the counter-model z3 found
    assert prove("gap_implies_ratio", {"trade.max_value_gap": "none", "trade.max_value_ratio": 2}.__getitem__,
                 {}).verdict == "NOT_APPLICABLE"


class _GivesUp:
    """z3 answering "unknown" to every query (what a timeout looks like)."""

    def __init__(self, monkeypatch):
        monkeypatch.setattr(z3.Solver, "check", lambda self, *a: z3.unknown)
        monkeypatch.setattr(z3.Solver, "reason_unknown", lambda self: "timeout")


def test_a_proof_that_times_out_is_unknown_never_proved(monkeypatch):
    _GivesUp(monkeypatch)
    got = prove("gap_implies_ratio", {"trade.max_value_gap": 0.5, "trade.max_value_ratio": 2}.__getitem__, {})
    assert got.verdict == "UNKNOWN" and "timeout" in got.detail
    assert proofs.prove("no-such-proof", {}.__getitem__, {}).verdict == "UNKNOWN"


def test_a_witness_search_that_times_out_is_unknown_never_alike(ctx, monkeypatch):
    _GivesUp(monkeypatch)
    parties = sides(ctx, "online-vn", {"trade.max_value_ratio": 2})
    got = smt_search.smt_situation(BY_ID["trade_accepted"], parties)
    assert got.status == "unknown" and "timeout" in got.reason
    w, differs = witness(BY_ID["trade_accepted"], parties)
    assert differs is None and w.verdict == "UNKNOWN" and "timeout" in w.detail


def test_situations_tried_without_a_difference_are_unknown_not_alike(ctx):
    """Playing some situations alike proves nothing: only z3 proves that rulings agree."""
    found = by_situations(BY_ID["jail_fine"], sides(ctx, "official", {"jail.fine": 50}))
    assert found.status == "unknown" and "alike" in found.reason
    assert find(BY_ID["jail_fine"], sides(ctx, "official", {"jail.fine": 60})).status == "differs"
