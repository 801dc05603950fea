"""The engine author's guide (docs/engine-authors.md) is current and its examples run as printed.

Its tables are generated from the toolkit, so a changed deck or action fails this test until the guide
is regenerated (``python -m tests.test_engine_authors_guide`` prints the card table, ``python -m
verify.engine.listing`` the action table, the action registry's); the commands it shows are run as
shown, ``verify`` meaning this checkout's CLI.
"""

from __future__ import annotations

import json

import shlex
import subprocess
import sys

from tests.cli_process import ROOT, verify_env
from verify.engine.listing import markdown_table

GUIDE = ROOT / "docs" / "engine-authors.md"


def _card(c) -> str:
    e = c.effect
    if e == "advance_to":
        return f"advance to square {c.square}"
    if e == "advance_nearest":
        return (f"advance to the nearest {c.kind}" + (f", rent x{c.rent_factor}" if c.rent_factor != 1 else "")
                + (f", {c.utility_multiplier} x a fresh throw" if c.utility_multiplier else ""))
    if e == "bank":
        return f"collect {c.amount}" if c.amount >= 0 else f"pay {-c.amount}"
    if e == "each_player":
        return f"collect {c.amount} from each player" if c.amount >= 0 else f"pay each player {-c.amount}"
    if e == "repairs":
        return f"pay {c.house} a house, {c.hotel} a hotel"
    return {"jail_free": "Get Out of Jail Free", "go_back": f"go back {c.spaces}", "go_to_jail": "go to jail"}.get(e, e)


def card_table() -> str:
    from verify.conform.harness import load_target
    config, _ = load_target("official")
    rows = ["| chance | | chest | |", "|---|---|---|---|"]
    rows += [f"| `{a.id}` | {_card(a)} | `{b.id}` | {_card(b)} |" for a, b in zip(config.cards.chance, config.cards.chest)]
    return "\n".join(rows) + "\n"


def test_the_card_table_is_the_official_decks():
    assert card_table() in GUIDE.read_text()


def test_the_action_table_is_the_registry_s():
    text = GUIDE.read_text()
    begin, end = "<!-- actions:begin (python -m verify.engine.listing) -->\n", "<!-- actions:end -->"
    assert text.split(begin, 1)[1].split(end, 1)[0] == markdown_table()


def test_the_step_example_is_shown_as_it_is():
    assert "```python\n" + (ROOT / "docs" / "examples" / "step_engine.py").read_text() + "```" in GUIDE.read_text()


def _run(command: str, cwd) -> subprocess.CompletedProcess:
    """A command of the guide as printed, ``verify`` being this checkout's CLI and ``python`` this one."""
    env = verify_env()
    words = shlex.split(command)
    while "=" in words[0]:                       # VAR=value prefixes
        k, v = words.pop(0).split("=", 1)
        env[k] = ":".join([env["PYTHONPATH"], str(ROOT / v)]) if k == "PYTHONPATH" else v
    exe = {"verify": [sys.executable, "-m", "verify.cli"], "python": [sys.executable]}[words[0]]
    words = [str(ROOT / w) if w.startswith("docs/") else w for w in words[1:]]
    return subprocess.run(exe + words, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_the_whole_turn_example_runs_as_printed(tmp_path):
    text = GUIDE.read_text()
    for command in ("python docs/examples/turn_engine.py game.jsonl", "verify conform --validate-trace game.jsonl"):
        assert command in text
        r = _run(command, tmp_path)
        assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().endswith("every transition explained")
    assert "turn-engine-example on official: 2 game(s)" in r.stdout


def test_the_step_example_runs_as_printed(tmp_path):
    command = "verify conform --engine docs/examples/step_engine.py:StepEngine --examples 50"
    assert command in GUIDE.read_text()
    r = _run(command, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "step-example on official: 50 scenario(s)" in r.stdout and "no deviation" in r.stdout


if __name__ == "__main__":
    print(card_table())


def _schema_paths() -> list[str]:
    """Every field path of the state schema (``players[].cash``, ``bank.cash``, ``pending.debtor``...)."""
    schema = json.loads((ROOT / "verify" / "schemas" / "state.schema.json").read_text())
    paths: list[str] = []

    def walk(node, path):
        if not isinstance(node, dict):
            return
        for alt in node.get("oneOf", []) + node.get("anyOf", []):
            walk(alt, path)
        if isinstance(node.get("items"), dict) and node["items"].get("properties"):
            walk(node["items"], path + "[]")
        for k, v in (node.get("properties") or {}).items():
            p = f"{path}.{k}" if path else k
            if p not in paths:
                paths.append(p)
            walk(v, p)
    walk(schema, "")
    return paths


def test_the_guide_documents_every_field_of_the_state():
    """The canonical state, field by field: a row for each field of the schema (a field added to the schema
    and not to the guide fails here), and none for a field the schema does not have."""
    text = GUIDE.read_text()
    section = text.split("## The canonical state, field by field", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1].strip().strip("`") for line in section.splitlines()
            if line.startswith("| `")]
    paths = _schema_paths()
    assert len(paths) > 60 and rows == paths, (set(paths) - set(rows), set(rows) - set(paths))
    assert "ledger" in section.split("| `bank.cash` |")[1].split("\n")[0]
