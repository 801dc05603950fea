"""Safe YAML loading that remembers where every key and value came from.

PyYAML's SafeLoader never constructs arbitrary objects; on top of it we
compose the node tree ourselves so that (a) each mapping key and value keeps
its line for error messages, and (b) a key given twice in one mapping is an
error instead of silently overwriting the first.
"""

from __future__ import annotations

from typing import Any

import yaml

from ..errors import Location, SpecError

Path = tuple  # a path of keys/indexes from the document root


def load_yaml(text: str, filename: str) -> tuple[Any, dict[Path, int]]:
    """Parse ``text``; return the data and a map from key path to 1-based line."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        context, cmark = getattr(exc, "context", None), getattr(exc, "context_mark", None)
        if context and cmark is not None and cmark.line + 1 != line:
            problem += f" ({context} started at line {cmark.line + 1})"
        raise SpecError("E001", f"malformed YAML: {problem}", Location(filename, line)) from None
    except (ValueError, RecursionError) as exc:  # e.g. invalid characters, deep nesting
        raise SpecError("E001", f"malformed YAML: {exc}", Location(filename)) from None
    lines: dict[Path, int] = {}
    if node is None:
        return None, lines
    return _build(node, (), lines, filename), lines


def _build(node: yaml.Node, path: Path, lines: dict, filename: str) -> Any:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        out: dict = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise SpecError("E001", "YAML merge keys (<<) are not supported",
                                Location(filename, key_node.start_mark.line + 1))
            key = _build(key_node, path + ("<key>",), {}, filename)
            if isinstance(key, (dict, list)):
                raise SpecError("E001", "a mapping key must be a plain value",
                                Location(filename, key_node.start_mark.line + 1))
            if key in out:
                raise SpecError("E008", f"'{key}' is given twice in this mapping "
                                f"(first at line {lines[path + (key,)]})",
                                Location(filename, key_node.start_mark.line + 1))
            lines[path + (key,)] = key_node.start_mark.line + 1
            out[key] = _build(value_node, path + (key,), lines, filename)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(child, path + (i,), lines, filename) for i, child in enumerate(node.value)]
    try:
        return yaml.SafeLoader(  # construct one scalar with the safe resolver
            ""
        ).construct_object(node, deep=True)
    except yaml.YAMLError as exc:
        raise SpecError("E001", f"malformed YAML value: {exc}",
                        Location(filename, node.start_mark.line + 1)) from None
