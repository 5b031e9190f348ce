"""Games as data: JSON-lines records.

A record is a sequence of JSON objects, one per line, each with a ``"type"`` field. Reading
checks the framing (every line is a JSON object with a type) and reports the first broken
line by number; what the lines must mean is for each game's replay to check.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from rallye.core.errors import RecordError
from rallye.core.jsonio import FORMAT_RULE, LIMITS_RULE, MAX_LINE_BYTES, MAX_RECORD_BYTES, decode, loads, read_bytes

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


def iter_jsonl(text: str, *, source: str = "<record>") -> Iterator[tuple[int, Line]]:
    """Record text as ``(line number, object)`` pairs, skipping blank lines, within the limits
    of :mod:`rallye.core.jsonio`, one line at a time: a reader that refuses a line (the
    header first) has not paid for parsing the rest."""
    seen = False
    for n, raw in enumerate(_lines(text), start=1):
        if not raw.strip():
            continue
        if len(raw) > MAX_LINE_BYTES:
            raise RecordError(
                f"{source}: line {n} is longer than {MAX_LINE_BYTES:,} characters, the most a record line may be",
                rule=LIMITS_RULE,
            )
        try:
            obj = loads(raw, source=source, line=n, error=RecordError)
        except RecordError as exc:
            if exc.rule != FORMAT_RULE:
                raise
            raise RecordError(f"{exc.message}; the file may be truncated or edited", rule="record-format") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
            raise RecordError(
                f"{source}: line {n} is not a record object with a 'type' field",
                rule="record-format",
            )
        seen = True
        yield n, obj
    if not seen:
        raise RecordError(f"{source}: the record is empty", rule="record-format")


def parse_jsonl(text: str, *, source: str = "<record>") -> list[tuple[int, Line]]:
    """Parse record text into ``(line number, object)`` pairs (see :func:`iter_jsonl`)."""
    return list(iter_jsonl(text, source=source))


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text``, split at ``\\n`` only (``str.splitlines`` also splits at
    U+2028 and others, which a line may hold inside a string) and one at a time."""
    start, end = 0, len(text)
    while start < end:
        stop = text.find("\n", start)
        if stop < 0:
            stop = end
        yield text[start:stop].removesuffix("\r")
        start = stop + 1


def read_text(path: str | Path) -> str:
    """A record file's text (at most :data:`~rallye.core.jsonio.MAX_RECORD_BYTES`); a missing,
    unreadable, oversized or non-UTF-8 file is a :class:`RecordError`."""
    p = Path(path)
    return decode(
        read_bytes(p, what="record", limit=MAX_RECORD_BYTES, error=RecordError), source=str(p), error=RecordError
    )


def read_jsonl(path: str | Path) -> list[tuple[int, Line]]:
    """Read a whole record file (see :func:`read_text`, :func:`iter_jsonl`)."""
    return parse_jsonl(read_text(path), source=str(path))


def iter_jsonl_file(path: str | Path) -> Iterator[tuple[int, Line]]:
    """Read a record file line by line (see :func:`read_text`, :func:`iter_jsonl`)."""
    return iter_jsonl(read_text(path), source=str(path))


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


#: A record's lines, bare (numbered 1, 2, ... in order) or with the line numbers of the file
#: they were read from (``read_jsonl``; a file's blank lines are skipped but counted).
Lines = Sequence[Line] | Sequence[tuple[int, Line]]


def numbered(lines: Lines) -> list[tuple[int, Line]]:
    """``lines`` with their line numbers: kept where given, else counted from 1.

    >>> numbered([{"type": "header"}, (7, {"type": "action"})])
    [(1, {'type': 'header'}), (7, {'type': 'action'})]
    """
    out: list[tuple[int, Line]] = []
    item: Any
    for i, item in enumerate(lines, start=1):
        out.append((int(item[0]), item[1]) if isinstance(item, tuple) else (i, item))
    return out
