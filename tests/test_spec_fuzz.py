"""Arbitrary YAML never crashes the loader: it loads, or raises the toolkit's own error."""

from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verify.errors import VerifyError
from verify.spec.catalogue import load_catalogue
from verify.spec.ruleset import parse_ruleset_file

CAT = load_catalogue()
PARAMS = sorted(CAT.parameters)

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)), max_leaves=12)
entry = st.dictionaries(st.sampled_from(["value", "quote", "gloss", "assumed", "silent", "open",
                                         "source", "note", "bogus"]), values, max_size=4)
ruleset_like = st.fixed_dictionaries(
    {"id": st.one_of(st.text(max_size=8), st.integers()), "title": scalars},
    optional={"extends": st.one_of(st.text(max_size=8), st.lists(st.text(max_size=8), max_size=3), scalars),
              "source": st.one_of(st.just("000_91979e7e1d6b8ee6.txt"), st.text(max_size=12)),
              "kind": st.sampled_from(["ruleset", "overlay", "other"]),
              "promises": values,
              "rules": st.one_of(values, st.dictionaries(
                  st.one_of(st.sampled_from(PARAMS), st.text(max_size=12)), entry, max_size=6))})


def _check(tmp_path: Path, text: str):
    f = tmp_path / "fuzz.yaml"
    f.write_text(text, encoding="utf-8")
    try:
        parse_ruleset_file(f, CAT)
    except VerifyError as exc:
        assert exc.code and str(exc)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ruleset_like)
def test_structured_yaml(tmp_path, data):
    _check(tmp_path, yaml.safe_dump(data, allow_unicode=True))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from(list("id: title-[]{},\n &*!|>'\"#%@`?rules0x.") + ["\t", "é"]),
               max_size=80))
def test_raw_text(tmp_path, text):
    _check(tmp_path, text)
