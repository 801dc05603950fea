"""The data of the clarification page's "Ambiguities" section: every entry with readings.

Each row sets one entry's readings side by side (the ruling the ruleset plays
first, then every other reading, each with its value and gloss), the quote
they read, the witness where the engine plays the readings differently, and what
the other rulebooks say on the same question. Built from the comparison's
``ambiguous`` findings (``verify.compare.ambiguities``); rendered by
``templates/ambiguities.html``, included at the end of questions.html.
"""

from __future__ import annotations

from ..compare.model import Comparison
from ..spec.catalogue import load_catalogue


def ambiguity_rows(comparison: Comparison) -> list[dict]:
    cat = load_catalogue()
    rows = []
    for f in comparison.findings:
        if f.kind != "ambiguous":
            continue
        own, *readings = f.sides
        pid = f.params[0]
        rows.append({"id": f.id, "anchor": "a-" + f.id.replace(":", "-").replace(".", "-"),
                     "question": cat[pid].question, "param": pid, "ruleset": own.ruleset,
                     "own": own, "readings": readings, "witness": f.witness, "related": list(f.related)})
    return rows
