"""``verify params [AREA]``: every parameter a table may set, with its question, type and domain.

The catalogue is the vocabulary of a ruleset file; a table writing its own
rules needs the names and the values each accepts without reading YAML.
"""

from __future__ import annotations

import difflib
import json

import click

from ..spec.catalogue import Parameter, load_catalogue


def _row(p: Parameter) -> dict:
    out = {"id": p.id, "area": p.area, "type": p.type, "question": p.question,
           "domain": p.domain_text(), "fallback": p.fallback}
    for k in ("unit", "min", "max", "length"):
        if getattr(p, k) is not None:
            out[k] = getattr(p, k)
    if p.values:
        out["values"] = list(p.values)
    if p.symbols:
        out["symbols"] = list(p.symbols)
    return out


@click.command()
@click.argument("area", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document {\"parameters\": [...]}.")
def command(area: str | None, as_json: bool) -> None:
    """List every catalogued parameter (or those of AREA, e.g. jail; those whose names start with a
    prefix, e.g. free_parking; or one parameter, e.g. jail.fine) with its question, type, allowed
    values and the fallback used when a ruleset is silent."""
    cat = load_catalogue()
    areas = {a.id: a for a in cat.areas}
    if area is None:
        chosen = list(cat.parameters.values())
    elif area in areas:
        chosen = cat.by_area()[area]
    elif area in cat.parameters:
        chosen = [cat[area]]
    elif any(pid.startswith(area.rstrip(".") + ".") for pid in cat.parameters):
        # a parameter prefix (free_parking, board): the parameters are named after it, whatever area holds them
        chosen = [p for pid, p in cat.parameters.items() if pid.startswith(area.rstrip(".") + ".")]
    else:
        close = difflib.get_close_matches(area, list(areas) + list(cat.parameters), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise click.BadParameter(f"no area or parameter {area!r}{hint}; areas: {', '.join(areas)}",
                                 param_hint="AREA")
    if as_json:
        click.echo(json.dumps({"parameters": [_row(p) for p in chosen]}, ensure_ascii=False, indent=2))
        return
    current = None
    for p in chosen:
        if p.area != current:
            current = p.area
            click.secho(f"\n== {p.area}: {areas[p.area].title} ==", bold=True)
        click.secho(p.id, bold=True, nl=False)
        click.echo(f"  ({p.type}) {p.domain_text()}; fallback {json.dumps(p.fallback, ensure_ascii=False)}")
        click.echo(f"    {p.question}")
    click.echo(f"\n{len(chosen)} parameter(s). In a ruleset file: rules: {{PARAM: {{value: V, assumed: \"why\"}}}}"
               " or value + quote + gloss; `verify show RULESET --area AREA` shows a ruleset's values.")
