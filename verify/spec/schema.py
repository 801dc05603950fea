"""JSON Schema for ruleset files, generated from the catalogue and shipped.

Editors (via ``# yaml-language-server: $schema=...`` at the top of each
bundled file) validate and complete parameter ids and values with it. The
shipped copy is regenerated with ``python -m verify.spec.schema``; a test
fails when it drifts from the catalogue.
"""

from __future__ import annotations

import json
import sys

from ..paths import schemas_dir
from ..output import write_text
from .catalogue import Catalogue, Parameter, load_catalogue
from .claims import EVIDENCE

SCHEMA_FILE = "ruleset.schema.json"


def _value_schema(p: Parameter) -> dict:
    num = {"type": "integer"} if p.type not in ("ratio", "ratio_or") else {"type": "number"}
    if p.type in ("ratio", "ratio_or"):
        num.update(minimum=p.min if p.min is not None else 0, maximum=p.max if p.max is not None else 1)
    else:
        if p.min is not None:
            num["minimum"] = p.min
        if p.max is not None:
            num["maximum"] = p.max
    t = p.type
    if t == "bool":
        return {"type": "boolean"}
    if t == "enum":
        return {"enum": list(p.values)}
    if t.endswith("_or"):
        return {"anyOf": [num, {"enum": list(p.symbols)}]}
    if t.endswith("_list"):
        out = {"type": "array", "items": num}
        if p.length:
            out.update(minItems=p.length, maxItems=p.length)
        return out
    return num


def ruleset_schema(cat: Catalogue | None = None) -> dict:
    cat = cat or load_catalogue()
    text = {"type": "string", "minLength": 1}
    quote = {"anyOf": [text, {"type": "array", "items": text, "minItems": 1}]}
    common = {"source": {"type": "string"}, "note": {"type": "string"}}
    readings = {"type": "array", "minItems": 1, "items": {
        "type": "object", "additionalProperties": False, "required": ["name", "value", "gloss"],
        "properties": {"name": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"}, "value": {},
                       "gloss": text, "why": text}}}
    claims = {"type": "array", "minItems": 1, "items": {
        "type": "object", "additionalProperties": False, "required": ["says"],
        "properties": {"says": text, "settles": text, "quote": quote, "gloss": text, "why": text,
                       "evidence": {"enum": list(EVIDENCE)}, "from": text, "source": text}}}
    entry_kinds = {
        "cited": {"required": ["value", "quote", "gloss"],
                  "properties": {"value": {}, "quote": quote, "gloss": text, "readings": readings, "claims": claims,
                                 **common}},
        "assumed": {"required": ["value", "assumed"],
                    "properties": {"value": {}, "assumed": text, "readings": readings, "claims": claims,
                                 **common}},
        "silent": {"required": ["silent"],
                   "properties": {"silent": {"type": ["string", "boolean"]}, **common}},
        "open": {"required": ["open", "quote", "gloss"],
                 "properties": {"open": text, "quote": quote, "gloss": text, **common}},
        # a table of one's own leaves a value open in its own words (no rulebook to quote)
        "open_own": {"required": ["open"], "properties": {"open": text, **common}},
    }
    defs = {f"entry_{k}": {"type": "object", "additionalProperties": False, **v}
            for k, v in entry_kinds.items()}
    rules = {}
    for p in cat.parameters.values():
        rules[p.id] = {
            "description": f"{p.question} ({p.domain_text()})",
            "oneOf": [{"$ref": f"#/$defs/entry_{k}"} for k in entry_kinds],
            "properties": {"value": _value_schema(p),
                           "readings": {"items": {"properties": {"value": _value_schema(p)}}}},
        }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://monopoly-verify.invalid/schemas/ruleset.schema.json",
        "title": "Monopoly rule-variant ruleset",
        "type": "object",
        "additionalProperties": False,
        "required": ["id", "title", "rules"],
        "properties": {
            "id": {"type": "string", "pattern": "^[^+]+$"},
            "title": text,
            "source": {"type": "string"},
            "language": {"type": "string"},
            "kind": {"enum": ["ruleset", "overlay"]},
            "description": {"type": "string"},
            "extends": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}},
                                  {"type": "null"}]},
            "promises": {"type": "object", "additionalProperties": {"type": "boolean"}},
            "extra_rules": {"type": "array", "items": {"type": "string", "minLength": 1},
                            "description": "Rules the catalogue cannot express, in your own words: shown by "
                                           "every command, never played or checked."},
            "rules": {"type": "object", "additionalProperties": False, "properties": rules},
        },
        "$defs": defs,
    }


def render() -> str:
    return json.dumps(ruleset_schema(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def main() -> int:
    path = schemas_dir() / SCHEMA_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, render())
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
