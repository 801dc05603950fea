"""The fast (libyaml) and the pure-Python YAML parsers give every bundled file the same data and lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from verify.spec import yamlsafe

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(p for d in ("rulesets", "specs") for p in (ROOT / d).rglob("*.yaml"))


@pytest.mark.skipif(yamlsafe._FAST_LOADER is None, reason="PyYAML without libyaml: only the pure parser runs")
def test_both_parsers_read_every_bundled_file_alike(monkeypatch):
    assert len(FILES) > 30
    texts = {p: p.read_text(encoding="utf-8") for p in FILES}
    fast = {p: yamlsafe.load_yaml(t, p.name) for p, t in texts.items()}
    assert all(yamlsafe._compose_fast(t) is not None for t in texts.values())
    monkeypatch.setattr(yamlsafe, "_FAST_LOADER", None)
    assert {p: yamlsafe.load_yaml(t, p.name) for p, t in texts.items()} == fast


def test_an_error_is_worded_by_the_pure_parser():
    with pytest.raises(yamlsafe.SpecError) as exc:
        yamlsafe.load_yaml("a: [1, 2\nb: 3\n", "bad.yaml")
    assert exc.value.code == "E001" and str(exc.value).startswith("bad.yaml:")
