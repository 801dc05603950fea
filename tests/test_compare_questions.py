"""Clarification questions: the catalogue mapping, multilingual search, answers from entries."""

from __future__ import annotations

import json

from click.testing import CliRunner

from verify.cli import main
from verify.compare.from_rulesets import _Ctx, load_registry, ordered
from verify.compare.questions import answer, load_questions, search
from verify.spec.catalogue import load_catalogue


def test_at_least_forty_questions_each_mapped_to_catalogued_parameters():
    qs = load_questions()
    assert len(qs) >= 40
    cat = load_catalogue()
    assert len({q.id for q in qs}) == len(qs)
    for q in qs:
        assert q.params and all(p in cat for p in q.params)


def top(text):
    hits = search(text)
    return hits[0][0].id if hits else None


def test_search_in_each_language():
    assert top("rent while in jail") == "rent-while-jailed"
    assert top("hapisteyken kira") == "rent-while-jailed"            # Turkish
    assert top("Free Parking money") == "free-parking-money"
    assert top("exact GO bonus") == "exact-go-bonus"
    assert top("dublet trzy") == "three-doubles"                     # Polish
    assert top("cho vay") == "loans-between-players"                  # Vietnamese
    assert top("казино") == "casino"                                  # Serbian
    assert top("auction opening bid") == "auction-opening-bid"
    assert search("zzqx qqq") == []


def test_fuzzy_match_tolerates_typos():
    assert top("mortgaeg interest") in {"unmortgage-cost", "trade-mortgaged"}


def test_answers_come_from_the_entries():
    reg = load_registry()
    ctx = _Ctx(reg)
    q = next(q for q in load_questions() if q.id == "rent-while-jailed")
    for r in ordered(reg):
        a = answer(q, r, ctx)
        (side,) = a.sides
        e = r.entries.get("rent.jailed_owner_collects")
        if e is None:
            assert side.kind == "undecided"
            continue
        assert side.kind == e.kind
        if e.kind == "cited":
            assert side.quote == e.quotes[0] and side.gloss == e.gloss and side.value == e.value
        if e.kind == "silent":
            assert side.value is None


def test_ask_command_prints_each_ruleset():
    res = CliRunner().invoke(main, ["ask", "--json", "--limit", "1", "rent", "in", "jail"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    (q,) = doc["questions"]
    assert q["id"] == "rent-while-jailed"
    assert {a["ruleset"] for a in q["answers"]} >= {"official"}
    text = CliRunner().invoke(main, ["ask", "rent", "in", "jail"]).output
    assert "Does a player in jail still collect rent?" in text


def test_ask_finds_the_jail_fine_for_what_a_player_would_ask():
    """"How much do I pay to get out of jail" is the jail fine, not the Get Out of Jail Free card, in
    English and in the rulebooks' languages; a question about the card still finds the card."""
    for text in ("how much do I pay to get out of jail", "hapisten çıkmak için ne kadar öderim",
                 "ile płacę za wyjście z więzienia", "колико плаћам за излазак из затвора"):
        assert top(text) == "jail-fine-timing", text
    assert top("get out of jail free card") == "jail-card"
    assert top("hapisten çıkış kartı") == "jail-card"
    res = CliRunner().invoke(main, ["ask", "--json", "--limit", "1", "hapisten", "çıkmak", "için", "ne", "kadar",
                                    "öderim"])
    (q,) = json.loads(res.output)["questions"]
    official = next(a for a in q["answers"] if a["ruleset"] == "official")
    fine = next(s for s in official["sides"] if s["param"] == "jail.fine")
    assert fine["value"] == 50 and fine["evidence"] == "cited"
