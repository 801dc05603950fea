"""Serve any in-process protocol-1 engine over JSON Lines on stdin/stdout (the subprocess transport).

``python -m verify.conform.serve module:Class`` turns a Python engine class into
a program the subprocess transport can drive; ``python -m verify.conform.reference``
is this loop around the reference engine. It is also the model for an engine
written in another language: read a line, answer a line, refuse malformed
requests with ``{"ok": false, "error": ...}``, exit on ``bye`` or end of input.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from . import Illegal, Unsupported
from .transport import resolve_class


def handle(engine: Any, request: Any) -> dict | None:
    """The answer to one request (None for ``bye``)."""
    if not isinstance(request, dict) or not isinstance(request.get("op"), str):
        return {"ok": False, "error": "a request is a JSON object with an \"op\""}
    op = request["op"]
    if op == "hello":
        if request.get("protocol") != 1:
            return {"ok": False, "error": f"this engine speaks protocol 1, not {request.get('protocol')!r}"}
        return {"ok": True, **engine.hello()}
    if op == "load":
        if not isinstance(request.get("config"), dict) or not isinstance(request.get("state"), dict):
            return {"ok": False, "error": "load needs \"config\" and \"state\" objects"}
        try:
            engine.load(request["config"], request["state"])
        except Unsupported as exc:
            return {"ok": True, "unsupported": exc.reason}
        return {"ok": True}
    if op == "new_game":
        if not isinstance(request.get("config"), dict) or not isinstance(request.get("players"), int) \
                or not isinstance(request.get("draws"), dict):
            return {"ok": False, "error": "new_game needs \"config\", \"players\" and \"draws\""}
        if not hasattr(engine, "new_game"):
            return {"ok": True, "unsupported": "this engine sets up no new game"}
        try:
            return {"ok": True, "state": engine.new_game(request["config"], request["players"],
                                                         request.get("seed", 0), request["draws"])}
        except Unsupported as exc:
            return {"ok": True, "unsupported": exc.reason}
    if op == "apply":
        if not isinstance(request.get("action"), dict):
            return {"ok": False, "error": "apply needs an \"action\" object"}
        try:
            return {"ok": True, "state": engine.apply(request["action"])}
        except Illegal as exc:
            return {"ok": True, "illegal": exc.reason}
    if op == "state":
        return {"ok": True, "state": engine.state()}
    if op == "bye":
        return None
    return {"ok": False, "error": f"unknown op {op!r}; one of hello, load, new_game, apply, state, bye"}


def serve(engine: Any, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Answer requests until ``bye`` or end of input; return the exit status."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError as exc:
            answer: dict | None = {"ok": False, "error": f"not JSON: {exc}"}
        else:
            try:
                answer = handle(engine, request)
            except Exception as exc:  # noqa: BLE001 - a malformed request must not kill the server
                answer = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        if answer is None:
            return 0
        stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        stdout.flush()
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m verify.conform.serve module:Class", file=sys.stderr)
        return 2
    return serve(resolve_class(args[0])())


if __name__ == "__main__":
    sys.exit(main())
