"""Finding ruleset files and resolving ids, ``extends`` chains and overlay stacks.

The registry indexes the bundled files (``rulesets/**/*.yaml``) plus any
files the user names; a user's file works exactly like a bundled one.
``official+house-no-auction`` stacks overlays left to right; ``official@NAME``
plays one of an entry's alternative readings (``verify.spec.readings``). A file
may extend another file by a path relative to its own folder
(``extends: ../our-base.yaml``), so a table of one's own can build on a
table of one's own.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import ErrorList, Location, SpecError, VerifyError
from ..paths import display, rulesets_dir
from .catalogue import Catalogue, load_catalogue
from .readings import apply_reading, split_name
from .ruleset import Ruleset, RulesetFile, apply, parse_ruleset_file

DEFAULT_RULESET = "official"
_SKIP_DIRS = {"sources", "reference"}


def bundled_files(root: Path | None = None) -> list[Path]:
    base = Path(root or rulesets_dir())
    return sorted(p for p in base.rglob("*.yaml")
                  if not _SKIP_DIRS & set(p.relative_to(base).parts[:-1]))


#: a file's top-level ``id:`` line, as the lazy index reads it (a file it does not match is parsed at once)
_ID_LINE = re.compile(r"^id:[ \t]*([\"']?)([A-Za-z0-9_.-]+)\1[ \t]*(?:#.*)?$", re.M)


class Files(MutableMapping):
    """The registry's files by id. A file the lazy index knows only by its path (``pending``) is parsed when
    it is first asked for, so resolving one ruleset reads the files its name and ``extends`` chain name,
    not every bundled file."""

    def __init__(self, parse) -> None:
        self._parsed: dict[str, RulesetFile] = {}
        self.pending: dict[str, Path] = {}
        self._parse = parse

    def _load(self, rid: str) -> None:
        path = self.pending.pop(rid, None)
        if path is not None:
            self._parse(path)

    def __getitem__(self, rid: str) -> RulesetFile:
        self._load(rid)
        return self._parsed[rid]

    def __setitem__(self, rid: str, f: RulesetFile) -> None:
        self.pending.pop(rid, None)
        self._parsed[rid] = f

    def __delitem__(self, rid: str) -> None:
        self.pending.pop(rid, None)
        self._parsed.pop(rid, None)

    def __contains__(self, rid: object) -> bool:
        return rid in self._parsed or rid in self.pending

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._parsed.keys() | self.pending.keys()))

    def __len__(self) -> int:
        return len(self._parsed) + len(self.pending)


@dataclass
class Registry:
    catalogue: Catalogue
    files: Files = field(init=False)
    errors: list[VerifyError] = field(default_factory=list)
    _resolved: dict[str, Ruleset] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.files = Files(self._add_or_raise)

    @classmethod
    def load(cls, extra: list[Path] | None = None, bundled: bool = True,
             strict: bool = True, lazy: bool = False) -> "Registry":
        """Index bundled files (and ``extra`` ones). ``strict`` raises on any bad file. ``lazy`` reads only the
        ``id:`` line of each bundled file and parses a file when it is first asked for (a bad file then raises
        when it is read: the bundled files are checked by the test suite and ``verify lint``)."""
        reg = cls(load_catalogue())
        paths = (bundled_files() if bundled else []) + [Path(p) for p in extra or []]
        seen: dict[str, Path] = {}
        for path in paths:
            rid = _scanned_id(path) if lazy and bundled and not extra else None
            if rid is not None and rid not in seen:
                seen[rid] = path
                continue
            if rid is not None:                 # two files of one id: parsed now, for the error's words
                reg.add(seen.pop(rid))
            reg.add(path)
        reg.files.pending.update(seen)
        if strict and reg.errors:
            raise ErrorList(reg.errors)
        return reg

    def add(self, path: Path) -> RulesetFile | None:
        try:
            f = parse_ruleset_file(path, self.catalogue)
        except ErrorList as exc:
            self.errors.extend(exc.errors)
            return None
        except VerifyError as exc:
            self.errors.append(exc)
            return None
        if f.id in self.files and self.files[f.id].path.resolve() != Path(path).resolve():
            self.errors.append(SpecError("E029", f"ruleset id {f.id!r} is also defined in "
                                         f"{display(self.files[f.id].path)}", f.loc("id")))
            return None
        self.files[f.id] = f
        return f

    def ids(self) -> list[str]:
        return sorted(self.files)

    def bundled_ids(self) -> list[str]:
        """The shipped rulesets' ids, without the user's files this registry has read."""
        return [rid for rid in self.ids() if self.is_bundled(rid)]

    def is_bundled(self, rid: str) -> bool:
        """Whether ``rid`` is one of the shipped rulesets (not a user's file)."""
        f = self.files.get(rid)
        return f is not None and Path(rulesets_dir()).resolve() in f.path.resolve().parents

    def resolve(self, name: str) -> Ruleset:
        """Resolve an id, a path, or an overlay stack ``base+overlay+...``; any part may choose
        readings with ``@READING`` (applied to the stack resolved so far, left to right)."""
        if name in self._resolved:
            return self._resolved[name]
        parts = name.split("+")
        token, readings = self._split(parts[0])
        result = self._resolve_one(self._id_for(token), ())
        result = self._read(result, readings)
        for part in parts[1:]:
            token, readings = self._split(part)
            f = self.files.get(self._id_for(token))
            result = self._read(self._stack(result, f), readings)
        if len(parts) > 1:
            result = _with_id(result, name)
        self._resolved[name] = result
        return result

    def pin(self, name: str, ruleset: Ruleset) -> None:
        """From now on ``resolve(name)`` gives ``ruleset`` (``name`` with ``--set`` values supplied), so every
        stage of one run over this registry (the report's comparison, pages and games) sees the same values."""
        self._resolved[name] = ruleset

    @staticmethod
    def _split(token: str) -> tuple[str, tuple[str, ...]]:
        """A file path is taken whole (it may hold an '@'); otherwise ``id@reading@...``."""
        if Path(token).is_file():
            return token, ()
        return split_name(token)

    @staticmethod
    def _read(r: Ruleset, readings: tuple[str, ...]) -> Ruleset:
        for name in readings:
            r = apply_reading(r, name)
        return r

    def canonical(self, name: str) -> str:
        """``name`` with every file path in it replaced by that file's ruleset id (the file is
        indexed), so ``official+my/late.yaml`` becomes ``official+late``."""
        return "+".join(self._id_for(t) if is_path(t) else t for t in name.split("+"))

    def base_of(self, name: str) -> Ruleset | None:
        """What ``name`` builds on: a stack without its last overlay, or a file's parents merged;
        None for a ruleset that extends nothing."""
        parts = name.split("+")
        if len(parts) > 1:
            return self.resolve("+".join(parts[:-1]))
        f = self.files[self._id_for(name)]
        base = self._parents(f, (f.id,))
        if base is not None and len(f.extends) > 1:
            base = _with_id(base, " & ".join(self._parent_id(f, p) for p in f.extends))
        return base

    def _id_for(self, token: str) -> str:
        if is_path(token):
            path = Path(token)
            if not path.is_file():
                raise SpecError("E011", f"no ruleset file {token!r}")
            return self._add_or_raise(path)
        if token not in self.files:
            close = difflib.get_close_matches(token, self.ids(), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise SpecError("E011", f"unknown ruleset {token!r}{hint}; `verify rulesets` lists them")
        return token

    def _resolve_one(self, rid: str, stack: tuple[str, ...]) -> Ruleset:
        f = self.files[rid]
        self._no_cycle(rid, stack)
        base = self._parents(f, stack + (rid,))
        return apply(base, f, self.catalogue, new_id=None) if base is None else \
            _with_id(apply(base, f, self.catalogue, new_id=rid), rid, f.title)

    def _parents(self, f: RulesetFile, stack: tuple[str, ...]) -> Ruleset | None:
        base: Ruleset | None = None
        for parent in f.extends:
            resolved = self._resolve_one(self._parent_id(f, parent), stack)
            base = resolved if base is None else _merge(base, resolved)
        return base

    def inherited(self, rid: str) -> Ruleset | None:
        """What ruleset ``rid`` inherits: its parents resolved and merged (None without extends)."""
        return self._parents(self.files[rid], (rid,))

    def _stack(self, base: Ruleset, f: RulesetFile, stack: tuple[str, ...] = ()) -> Ruleset:
        """``base`` with ``f`` stacked on it: the overlays ``f`` extends, then ``f``'s own entries, in the
        money of ``base``. A full ruleset ``f`` extends (a table's own base game) is what ``base`` stands
        in for, so it is not applied again: ``platform-classic+my-table.yaml`` is my table's changes on
        the platform, not official's values put back in between."""
        self._no_cycle(f.id, stack)
        for parent in f.extends:
            pf = self.files[self._parent_id(f, parent)]
            if pf.kind == "overlay":
                base = self._stack(base, pf, stack + (f.id,))
        own_scale = None if f.kind == "overlay" else self._resolve_one(f.id, stack).money_scale
        return apply(base, f, self.catalogue, new_id=base.id + "+" + f.id, own_scale=own_scale)

    def _parent_id(self, f: RulesetFile, parent: str) -> str:
        """The id of a parent named in ``f.extends``: a ruleset id, or a path relative to the
        folder of ``f`` (a user's table extending a table of their own)."""
        if is_path(parent):
            path = Path(os.path.normpath(f.path.parent / parent))
            if not path.is_file():
                raise SpecError("E005", f"{f.id} extends {parent!r}, but there is no file "
                                f"{display(path)} (a path is read relative to the extending file's "
                                "folder)", f.loc("extends"))
            return self._add_or_raise(path)
        if parent not in self.files:
            raise SpecError("E005", f"{f.id} extends {parent!r}, which does not exist"
                            f"{_hint(parent, self.ids())} (to extend a file, give its path "
                            "relative to this file, e.g. ./my-base.yaml)", f.loc("extends"))
        return parent

    def _add_or_raise(self, path: Path) -> str:
        before = len(self.errors)
        f = self.add(path)
        if f is None:
            raise ErrorList(self.errors[before:])
        return f.id

    def _no_cycle(self, rid: str, stack: tuple[str, ...]) -> None:
        if rid in stack:
            ids = stack[stack.index(rid):] + (rid,)
            files = " -> ".join(display(self.files[i].path) for i in ids)
            raise SpecError("E006", f"extends is cyclic: {' -> '.join(ids)} (files: {files})",
                            self.files[rid].loc("extends"))


def _scanned_id(path: Path) -> str | None:
    """The id a ruleset file declares on its top-level ``id:`` line (None when there is no one such line)."""
    try:
        found = _ID_LINE.findall(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return None
    return found[0][1] if len(found) == 1 else None


def is_path(token: str) -> bool:
    """Whether a ruleset name is a file path rather than an id."""
    return token.endswith((".yaml", ".yml")) or "/" in token or "\\" in token


def _with_id(r: Ruleset, rid: str, title: str | None = None) -> Ruleset:
    return replace(r, id=rid, title=title or r.title, is_overlay=False)


def _merge(a: Ruleset, b: Ruleset) -> Ruleset:
    entries = dict(a.entries)
    entries.update(b.entries)
    promises = dict(a.promises)
    promises.update(b.promises)
    promised_by = {**a.promised_by, **b.promised_by}
    sources = tuple(dict.fromkeys(a.sources + b.sources))
    return replace(b, chain=a.chain + tuple(c for c in b.chain if c not in a.chain),
                   entries=entries, promises=promises, promised_by=promised_by, sources=sources,
                   extra_rules=tuple(dict.fromkeys(a.extra_rules + b.extra_rules)))


def _hint(name: str, options: list[str]) -> str:
    close = difflib.get_close_matches(name, options, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


_DEFAULT: Registry | None = None


def registry() -> Registry:
    """The registry of bundled rulesets (loaded once per process)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Registry.load(lazy=True)
    return _DEFAULT


def load_ruleset(name: str = DEFAULT_RULESET, extra: list[Path] | None = None) -> Ruleset:
    """Resolve a bundled id, a file path, or an overlay stack like ``official+house-no-auction``."""
    reg = Registry.load(extra) if extra else registry()
    return reg.resolve(name)


__all__ = ["DEFAULT_RULESET", "Registry", "load_ruleset", "registry", "bundled_files", "is_path", "Location"]
