"""JSON-lines records (DESIGN habit 7): framing errors name the line."""

from __future__ import annotations

import pytest

from rallye.core.errors import RecordError
from rallye.core.record import dumps_line, iter_field, parse_jsonl, read_jsonl, write_jsonl


def test_lines_round_trip_through_a_file(tmp_path):
    lines = [{"type": "header", "name": "Zöldhullám"}, {"type": "action", "n": 1}]
    path = tmp_path / "game.jsonl"
    write_jsonl(path, lines)
    assert [obj for _, obj in read_jsonl(path)] == lines
    assert "Zöldhullám" in path.read_text(encoding="utf-8")
    assert not (tmp_path / "game.jsonl.tmp").exists()


def test_dumps_line_is_one_compact_line():
    assert dumps_line({"type": "x", "a": [1, 2]}) == '{"type":"x","a":[1,2]}'


def test_parse_skips_blank_lines_and_keeps_line_numbers():
    text = '{"type":"a"}\n\n   \n{"type":"b"}\n'
    assert parse_jsonl(text) == [(1, {"type": "a"}), (4, {"type": "b"})]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [('{"type":"a"}\n{"type":"b"\n', "line 2 is not valid JSON"),
     ('{"type":"a"}\n{"type":"b"}\nnot json\n', "line 3 is not valid JSON"),
     ('{"type":"a"}\n[1,2]\n', "line 2 is not a record object"),
     ('{"type":"a"}\n{"kind":"b"}\n', "line 2 is not a record object with a 'type' field"),
     ('{"type":3}\n', "line 1 is not a record object"),
     ("", "the record is empty"),
     ("\n \n", "the record is empty")],
)  # fmt: skip
def test_parse_errors_name_the_line(text, fragment):
    with pytest.raises(RecordError) as info:
        parse_jsonl(text, source="save.jsonl")
    assert fragment in str(info.value)
    assert str(info.value).startswith("save.jsonl")
    assert info.value.code == "record_error"


def test_truncated_file_names_its_last_line(tmp_path):
    path = tmp_path / "cut.jsonl"
    write_jsonl(path, [{"type": "a"}, {"type": "b", "x": "long value"}])
    text = path.read_text(encoding="utf-8")
    path.write_text(text[:-8], encoding="utf-8")
    with pytest.raises(RecordError, match="line 2 is not valid JSON") as info:
        read_jsonl(path)
    assert str(path) in str(info.value) and "truncated" in str(info.value)


def test_missing_and_non_utf8_files(tmp_path):
    with pytest.raises(RecordError, match="cannot read"):
        read_jsonl(tmp_path / "missing.jsonl")
    bad = tmp_path / "latin1.jsonl"
    bad.write_bytes('{"type":"é"}\n'.encode("latin-1"))
    with pytest.raises(RecordError, match="not UTF-8"):
        read_jsonl(bad)


def test_iter_field_names_the_field():
    line = {"type": "deal", "hand": 2, "flag": True, "name": "x"}
    assert iter_field(line, "hand", int, where="line 4") == 2
    with pytest.raises(RecordError, match="line 4: missing field 'dealer'"):
        iter_field(line, "dealer", int, where="line 4")
    with pytest.raises(RecordError, match="line 4: field 'flag' must be an integer"):
        iter_field(line, "flag", int, where="line 4")
    with pytest.raises(RecordError, match="line 4: field 'name' must be int, got str"):
        iter_field(line, "name", int, where="line 4")
