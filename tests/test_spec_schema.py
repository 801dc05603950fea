"""The shipped JSON Schema matches the catalogue, and every bundled ruleset validates against it."""

import json

import jsonschema
import pytest

from verify.paths import schemas_dir
from verify.spec.registry import bundled_files
from verify.spec.schema import SCHEMA_FILE, render
from verify.spec.yamlsafe import load_yaml


def test_shipped_schema_is_current():
    shipped = (schemas_dir() / SCHEMA_FILE).read_text(encoding="utf-8")
    assert shipped == render(), "regenerate with: python -m verify.spec.schema"


@pytest.mark.parametrize("path", bundled_files(), ids=lambda p: p.name)
def test_bundled_file_validates_and_references_schema(path):
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=")
    ref = text.splitlines()[0].split("$schema=", 1)[1].strip()
    assert (path.parent / ref).resolve() == (schemas_dir() / SCHEMA_FILE).resolve()
    data, _ = load_yaml(text, str(path))
    schema = json.loads((schemas_dir() / SCHEMA_FILE).read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)


def test_schema_rejects_unknown_parameter():
    schema = json.loads(render())
    bad = {"id": "x", "title": "x", "rules": {"jail.fin": {"value": 1, "assumed": "typo"}}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)
    good = {"id": "x", "title": "x", "rules": {"jail.fine": {"value": 1, "assumed": "ok"}}}
    jsonschema.validate(good, schema)
