"""Every witness is the sides' own games: each side played by the reference engine on the config compiled
from that side's own resolved ruleset, with only the open values the witness names as supplied; a one-value
play (the situation in one game with only the finding's values changed) is labelled as exactly that, and
a side whose game cannot hold the situation says so instead of having one made up for it."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from verify.cli import main
from verify.compare import compare
from verify.compare.from_rulesets import _Ctx, load_registry
from verify.compare.table import compare_table
from verify.compare.witness import write
from verify.config import EngineConfig
from verify.spec.open_values import supply
from verify.spec.registry import Registry

#: A table of house rules written as a new user would: a fine of 100, two tries at doubles, no auctions.
TABLE = """\
id: friday-table
title: Our Friday table
extends: official
description: The rules we play on Fridays.
rules:
  jail.fine:
    value: 100
    assumed: we pay 100 to get out of jail
  jail.max_tries:
    value: 2
    assumed: two tries at doubles, then you pay
  free_parking.pot:
    value: true
    assumed: taxes and fines go to the middle, Free Parking takes them
  purchase.on_decline:
    value: stays_unowned
    assumed: no auctions, it takes too long
"""


def every(findings):
    return [x for f in findings for x in (f, *f.consequences)]


def own_game_problems(reg: Registry, ctx: _Ctx, findings) -> list[str]:
    """Each witness game checked against the config of the ruleset it claims to be: an own game is that
    side's own resolved ruleset with only its open values supplied (each named by the witness), a one-value
    game is labelled and changes only the finding's parameters (and the details that apply with them)."""
    problems = []
    checked = 0
    for f in every(findings):
        w = f.witness
        if w is None or not w.games:
            continue
        named = {(r, p): v for r, p, v in w.assumed}
        sides = {s.ruleset + (f"@{s.reading}" if s.reading else "") for s in f.sides}   # a reading is a game
        allowed = set(f.params) | {d for p in f.params for d in ctx.dependents(p)}
        for game in w.games:
            h = game[0]
            r = reg.resolve(h["ruleset"])
            opened = {pid for pid, e in r.entries.items() if e.kind == "open"}
            values = h.get("set", {})
            if "one_value" in h:
                params = set(h["one_value"]["params"])
                if not params <= allowed or not set(values) - params <= opened:
                    problems.append(f"{f.id}: one-value game {h['label']} sets {sorted(values)}")
            else:
                if h["label"] != r.id or h["label"] not in sides:
                    problems.append(f"{f.id}: game labelled {h['label']} is ruleset {r.id}")
                if not set(values) <= opened:
                    problems.append(f"{f.id}: {r.id}'s own game sets {sorted(set(values) - opened)}, not open")
                for pid, v in values.items():
                    if named.get((h["label"], pid)) != v:
                        problems.append(f"{f.id}: {r.id}'s supplied {pid} = {v!r} is not named by the witness")
            if EngineConfig.from_ruleset(supply(r, values)).hash() != h["config_hash"]:
                problems.append(f"{f.id}: game {h['label']} was not played on {h['ruleset']}'s own config")
            checked += 1
    assert checked, "no witness game was checked"
    return problems


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    folder = tmp_path_factory.mktemp("table")
    path = folder / "friday-table.yaml"
    path.write_text(TABLE, encoding="utf-8")
    reg = Registry.load(extra=[path])
    return reg, path, compare_table(reg, str(path))


def test_a_tables_witnesses_are_its_own_game(table):
    reg, _, result = table
    assert own_game_problems(reg, _Ctx(reg), result.findings) == []


def test_a_table_with_a_fine_of_100_and_two_tries_pays_100_after_its_second_failed_roll(table):
    _, _, result = table
    f = {x.id: x for x in every(result.findings)}["variant:friday-table:jail.max_tries"]
    out = {o.ruleset: o.text for o in f.witness.outcomes}
    assert f.witness.situation["failed"] == 2 and out["friday-table"] == "leaves, paying 100" and out["official"] == "still in jail"
    # the one value alone, in official's game, is shown beside it and labelled as such
    one = f.witness.one_value
    assert one is not None and one.game == "official" and one.params == ("jail.max_tries",)
    assert {o.ruleset: o.text for o in one.outcomes}["friday-table"] == "leaves, paying 50" and "only jail.max_tries" in one.why


def test_a_tables_witness_files_replay(table, tmp_path):
    _, _, result = table
    paths = write(result.findings, tmp_path)
    assert paths
    for path in paths:
        res = CliRunner().invoke(main, ["replay", "--json", str(path)])
        assert res.exit_code == 0 and json.loads(res.output)["ok"], (path.name, res.output)


def test_a_situation_a_game_cannot_hold_does_not_arise_there():
    """online-vn's decks hold no Get Out of Jail Free card: its side says so; the card's use is shown in
    official's game with only jail.card_exit changed, labelled as such."""
    f = {x.id: x for x in every(compare(["official", "online-vn"]).findings)}["inferred:jail.card_exit"]
    out = {o.ruleset: o for o in f.witness.outcomes}
    assert not out["online-vn"].arises and "does not arise in this game" in out["online-vn"].text
    assert "Get Out of Jail" in out["online-vn"].why and out["official"].arises
    assert [g[0]["label"] for g in f.witness.games if "one_value" not in g[0]] == ["official"]
    one = f.witness.one_value
    assert one.game == "official" and {o.ruleset: o.classic for o in one.outcomes} == {"official": True,
                                                                                       "online-vn": False}


def test_a_witness_lists_what_it_reads_that_no_quote_states():
    """The GO salary witness reads online-vn's tax start, a minute borrowed from the platform: named on the
    witness with its evidence (the finding itself is a stated relation: the salary stops when the tax
    starts, where the platform leaves minutes with neither); no open value of online-vn is attributed to the
    platform."""
    f = {x.id: x for x in compare(["online-vn", "platform-classic"]).findings}["contradiction:go.salary_stop_minute"]
    w = f.witness
    unstated = {(u["ruleset"], u["param"]): u["evidence"] for u in w.unstated}
    assert unstated[("online-vn", "rent.tax_start_minute")] == "borrowed"
    assert ("platform-classic", "go.salary_stop_minute") not in unstated          # quoted there
    assert {r for r, _, _ in w.assumed} == {"online-vn"}                         # only its own open values


@pytest.fixture(scope="module")
def bundled_pairs():
    return {x.id: x for x in every(compare(["official", "online-vn", "platform-classic"]).findings)}


def test_a_one_value_play_shows_its_amounts_in_the_money_of_the_game_it_is_played_in(bundled_pairs):
    """The platform's value played in official's game (scale 1) is shown in official's money: 110, what
    the play paid, not 1100 (the platform's ×10 applied to a game it is not)."""
    one = bundled_pairs["assumed:mortgage.transfer_interest"].witness.one_value
    assert one is not None and one.game == "official"
    out = {o.ruleset: (o.text, o.classic) for o in one.outcomes}
    assert out["platform-classic"] == ("110", 110) and out["official"] == ("130", 130)


def test_a_game_that_trades_no_mortgaged_deed_is_shown_receiving_one_in_a_bankruptcy(bundled_pairs):
    """The platform refuses to trade a mortgaged deed, yet a bankruptcy over rent passes one to the creditor:
    the witness plays that in both own games (no refusal), each amount also in classic money."""
    w = bundled_pairs["assumed:mortgage.transfer_interest"].witness
    assert w.situation["bankruptcy"] is True
    out = {o.ruleset: o for o in w.outcomes}
    assert not any(o.text.startswith("refused") for o in out.values())
    assert (out["official"].classic, out["platform-classic"].classic) == (130, 120)   # 20 on receipt + 110
    res = CliRunner().invoke(main, ["contradictions", "official", "platform-classic"])
    assert "platform-classic (its own game): 1200 (= 120 classic)" in res.output


def test_an_open_round_limit_is_played_long_enough_for_the_situation():
    """online-vn leaves its round limit open: a witness plays it with the catalogue's witness_value (50),
    named as supplied, so two missed turns or round 50 happen in a game that has not ended at round 1."""
    f = {x.id: x for x in every(compare(["official", "online-vn"]).findings)}["contradiction:end.condition"]
    w = f.witness
    assert ("online-vn", "end.round_limit", 50) in w.assumed
    assert w.situation["round"] == 50
    assert {o.ruleset: o.text for o in w.outcomes}["official"] == "the game goes on"
    from verify.spec.catalogue import load_catalogue
    assert load_catalogue()["end.round_limit"].witness_value == 50


def test_the_surrender_witness_is_a_debt_the_player_can_still_raise(bundled_pairs):
    """Cash 100 and a 200 deed (mortgage 100) against a debt of 150: no threshold makes anyone bankrupt, so
    the witness shows only the surrender: online-vn must pay, the platform may give up."""
    w = bundled_pairs["contradiction:bankruptcy.surrender"].witness
    assert w.situation["debt"] == 150 and w.situation["cash"] == 100
    assert {o.ruleset: o.text for o in w.outcomes} == {"online-vn": "not bankrupt",
                                                      "platform-classic": "not bankrupt; may give up voluntarily"}


@pytest.mark.slow
def test_every_witness_of_the_bundled_comparison_is_the_sides_own_game():
    reg = load_registry()
    assert own_game_problems(reg, _Ctx(reg), compare(reg=reg).findings) == []


@pytest.mark.parametrize("rid, probe, situation, expected, not_read", [
    ("official", "jail_last_try", {"failed": 3}, {"jail.max_tries", "jail.after_last_try", "jail.fine"},
     {"mortgage.interest_rate", "auction.opening_bid"}),
    ("platform-classic", "unmortgage_cost", {"deed": "median"},
     {"mortgage.interest_rate", "mortgage.interest_base", "mortgage.value", "mortgage.timing"}, {"jail.fine"}),
    ("online-vn", "go_salary", {"exact": False, "minute": 46},
     {"go.salary", "go.salary_stop_minute", "rent.tax_start_minute"}, {"jail.fine"}),   # tax_start reads it
])
def test_what_a_situation_reads_is_recorded_from_the_engine(rid, probe, situation, expected, not_read):
    from verify.compare.probes import BY_ID
    from verify.compare.reads import fields_read, params_read
    from verify.compare.situations import Table, play
    ctx = _Ctx(load_registry())
    r = ctx.reg.resolve(rid)
    p = ctx.party(r)
    t = Table(p.cfg, players=BY_ID[probe].players)
    state, actions = BY_ID[probe].build(t, situation)
    pl = play(p.cfg, state, actions)
    read = params_read(fields_read(p.cfg, pl.first, list(pl.applied)), r)
    assert expected <= read and not read & not_read, sorted(read)
