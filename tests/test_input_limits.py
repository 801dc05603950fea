"""Input over a resource limit is refused (E022) before it can hang a command or exhaust memory."""

from __future__ import annotations

import resource
import subprocess
from pathlib import Path

from click.testing import CliRunner

from cli_process import verify_cmd, verify_env
from verify.cli import main
from verify.errors import SpecError
from verify.spec import yamlsafe

ROOT = Path(__file__).resolve().parent.parent
FIX = Path(__file__).parent / "fixtures" / "limits"


def _bounded(*args: str) -> subprocess.CompletedProcess:
    """Run verify in a child with 2 GB of address space and 60 s: without the limits the alias
    bomb grows without end, and this fails instead of taking the machine down."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    return subprocess.run(verify_cmd(*args), capture_output=True, text=True, timeout=60, preexec_fn=limit,
                          env=verify_env())


def test_alias_bomb_is_refused_before_expanding():
    res = _bounded("lint", str(FIX / "alias_bomb.yaml"))     # line 9: the first anchor past the limit
    assert res.returncode == 1, res.stderr
    assert "alias_bomb.yaml:9: [E022]" in res.stderr and "aliases" in res.stderr
    assert "Traceback" not in res.stderr
    # the same file through another command (every command loads YAML the same way)
    res = _bounded("show", str(FIX / "alias_bomb.yaml"))
    assert res.returncode == 1 and "[E022]" in res.stderr


def test_recursive_alias_is_refused():
    res = CliRunner().invoke(main, ["lint", str(FIX / "recursive_alias.yaml")])
    assert res.exit_code == 1 and "recursive_alias.yaml:4: [E022]" in res.output and "recursive" in res.output


def test_oversize_file_is_refused_unread(tmp_path, monkeypatch):
    big = tmp_path / "big.yaml"
    with big.open("w", encoding="utf-8") as fh:
        fh.write("id: fx-big\ntitle: big\nrules: {}\n")
        line = "# " + "x" * 98 + "\n"
        fh.write(line * (yamlsafe.MAX_BYTES // len(line) + 1))
    read = []
    real_open = Path.open
    monkeypatch.setattr(Path, "open", lambda self, *a, **k: (read.append(self), real_open(self, *a, **k))[1])
    res = CliRunner().invoke(main, ["lint", str(big)])
    assert res.exit_code == 1 and "[E022]" in res.output and "at most 2,097,152" in res.output
    assert big not in read                      # refused on its size, never read
    # text handed to the loader directly is bounded too
    try:
        yamlsafe.load_yaml("a: 1\n" + "#" * yamlsafe.MAX_BYTES, "t.yaml")
    except SpecError as exc:
        assert exc.code == "E022"
    else:
        raise AssertionError("an oversize text was parsed")


def test_too_many_entries(tmp_path):
    f = tmp_path / "many.yaml"
    rows = "".join(f"  p{i}.x: {{value: 1, assumed: why}}\n" for i in range(yamlsafe.MAX_ITEMS + 1))
    f.write_text("id: fx-many\ntitle: many\nrules:\n" + rows, encoding="utf-8")
    res = CliRunner().invoke(main, ["lint", str(f)])
    assert res.exit_code == 1 and "many.yaml:4: [E022]" in res.output and "entries" in res.output
    assert "[E002]" not in res.output           # refused whole, not 2,001 suggestions computed


def test_limits_leave_room_for_real_files():
    # the largest bundled file is far below every limit (the lint-clean test loads them all)
    for p in sorted((ROOT / "rulesets").rglob("*.yaml")) + sorted((ROOT / "specs").rglob("*.yaml")):
        assert p.stat().st_size * 10 < yamlsafe.MAX_BYTES, p
        yamlsafe.load_yaml(p.read_text(encoding="utf-8"), str(p))


def test_node_count_is_linear_in_the_file(monkeypatch):
    # a document just under the limit loads; one value more is refused, at the anchor's line
    monkeypatch.setattr(yamlsafe, "MAX_NODES", 3 + 3 * (1 + 3))      # {x: [[1, 2, 3]] * 3}: 15 values
    text = "a: &a [1, 2, 3]\nx: [*a, *a, *a]\n"
    data, _ = yamlsafe.load_yaml(text.replace("a: &a [1, 2, 3]\n", "").replace("*a", "[1, 2, 3]"), "ok")
    assert data == {"x": [[1, 2, 3]] * 3}
    try:
        yamlsafe.load_yaml(text, "t.yaml")
    except SpecError as exc:
        assert exc.code == "E022" and exc.where.line == 1
    else:
        raise AssertionError("the aliased document was expanded past the limit")


def test_a_document_without_anchors_is_held_to_the_same_limits(monkeypatch):
    # without an anchor a quick count sizes the document; over a limit, the full check words the refusal
    monkeypatch.setattr(yamlsafe, "MAX_NODES", 1 + 1 + 4)            # {x: [1, 2, 3]}: 6 values
    assert yamlsafe.load_yaml("x: [1, 2, 3]\n", "ok")[0] == {"x": [1, 2, 3]}
    for text in ("x: [1, 2, 3, 4]\n", "x: [1, 2]\ny: 3\n"):
        try:
            yamlsafe.load_yaml(text, "t.yaml")
        except SpecError as exc:
            assert exc.code == "E022" and "values" in exc.message
        else:
            raise AssertionError(f"{text!r} was loaded past the limit")
    monkeypatch.setattr(yamlsafe, "MAX_ITEMS", 3)
    try:
        yamlsafe.load_yaml("x: [1, 2, 3, 4]\n", "t.yaml")
    except SpecError as exc:
        assert exc.code == "E022" and "entries" in exc.message
    else:
        raise AssertionError("a list over MAX_ITEMS was loaded")
