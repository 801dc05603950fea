"""docs/comparison.md says what the comparison does: its table of kinds is the comparison's kinds, the
stated kinds it names are those the report's index lists, the evidence classes are those a side carries,
its catalogue example is the catalogue's entry and its replay example names a witness's real file."""

from __future__ import annotations

import re
from pathlib import Path

from verify.compare.model import EVIDENCE, KINDS, STATED
from verify.compare.witness import file_name
from verify.errors import CODES
from verify.spec.catalogue import load_catalogue

DOC = (Path(__file__).resolve().parents[1] / "docs" / "comparison.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    start = DOC.index(f"### {title}")
    return DOC[start:DOC.index("\n#", start + 4)]


def test_the_kinds_table_is_the_comparisons_kinds():
    rows = re.findall(r"^\| `([a-z]+)` \|", section("Kinds of finding"), flags=re.M)
    assert sorted(rows) == sorted(KINDS) and len(rows) == len(KINDS)
    stated = re.search(r"Only (.*?) are\s+disagreements between stated rules", section("Kinds of finding"), re.S)
    assert stated and sorted(re.findall(r"`([a-z]+)`", stated.group(1))) == sorted(STATED)


def test_the_evidence_classes_are_those_a_side_carries():
    named = re.findall(r"`([a-z_]+)`", section("Evidence of each side").split("JSON:")[0])
    assert [n for n in named if n != "evidence"] == list(EVIDENCE)


def test_the_applicability_example_is_the_catalogues():
    text = section("Applicability")
    block = re.search(r"```yaml\n  (\S+):\n    type: (\S+)\n    applies_when: (.+)\n```", text)
    entry = load_catalogue()[block.group(1)]
    assert (entry.type, entry.applies_when) == (block.group(2), block.group(3))
    code = re.search(r"refuses that mark \((E\d+)\)", text).group(1)
    assert "not applicable" in CODES[code]


def test_the_replay_example_names_a_witness_file():
    shown = re.search(r"verify replay w/(\S+\.jsonl)", DOC).group(1)
    assert shown == file_name("contradiction:mortgage.interest_base")
