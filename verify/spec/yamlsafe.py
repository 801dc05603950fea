"""Safe YAML loading that remembers where every key and value came from.

PyYAML's SafeLoader never constructs arbitrary objects; on top of it we
compose the node tree ourselves so that (a) each mapping key and value keeps
its line for error messages, and (b) a key given twice in one mapping is an
error instead of silently overwriting the first.

Input is bounded before it is expanded (E022): the file's size, the number
of values the document holds once its aliases are expanded (a few hundred
bytes of nested aliases otherwise grow without end: an "alias bomb"), and
the entries of one mapping or list. The limits sit far above any real file
(the largest bundled ruleset is 60 KB, 1,600 values, 195 rules) and far
below what would hang a command or exhaust memory.
"""

from __future__ import annotations

from pathlib import Path as _FsPath
from typing import Any

import yaml

from ..errors import Location, SpecError

Path = tuple  # a path of keys/indexes from the document root

#: libyaml's parser, when PyYAML has it: it composes the same nodes (with their lines) about 15x faster
#: than the pure-Python one, which every command pays for on the 40 bundled files
_FAST_LOADER = getattr(yaml, "CSafeLoader", None)

#: Largest file read (bytes).
MAX_BYTES = 2 * 1024 * 1024
#: Most values (scalars, mappings, lists) in one document, counted with every alias expanded.
MAX_NODES = 50_000
#: Most entries in one mapping or list.
MAX_ITEMS = 2_000


def read_text(path: str | _FsPath, name: str | None = None, limit: int | None = None) -> str:
    """A text file, refused (E022) when it is larger than ``limit`` bytes, before it is read."""
    limit = MAX_BYTES if limit is None else limit
    path = _FsPath(path)
    name = name or str(path)
    size = path.stat().st_size
    if size > limit:
        raise SpecError("E022", f"the file is {size:,} bytes; at most {limit:,} are read", Location(name))
    with path.open("rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:           # it grew while being read (or is not a regular file)
        raise SpecError("E022", f"the file is over {limit:,} bytes; at most {limit:,} are read", Location(name))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError("E001", f"not UTF-8 text: {exc.reason} at byte {exc.start}", Location(name)) from None


def _check_size(root: yaml.Node, filename: str) -> None:
    """Refuse (E022) a composed document too large once expanded, before anything is expanded.

    Counts each node's expanded size once (an alias is the same node object as its anchor), so
    the count is linear in the file, whatever the aliases multiply; a node that contains itself
    (a recursive alias) is refused too."""
    size: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            on_path.discard(key)
            children = _children(node)
            total = 1 + sum(size[id(c)] for c in children)
            if total > MAX_NODES:
                raise SpecError("E022", f"the document holds more than {MAX_NODES:,} values once its aliases "
                                "are expanded (an anchored value repeated by aliases); not loaded",
                                Location(filename, node.start_mark.line + 1))
            size[key] = total
            continue
        if key in size:
            continue
        if key in on_path:
            raise SpecError("E022", "a YAML alias refers to a value that contains it (a recursive alias)",
                            Location(filename, node.start_mark.line + 1))
        children = _children(node)
        if len(node.value) > MAX_ITEMS and not isinstance(node, yaml.ScalarNode):
            raise SpecError("E022", f"a {'mapping' if isinstance(node, yaml.MappingNode) else 'list'} of "
                            f"{len(node.value):,} entries; at most {MAX_ITEMS:,}",
                            Location(filename, node.start_mark.line + 1))
        on_path.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in size)


def _small_tree(root: yaml.Node) -> bool:
    """Whether a document without aliases is within the limits (else ``_check_size`` says how it is not): a
    quick count of its nodes, each seen once."""
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        count += 1
        if isinstance(node, yaml.MappingNode):
            if len(node.value) > MAX_ITEMS:
                return False
            for pair in node.value:
                stack.extend(pair)
        elif isinstance(node, yaml.SequenceNode):
            if len(node.value) > MAX_ITEMS:
                return False
            stack.extend(node.value)
    return count <= MAX_NODES


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def load_yaml(text: str, filename: str) -> tuple[Any, dict[Path, int]]:
    """Parse ``text``; return the data and a map from key path to 1-based line."""
    if len(text) > MAX_BYTES:
        raise SpecError("E022", f"the text is {len(text):,} characters; at most {MAX_BYTES:,} are read",
                        Location(filename))
    node = _compose_fast(text)
    try:
        if node is None:
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
    if "&" in text or not _small_tree(node):      # (no anchor: no alias, each node is counted once)
        _check_size(node, filename)
    # one constructor for the document's scalars (a loader per scalar cost more than the parse)
    return _build(node, (), lines, filename, yaml.SafeLoader("")), lines


def _compose_fast(text: str) -> yaml.Node | None:
    """The node tree by libyaml, or None: for no document, and for any input it does not take (the pure
    parser then composes it, or words the error as the toolkit always has)."""
    if _FAST_LOADER is None:
        return None
    try:
        return yaml.compose(text, Loader=_FAST_LOADER)
    except Exception:  # noqa: BLE001 - the pure parser below decides, with its own message
        return None


_STR = "tag:yaml.org,2002:str"


def _build(node: yaml.Node, path: Path, lines: dict, filename: str, loader: yaml.SafeLoader) -> Any:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        out: dict = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise SpecError("E001", "YAML merge keys (<<) are not supported",
                                Location(filename, key_node.start_mark.line + 1))
            key = _build(key_node, path + ("<key>",), {}, filename, loader)
            if isinstance(key, (dict, list)):
                raise SpecError("E001", "a mapping key must be a plain value",
                                Location(filename, key_node.start_mark.line + 1))
            if key in out:
                raise SpecError("E008", f"'{key}' is given twice in this mapping "
                                f"(first at line {lines[path + (key,)]})",
                                Location(filename, key_node.start_mark.line + 1))
            lines[path + (key,)] = key_node.start_mark.line + 1
            out[key] = _build(value_node, path + (key,), lines, filename, loader)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(child, path + (i,), lines, filename, loader) for i, child in enumerate(node.value)]
    if node.tag == _STR:
        return node.value              # (what the safe constructor makes of a string: its text)
    try:
        return loader.construct_object(node, deep=True)  # one scalar, by the safe constructor
    except yaml.YAMLError as exc:
        raise SpecError("E001", f"malformed YAML value: {exc}",
                        Location(filename, node.start_mark.line + 1)) from None
