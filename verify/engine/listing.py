"""The listings generated from the action registry: the JSON Schema of an action and the docs' action table.

    python -m verify.engine.listing            # the markdown table (docs/engine.md, between its markers)
    python -m verify.engine.listing --schema   # verify/schemas/action.schema.json
    python -m verify.engine.listing --json     # every declaration, with its refusals and what they rest on

Both shipped copies are checked against these functions by the tests, so they cannot drift from the
declarations in ``verify.engine.actions``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from .actions import _DECLARED, refusals_of

ACTION_SCHEMA_ID = "verify.action/1"


def action_schema() -> dict:
    """The JSON Schema of an action (``verify/schemas/action.schema.json``)."""
    variants = []
    for a in _DECLARED:
        props: dict[str, Any] = {"type": {"const": a.name},
                                 "seat": {"type": "integer", "minimum": 0,
                                          "description": "who acts (default: the player the state waits for)"}}
        required = ["type"]
        for f in a.all_fields:
            props[f.name] = dict(f.schema, description=f.doc + (" (random)" if f.random else ""))
            if not f.optional:
                required.append(f.name)
        variants.append({"title": a.name, "description": a.doc, "type": "object", "properties": props,
                         "required": required})
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": ACTION_SCHEMA_ID,
            "title": "An action of the reference engine's step API",
            "description": "Generated from verify/engine/actions.py (python -m verify.engine.listing --schema).",
            "oneOf": variants}


def markdown_table() -> str:
    """The action table of the docs (docs/engine.md), generated from the declarations."""
    lines = ["| action | fields (random in *italics*) | phases | who | refused on parameters | what it does |",
             "|---|---|---|---|---|---|"]
    for a in _DECLARED:
        fields = ", ".join(f"*{f.name}*" if f.random else f.name + ("?" if f.optional else "")
                           for f in a.all_fields) or "-"
        params = sorted({p for r in refusals_of(a) for p in r.params})
        lines.append(f"| `{a.name}` | {fields} | {', '.join(a.phases)} | {a.actor} | "
                     f"{', '.join(f'`{p}`' for p in params) or '-'} | {a.doc} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--schema"]:
        print(json.dumps(action_schema(), indent=1))
    elif args == ["--json"]:
        print(json.dumps([a.to_json() for a in _DECLARED], indent=1))
    elif not args:
        print(markdown_table(), end="")
    else:
        print("usage: python -m verify.engine.listing [--schema | --json]", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["ACTION_SCHEMA_ID", "action_schema", "markdown_table", "main"]
