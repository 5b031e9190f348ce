"""Games as data: JSON-lines records.

A record is a sequence of JSON objects, one per line, each with a ``"type"`` field. Reading
checks the framing (every line is a JSON object with a type) and reports the first broken
line by number; what the lines must mean is for each game's replay to check.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from rallye.core.errors import RecordError

Line = dict[str, Any]


def dumps_line(obj: Line) -> str:
    """One record line: compact, keys in insertion order, ASCII-safe."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def write_jsonl(path: str | Path, lines: Iterable[Line]) -> None:
    """Write a record atomically (a crash mid-write never leaves half a save)."""
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for obj in lines:
            fh.write(dumps_line(obj) + "\n")
    tmp.replace(p)


def parse_jsonl(text: str, *, source: str = "<record>") -> list[tuple[int, Line]]:
    """Parse record text into ``(line number, object)`` pairs, skipping blank lines."""
    out: list[tuple[int, Line]] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise RecordError(
                f"{source}: line {n} is not valid JSON ({exc.msg} at column {exc.colno});"
                " the file may be truncated or edited",
                rule="record-format",
            ) from None
        if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
            raise RecordError(
                f"{source}: line {n} is not a record object with a 'type' field",
                rule="record-format",
            )
        out.append((n, obj))
    if not out:
        raise RecordError(f"{source}: the record is empty", rule="record-format")
    return out


def read_jsonl(path: str | Path) -> list[tuple[int, Line]]:
    """Read a record file; a missing or unreadable file is a :class:`RecordError`."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"{p}: cannot read the record ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise RecordError(f"{p}: the record is not UTF-8 text", rule="record-format") from None
    return parse_jsonl(text, source=str(p))


def iter_field(line: Line, field: str, kind: type, *, where: str) -> Any:
    """Fetch a required field of a given type from a record line, or raise naming it."""
    if field not in line:
        raise RecordError(f"{where}: missing field '{field}'", rule="record-format")
    value = line[field]
    if kind is int and isinstance(value, bool):
        raise RecordError(f"{where}: field '{field}' must be an integer", rule="record-format")
    if not isinstance(value, kind):
        raise RecordError(
            f"{where}: field '{field}' must be {kind.__name__}, got {type(value).__name__}",
            rule="record-format",
        )
    return value


def lines_of(records: Iterable[tuple[int, Line]]) -> Iterator[Line]:
    for _, obj in records:
        yield obj
