"""The fidelity audits' rows (2026-12-01: S and AC-AT, the missing ambiguities of its section 4; 2026-11-30: what
its rows changed in the rulesets), each checked where it was fixed: in the ruleset, in the kind of finding, or
in what the engine plays."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from verify.cli import main

from verify.compare import compare
from verify.compare.from_rulesets import _Ctx, load_registry
from verify.compare.probes import BY_ID
from verify.compare.search import _play_all
from verify.spec import load_ruleset


@pytest.fixture(scope="module")
def bundled():
    """Every finding of the bundled comparison by id, a merged finding's consequences included."""
    return {x.id: x for f in compare(reg=load_registry()).findings for x in (f, *f.consequences)}


def entry(rid: str, pid: str):
    return load_ruleset(rid).entries[pid]


def readings(rid: str, pid: str) -> dict:
    return {rd.name: rd.value for rd in entry(rid, pid).readings}


def played(probe: str, rid: str, **situation):
    ctx = _Ctx(load_registry())
    got = _play_all(BY_ID[probe], [ctx.party(load_ruleset(rid))], situation)
    assert got is not None
    return got[1][0]


def test_S_mortgaging_is_named_so_no_reading_frees_it_and_selling_is_read_apart(bundled):
    assert not entry("online-vn", "mortgage.timing").readings
    assert "ambiguous:online-vn:mortgage.timing" not in bundled
    assert readings("online-vn", "building.sell_timing") == {"selling-not-named": "anytime"}
    assert "selling buildings is not named" in entry("online-vn", "building.sell_timing").readings[0].why
    # the reading plays: during another player's turn a house may be sold under it, not under the ruling
    w = bundled["ambiguous:online-vn:building.sell_timing"].witness
    assert w.plays and w.situation["phase"] == 2 and [o.classic for o in w.outcomes] == [False, True]


def test_AC_group_bonus_with_buildings_rests_on_one_of_two_readings(bundled):
    """"mà chưa có công trình nào đã làm gấp đôi" (a whole group with no building yet already doubles): the
    ruling reads a sufficient condition as the only one, and the ruleset records the other reading, which
    gives the official answer; so the difference rests on a reading (inferred), never a contradiction, and
    the ambiguity is reported with its own witness."""
    e = entry("online-vn", "rent.group_bonus_with_buildings")
    assert e.kind == "cited" and readings("online-vn", "rent.group_bonus_with_buildings") == {
        "bonus-kept-when-built": True}
    f = bundled["inferred:rent.group_bonus_with_buildings"]
    point = next(s for s in f.sides if s.ruleset == "online-vn").point
    assert point["evidence"] == "reading" and point["reading"] == "bonus-kept-when-built"
    assert f.witness.plays and "contradiction:rent.group_bonus_with_buildings" not in bundled
    assert "ambiguous:online-vn:rent.group_bonus_with_buildings" in bundled


def test_AD_no_charge_on_receiving_a_mortgaged_deed_on_the_platform():
    e = entry("platform-classic", "mortgage.transfer_interest")
    assert e.kind == "assumed" and e.value is False and "60%" in e.reason
    # the engine: a creditor inheriting a mortgaged deed pays nothing at once
    assert played("inherited_mortgage_interest", "platform-classic", deed="dearest") == 0
    assert played("inherited_mortgage_interest", "official", deed="dearest") > 0


def test_AE_the_moved_half_of_the_last_try_is_marked_derived():
    e = entry("platform-classic", "jail.after_last_try")
    assert "[derived:" in e.gloss and "assumed" in e.gloss


def test_AI_AP_and_section_4_readings_are_recorded_and_played(bundled):
    assert readings("online-vn", "trade.max_value_gap") == {"gap-of-smaller-side": 0.3334}
    assert readings("platform-classic", "go.salary_stop_minute") == {"ordinal-minutes": 45}
    assert readings("platform-classic", "rent.tax_start_minute") == {"ordinal-minutes": 60}
    assert readings("platform-fast", "go.salary_stop_minute") == {"ordinal-minutes": 29}
    assert readings("official", "bankruptcy.mortgage_interest_base") == {"value-is-mortgage-value": "mortgage_value"}
    assert readings("platform-classic", "building.per_turn_limit") == {"one-round-per-group": "one_level_per_street"}
    w = bundled["ambiguous:platform-classic:go.salary_stop_minute"].witness
    assert w.plays and w.situation["minute"] == 45          # the one minute the readings part
    w = bundled["ambiguous:online-vn:trade.max_value_gap"].witness
    assert w.plays


@pytest.mark.parametrize("rid, pid", [
    ("platform-classic", "casino.payout_numerator"),      # AF: stake back or not
    ("platform-classic", "casino.may_decline"),           # AG: "preskočiti potez"
    ("platform-classic", "rent.tax_enabled"),             # AH: who bears the rent tax
    ("online-vn", "rent.tax_enabled"),
    ("online-vn", "turn.manage_before_roll_only"),        # AN: before rolling, after doubles
    ("platform-classic", "building.timing"),
    ("platform-showdown", "setup.dealt_properties"),      # AO: the 28th deed
    ("platform-classic", "bankruptcy.threshold"),         # section 4, 8: "вредност некретнина"
    ("platform-classic", "rent.tax_step_rate"),           # section 4, 9: ten points or ten per cent
    ("platform-classic", "speed_die.mr_monopoly"),        # section 4, 11: nearest ahead or either way
])
def test_readings_the_catalogue_cannot_express_are_ruled_with_their_reason(rid, pid):
    note = entry(rid, pid).note or ""
    assert ("Ruled" in note and "no catalogue value" in note) or "catalogue has no value" in note, (rid, pid)


def test_AJ_the_assumed_deck_says_which_effects_go_beyond_the_list():
    reason = entry("online-vn", "cards.chance_deck").reason
    assert "twice its rent" in reason and "ten times" in reason


def test_AK_the_platform_states_a_custom_tables_experience_twice(bundled):
    f = bundled["internal:003:custom-table-experience"]
    assert {s.ruleset for s in f.sides} == {"platform-classic", "platform-custom"}
    assert {s.param for s in f.sides} == {"rating.counted_modes", "rating.xp_factor"}
    assert all(s.evidence == "cited" for s in f.sides)


def test_AL_AM_stated_but_unquantified_values_are_open():
    for rid, pid in (("online-vn", "timer.turn_seconds"), ("online-vn", "auction.min_increment")):
        assert entry(rid, pid).kind == "open", pid


def test_AL_a_silent_turn_timer_is_refused_where_timeouts_are_stated(tmp_path):
    """The fallback ``none`` would deny a timer whose expiry the ruleset states (lint E019)."""
    f = tmp_path / "t.yaml"
    f.write_text("id: t\ntitle: t\nextends: online-vn\nrules:\n  timer.turn_seconds:\n    silent: true\n",
                 encoding="utf-8")
    res = CliRunner().invoke(main, ["lint", str(f)])
    assert res.exit_code == 1 and f"{f}:5: [E019] t: timer.turn_seconds is silent" in res.output
    assert "a turn timer" in res.output


def test_AQ_the_rent_tax_witness_has_no_money_scale_to_misread(bundled):
    w = bundled["assumed:rent.tax_enabled"].witness
    assert w.unit == "count" and "classic money" not in w.situation_text
    kept = sorted(o.classic for o in w.outcomes)                 # of every 100 of rent, what the owner keeps
    assert kept[-1] == 100 and kept[0] < 100 and w.situation["minute"] >= 61


def test_AR_AS_AT_false_alarm_classes_are_gone(bundled):
    contradictions = [f for f in bundled.values() if f.kind == "contradiction"]
    for f in contradictions:
        stated = {repr(s.normalized) for s in f.sides if (s.point or {}).get("evidence") == "stated"}
        assert len(stated) > 1, f.id                     # AS/AT: never an assumed or silent side alone
        assert all(s.evidence != "not_applicable" or s.kind == "not_applicable" for s in f.sides)  # AR
    for pid in ("pause.allowed", "rating.counted_modes", "timer.turn_seconds", "setup.banker_may_play"):
        assert f"medium:{pid}" in bundled, pid           # AS: the medium is its own kind
    for pid in ("trade.jail_cards", "cards.jail_card_tradeable", "jail.buy_card_from_player"):
        assert f"contradiction:{pid}" not in bundled, pid      # AT: a permissive list forbids nothing
        assert entry("platform-classic", pid).kind == "assumed"
    assert "contradiction:mortgage.transfer_interest" not in bundled   # AR: online-vn never transfers one


# --- the first audit (2026-11-30): what each row changed in the rulesets ------------------------------
# (what the engine plays for A, B, H, I, K, O, V, W, X, Y, AB: tests/test_engine_fidelity_rules.py; the
# silent fallbacks of C, D and E are what lint E019 refuses, tests/test_spec_silence.py; Q, R, S, AA:
# tests/test_compare_fidelity.py)

@pytest.mark.parametrize("row, rid, pid, kind, value, other", [
    ("C", "classic-pl", "building.house_supply", "assumed", 32, None),
    ("C", "classic-pl", "building.hotel_supply", "assumed", 12, None),
    ("D", "online-vn", "end.round_limit", "open", None, None),
    ("E", "online-vn", "rent.tax_start_minute", "assumed", 61, None),
    ("F", "official-speed-die", "speed_die.triples_count_as_doubles", "cited", True, ("triples-not-doubles", False)),
    ("G", "platform-fast", "building.hotel_needs_whole_group", "cited", False, ("corporation-needs-whole-group", True)),
    ("G", "platform-showdown", "building.hotel_needs_whole_group", "assumed", False,
     ("corporation-needs-whole-group", True)),
    ("J", "classic-pl", "jail.fine_voluntary_turns", "cited", 1, ("fine-any-jail-turn", "every")),
    ("L", "official", "jail.card_exit_then_roll", "assumed", True, None),
    ("M", "official", "trade.timing", "assumed", "anytime", None),
    ("N", "official", "cards.payment_debt", "cited", True, None),
    ("T", "platform-classic", "building.sell_timing", "assumed", "anytime", ("manage-like-building", "before_roll_own_turn")),
    ("T", "platform-classic", "mortgage.timing", "assumed", "anytime", ("manage-like-building", "before_roll_own_turn")),
    ("U", "platform-classic", "trade.jail_cards", "assumed", False, ("trade-cards-too", True)),
    ("Z", "online-vn", "rent.station_schedule", "assumed", [25, 50, 75, 100],
     ("stations-printed-doubling", [25, 50, 100, 200])),
])
def test_first_audit_rows_in_the_rulesets(row, rid, pid, kind, value, other):
    e = entry(rid, pid)
    assert e.kind == kind, (row, e.kind)
    assert (e.value if e.has_value else None) == value, row
    assert readings(rid, pid) == (dict([other]) if other else {}), row


def test_P_the_short_games_note_says_how_a_hotel_is_counted():
    note = entry("official-short", "building.hotel_threshold").note
    assert "hotel_threshold + 1" in note and "undoes" not in note


# --- the third audits (2026-12-06): comparison reader's classes and fidelity rows AW-BC ---------------

@pytest.mark.parametrize("fid, rid, evidence", [
    ("inferred:jail.card_exit", "online-vn", "absence"),                 # a card never named read as "no"
    ("inferred:go.salary_once_per_turn", "platform-classic", "generic"),  # "every time you pass Start"
    ("inferred:trade.per_turn_limit", "classic-pl", "generic"),          # "w dowolnym momencie" as a count
    ("medium:rent.owner_must_claim", "online-vn", "medium"),             # the on-screen Pay step
    # the independent reader of 2026-12-07
    ("inferred:bankruptcy.to_player_cash", "online-vn", "inferred"),     # the cash differs by the deeds' fate
    ("inferred:jail.after_last_try", "online-vn", "absence"),            # a release that names no payment
    ("inferred:building.shortage_trigger", "classic-pl", "absence"),     # only the last building is named
    ("inferred:rent.station_schedule", "online-vn", "reading"),          # "tỷ lệ với" read strictly
    ("inferred:rent.group_bonus_with_buildings", "online-vn", "reading"),  # a sufficient condition as the only
    ("inferred:speed_die.triples_count_as_doubles", "official-speed-die", "reading"),
    ("medium:turn.end", "online-vn", "medium"),                          # no end-turn button on the screen
])
def test_the_readers_false_alarms_are_kinded_by_the_point_of_difference(bundled, fid, rid, evidence):
    f = bundled[fid]
    assert next(s for s in f.sides if s.ruleset == rid).point["evidence"] == evidence
    assert f"contradiction:{fid.split(':', 1)[1]}" not in bundled


def test_the_hidden_differences_are_contradictions(bundled):
    for pid in ("board.chest_squares", "cards.chest_deck", "go.salary_stop_minute"):
        assert f"contradiction:{pid}" in bundled and f"assumed:{pid}" not in bundled, pid
    chest = bundled["contradiction:board.chest_squares"]
    assert next(s for s in chest.sides if s.ruleset == "official").point["evidence"] == "stated"
    # the salary stops when the tax starts (stated) where the platform leaves 15 minutes with neither
    salary = bundled["contradiction:go.salary_stop_minute"]
    vn = next(s for s in salary.sides if s.ruleset == "online-vn").point
    assert vn["evidence"] == "stated" and vn["settles"] == "value == 'tax_start'"
    assert {o.ruleset: o.classic for o in salary.witness.outcomes} == {"online-vn": 200, "platform-classic": 0}


def test_the_readers_doubtful_points_are_not_contradictions(bundled):
    """The independent reader of 2026-12-07: a mortgage expiry the rules never mention; a stated 50 % gap that
    already bounds the ratio; a platform permission that names no jail turn; an internal difference that
    one recorded reading of the same words removes."""
    assert "contradiction:mortgage.expiry_rounds" not in bundled and "assumed:mortgage.expiry_rounds" in bundled
    assert entry("official", "mortgage.expiry_rounds").kind == "assumed"
    assert load_ruleset("online-vn").value("trade.max_value_ratio") == 2
    fine = bundled["contradiction:jail.fine_voluntary_turns"]
    assert next(s for s in fine.sides if s.ruleset == "platform-classic").point["evidence"] == "generic"
    assert "internal:000:mortgage-interest-base" not in bundled
    assert "ambiguous:official:bankruptcy.mortgage_interest_base" in bundled


def test_a_question_that_does_not_arise_and_a_double_count_are_gone(bundled):
    assert not [k for k in bundled if k.endswith(":end.winner") and not k.startswith(("variant", "ambiguous"))]
    heads = {f.id for f in compare(reg=load_registry()).findings}
    assert "contradiction:bankruptcy.to_player_properties" in heads        # the deeds' fate is the difference
    assert "contradiction:bankruptcy.to_player_cash" not in bundled
    for one in ("contradiction:mortgage.timing", "contradiction:trade.timing",
                "contradiction:board.corner_20", "contradiction:trade.max_value_ratio"):
        assert one not in heads and one in bundled, one                    # a consequence, kept


def test_AW_no_buying_in_the_first_tur_is_ruled_a_lap_with_its_reasons(bundled):
    e = entry("house-no-buying-first-round", "purchase.first_round")
    assert e.claims[0].evidence == "inferred" and "Sonraki üç turdan birinde" in e.claims[0].why
    assert "Ruled" in e.note and "first turn" in e.note and "five turns" in e.note
    f = bundled["variant:official+house-no-buying-first-round:purchase.first_round"]
    assert f.witness.plays and [o.classic for o in f.witness.outcomes] == [True, False]   # played, not a table


def test_AY_the_trade_balance_witness_trades_a_deed_in_each_sides_own_game(bundled):
    w = bundled["contradiction:trade.max_value_gap"].witness
    assert w.plays and {o.ruleset for o in w.outcomes} <= {"official", "classic-pl", "online-vn", "platform-classic"}
    for s in w.script:
        trade = s["actions"][-1] if "refused" not in s else s["refused"]["action"]
        assert trade["type"] == "trade" and trade["take"].get("squares") and not trade["take"].get("cards")
        assert set(s.get("set", {})) <= {"auction.min_increment", "end.round_limit", "timer.turn_seconds"}


def test_AZ_BA_BB_platform_rows():
    e = entry("platform-classic", "board.chance_squares")
    assert e.kind == "assumed" and e.claims[0].settles == "len(value)" and "6 поља Шансе" in e.claims[0].quotes[0]
    e = entry("platform-classic", "speed_die.mr_monopoly_decline_auction")
    assert e.kind == "cited" and "одбије да купи" in e.quotes[0] and e.claims[0].evidence == "generic"
    note = entry("platform-classic", "casino.may_decline").note
    assert "1, 2 или 3 се додају потезу" in note and "Everywhere else" not in note


def test_BC_online_vn_amounts_follow_one_policy():
    for pid, value in (("go.salary", 200), ("jail.fine", 50), ("jail.max_tries", 3), ("tax.income", 200),
                       ("tax.luxury", 100), ("building.sell_ratio", 0.5), ("setup.starting_cash", 1500)):
        e = entry("online-vn", pid)
        assert e.kind == "assumed" and e.value == value and "amounts policy" in e.reason, pid
    for pid in ("auction.min_increment", "timer.turn_seconds", "end.round_limit"):
        assert entry("online-vn", pid).kind == "open", pid


def test_task_C_notes_of_the_comparison_audit():
    # the VN reading frees selling alone; the question asks whether EVERY act of managing is held to the roll
    from verify.spec.catalogue import load_catalogue
    assert "every act" in load_catalogue()["turn.manage_before_roll_only"].question.lower()
    assert "selling" in entry("online-vn", "turn.manage_before_roll_only").readings[0].gloss
    # Showdown's own auction: its terms are the expiry auction's, assumed, not cited
    for pid in ("mortgage.immediate_auction_opening", "mortgage.immediate_auction_owner_bids",
                "mortgage.immediate_auction_proceeds"):
        e = entry("platform-showdown", pid)
        assert e.kind == "assumed" and e.readings, pid
    assert entry("platform-showdown", "mortgage.immediate_auction").kind == "cited"



def test_a_one_value_play_never_puts_a_card_square_without_its_deck(bundled):
    """The reader's note: the Community Chest deck's one-value row played official's board with no Chest deck
    (a Chest square that draws nothing). Such a game breaks a constraint now, so the row is played in the
    other side's game, where the values alone play the square alike and the row says so."""
    one = bundled["contradiction:cards.chest_deck"].witness.one_value
    assert one is not None and one.game == "online-vn"
    assert "lands on a Community Chest square" not in {o.text for o in one.outcomes}
    assert len({o.text for o in one.outcomes}) == 1


def test_a_card_square_without_its_deck_is_refused(tmp_path):
    f = tmp_path / "no-chest.yaml"
    f.write_text("id: no-chest\ntitle: No Community Chest cards\nextends: official\nrules:\n"
                 "  cards.chest_deck:\n    value: none\n    assumed: \"we lost the cards\"\n")
    res = CliRunner().invoke(main, ["lint", str(f)])
    assert res.exit_code == 1 and "[E004]" in res.output and "chest-squares-have-a-deck" in res.output
