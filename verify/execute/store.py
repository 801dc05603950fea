"""A campaign directory: the manifest that says which campaign it holds, and one file per finished chunk.

``--resume DIR`` points a campaign at a directory. The first run writes
``manifest.json`` (the campaign's kind, its identity — everything that
determines the chunks' results, such as the ruleset's compiled-config hash,
the seed, the number of games — and the number of chunks) and then each
chunk's result as it finishes, as ``chunk-NNNNNN.json``, written to a
temporary file and renamed, so a kill at any moment leaves either the whole
file or none. Running again with the same directory loads the finished chunks
and runs only the others; since a chunk's result depends only on the chunk,
the merged result is the one an uninterrupted run gives. A directory holding
another campaign (or files that are not a campaign's) is refused with E025,
naming what differs. ``result.json`` holds the merged result once complete.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ..errors import Location, VerifyError
from ..output import check_file_target, write_text

SCHEMA = "verify.campaign/1"
MANIFEST = "manifest.json"
RESULT = "result.json"


def _digest(doc: Any) -> str:
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through the toolkit's one output writer (``verify.output``): a reader
    (or a kill at any moment) sees the old file or the new one, never half of one."""
    write_text(path, text)


def write_json_atomic(path: Path, doc: Any) -> None:
    write_atomic(path, json.dumps(doc, separators=(",", ":")))


def _differences(saved: Any, now: Any, path: str = "") -> list[str]:
    """Where two manifests differ, as ``path is X there, Y here`` (lists of equal length by index)."""
    if saved == now:
        return []
    if isinstance(saved, dict) and isinstance(now, dict):
        return [d for k in sorted(set(saved) | set(now))
                for d in _differences(saved.get(k), now.get(k), f"{path}.{k}" if path else str(k))]
    if isinstance(saved, list) and isinstance(now, list) and len(saved) == len(now):
        return [d for i, (a, b) in enumerate(zip(saved, now)) for d in _differences(a, b, f"{path}[{i}]")]
    show = lambda v: json.dumps(v)[:60]  # noqa: E731
    return [f"{path} is {show(saved)} there, {show(now)} here"]


class CampaignStore:
    """The directory of one campaign (see the module docstring)."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.digest: str | None = None

    def _error(self, message: str, file: str | None = None) -> VerifyError:
        where = Location(str(self.path / file) if file else str(self.path))
        return VerifyError("E025", message, where)

    def open(self, kind: str, identity: dict, chunks: int) -> dict[int, Any]:
        """Bind the directory to this campaign (creating it or checking it matches); the saved results."""
        manifest = {"schema": SCHEMA, "kind": kind, "identity": identity, "chunks": chunks}
        manifest = json.loads(json.dumps(manifest))          # the form it has once saved
        self.digest = _digest(manifest)
        if self.path.exists() and not self.path.is_dir():
            raise self._error("is a file, not a campaign directory")
        mpath = self.path / MANIFEST
        if mpath.exists():
            try:
                saved = json.loads(mpath.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise self._error(f"unreadable campaign manifest: {exc}", MANIFEST) from None
            if not isinstance(saved, dict) or saved.get("schema") != SCHEMA:
                raise self._error(f"not a {SCHEMA} manifest", MANIFEST)
            saved = {k: saved.get(k) for k in manifest}
            if saved != manifest:
                diff = "; ".join(_differences(saved, manifest)[:4])
                raise self._error(f"holds another campaign ({saved.get('kind')}): {diff}; "
                                  "resume it with its own arguments or choose another directory", MANIFEST)
        else:
            if self.path.is_dir() and any(self.path.iterdir()):
                raise self._error("is not empty and holds no campaign manifest; choose a new or empty directory")
            check_file_target(mpath, make_parents=True)     # a folder made read-only is E024, created or not
            self.path.mkdir(parents=True, exist_ok=True)
            write_json_atomic(mpath, manifest)
        return self._load(chunks)

    def _load(self, chunks: int) -> dict[int, Any]:
        out: dict[int, Any] = {}
        for f in sorted(self.path.glob("chunk-*.json")):
            try:
                doc = json.loads(f.read_text(encoding="utf-8"))
                index = int(doc["index"])
            except (OSError, ValueError, KeyError, TypeError):
                continue            # damaged by hand: the chunk is simply run again
            if doc.get("campaign") != self.digest or not 0 <= index < chunks:
                raise self._error("holds a chunk of another campaign", f.name)
            out[index] = doc["result"]
        return out

    def save(self, index: int, result: Any) -> None:
        write_json_atomic(self.path / f"chunk-{index:06d}.json",
                          {"campaign": self.digest, "index": index, "result": result})

    def finish(self, result: Any) -> None:
        write_json_atomic(self.path / RESULT, result)


__all__ = ["CampaignStore", "write_atomic", "write_json_atomic", "SCHEMA"]
