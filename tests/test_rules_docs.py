"""The rules in the repository (issue 55, item 2): ``docs/rules/*.md`` agree with the edition
data and with the engines' rule ids, name clauses the tests use, and nothing points to the
rule models outside the repository any more."""

from __future__ import annotations

import ast
import re
import unicodedata
from pathlib import Path

import pytest

from rallye.mille.cards import CARDS
from rallye.mille.edition import EDITION_KEYS, SCORE_LINES, get_edition

ROOT = Path(__file__).resolve().parents[1]
MILLE = (ROOT / "docs" / "rules" / "mille-bornes.md").read_text(encoding="utf-8")
KNIGHT = (ROOT / "docs" / "rules" / "knight-rider.md").read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    """The body of the ``## heading`` section."""
    body = text.split(f"\n## {heading}\n", 1)[1]
    return body.split("\n## ", 1)[0]


def table_rows(text: str) -> list[list[str]]:
    """The cells of every table row in ``text`` (header and rule rows left out)."""
    rows = [
        [c.strip() for c in line.strip().strip("|").split("|")] for line in text.splitlines() if line.startswith("|")
    ]
    return [r for r in rows[2:] if not all(set(c) <= set("-") for c in r)] if rows else []


def clause(name: str) -> str:
    """``coup fourré`` -> ``coup_fourre``, as test names spell a clause."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", plain.lower()).strip("_")


def test_the_card_table_is_the_edition_data() -> None:
    rows = {r[0].strip("`"): r for r in table_rows(section(MILLE, "The cards").split("\n\n")[1])}
    assert list(rows) == list(CARDS)
    eds = [get_edition(k) for k in EDITION_KEYS]
    for card, row in rows.items():
        counts = dict(eds[0].deck)[card]
        assert row[2].split()[0] == str(counts), card
        for ed in eds:
            if dict(ed.deck)[card] != counts:
                assert f"{ed.key}: {dict(ed.deck)[card]}" in row[2], (card, ed.key)
        assert row[3:7] == [ed.card_name(card) for ed in eds], card
        assert row[7:9] == [eds[0].card_name(card, "en"), eds[0].card_name(card, "fr")], card


def test_the_score_word_table_is_the_edition_data() -> None:
    body = section(MILLE, "Where the editions differ").split("**Score-sheet words.**", 1)[1]
    rows = table_rows(body)
    assert [clause(r[0]) for r in rows] == [
        clause(line.replace("hand_penalty", "distance in hand")) for line in SCORE_LINES
    ]
    for row, line in zip(rows, SCORE_LINES, strict=True):
        assert row[1:5] == [get_edition(k).word(line) for k in EDITION_KEYS], line


def _test_names(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]


def test_every_common_core_clause_has_its_tests() -> None:
    clauses = {clause(c) for c in re.findall(r"^- \*([^*]+)\*:", section(MILLE, "The common core"), re.M)}
    clauses |= {clause(c) for c in re.findall(r"\. \*([^*]+)\*:", section(MILLE, "The common core"))}
    assert {"deal", "rolling", "coup_fourre", "empty_draw_pile", "match"} <= clauses
    names = _test_names(ROOT / "tests" / "mille" / "test_core_rules.py")
    missing = sorted(c for c in clauses if not any(n.startswith(f"test_core_{c}") for n in names))
    assert not missing, f"clauses of the common core without a test_core_<clause> test: {missing}"


def test_every_row_of_the_edition_table_has_a_test_per_edition_that_has_it() -> None:
    rows = table_rows(section(MILLE, "Where the editions differ").split("\n\n")[1])
    names = _test_names(ROOT / "tests" / "mille" / "test_edition_rules.py")
    for row in rows:
        name = clause(re.match(r"\*([^*]+)\*", row[0]).group(1))  # type: ignore[union-attr]
        tested = [k for k in EDITION_KEYS if any(n.startswith(f"test_{k}_{name}") for n in names)]
        assert tested, f"row {name!r} has no test_<edition>_{name} test"


def _mille_rule_ids() -> set[str]:
    """The rule ids the Mille Bornes engine gives an illegal move: ``(rule, reason)`` returns and
    ``rule=`` keywords in ``engine.py``."""
    tree = ast.parse((ROOT / "src" / "rallye" / "mille" / "engine.py").read_text(encoding="utf-8"))
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and len(node.value.elts) == 2:
            first = node.value.elts[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                ids.add(first.value)
        if isinstance(node, ast.keyword) and node.arg == "rule" and isinstance(node.value, ast.Constant):
            ids.add(str(node.value.value))
    return ids - {"deck"}  # a supplied deck order: a record's rule, listed with them


def _kr_rule_ids() -> set[str]:
    tree = ast.parse((ROOT / "src" / "rallye" / "knightrider" / "engine.py").read_text(encoding="utf-8"))
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_illegal":
            last = node.args[-1] if len(node.args) == 4 else None
            if isinstance(last, ast.Constant):
                ids.add(str(last.value))
        if isinstance(node, ast.keyword) and node.arg == "rule" and isinstance(node.value, ast.Constant):
            ids.add(str(node.value.value))
    return ids - {"unknown", "action-code", "players"}


def _documented_ids(text: str, heading: str) -> set[str]:
    return {r[0].strip("`") for r in table_rows(section(text, heading))}


@pytest.mark.parametrize(
    ("text", "heading", "ids"),
    [(MILLE, "Why a move is refused", _mille_rule_ids), (KNIGHT, "Why an action is refused", _kr_rule_ids)],
    ids=["mille", "knightrider"],
)
def test_every_rule_id_of_a_refused_move_is_documented(text: str, heading: str, ids: object) -> None:
    engine = ids()  # type: ignore[operator]
    documented = _documented_ids(text, heading)
    assert engine, "no rule ids found in the engine"
    assert not engine - documented, f"rule ids the docs do not list: {sorted(engine - documented)}"
    assert not documented - engine, f"rule ids the engine no longer gives: {sorted(documented - engine)}"


def test_every_knight_rider_test_prefix_is_a_documented_clause_or_resolution() -> None:
    """The docs name the clauses the Knight Rider scenario tests are named after."""
    named = {clause(c) for c in re.findall(r"\*([^*\n]+)\*", KNIGHT)}
    for prefix in ("build", "laying", "villain", "start", "turn_order", "movement", "ram", "oil", "skid", "win"):
        assert prefix in named or any(n.startswith(prefix) for n in named), prefix
    for card in ("molekul_mantel", "turbo_boost_i", "turbo_boost_ii", "blockier_sprung", "detour"):
        assert card in named, card


def test_the_town_tests_are_named_after_documented_clauses_and_named_in_the_docs() -> None:
    """Issue 62: the tests of the quick build, the villain's piece and the start distance
    are named after their clauses, and the docs name the ones they cite."""
    named = {clause(c) for c in re.findall(r"\*([^*\n]+)\*", KNIGHT)}
    names = _test_names(ROOT / "tests" / "knightrider" / "test_kr_town.py")
    rules = [n for n in names if not n.startswith("test_records_")]
    assert rules and all(any(n.startswith(f"test_{c}_") for c in named) for n in rules), rules
    cited = set(re.findall(r"`(test_[a-z0-9_]+)`", KNIGHT))
    assert {"quick_build", "villain_re_roll", "start_distance"} <= named
    missing = sorted(
        t
        for t in cited
        if t.startswith(("test_quick_build", "test_villain_re_roll", "test_start_distance")) and t not in names
    )
    assert not missing, f"the docs cite tests that do not exist: {missing}"


def test_no_reference_to_the_rule_models_outside_the_repository() -> None:
    """``shared/rules`` is not part of the repository: code, tests and docs point to docs/rules."""
    hits = []
    for folder in ("src", "tests", "docs", "benchmarks", "research", "examples", "scripts"):
        for path in (ROOT / folder).rglob("*"):
            built = "__pycache__" in path.parts or any(p.endswith(".egg-info") for p in path.parts)
            if path.is_file() and path.suffix in {".py", ".md", ""} and not built:
                text = path.read_text(encoding="utf-8", errors="replace")
                if "shared/rules" in text and path != Path(__file__).resolve():
                    hits.append(str(path.relative_to(ROOT)))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "shared/rules" not in readme
    assert not hits, f"still pointing to shared/rules: {hits}"


def _mille_names() -> dict[str, set[str]]:
    """The names a citation may use: the common core's clauses, the edition table's rows, the
    Resolutions (as ``clause`` spells them)."""
    core = section(MILLE, "The common core")
    clauses = {clause(c) for c in re.findall(r"^- \*([^*]+)\*:", core, re.M)}
    clauses |= {clause(c) for c in re.findall(r"\. \*([^*]+)\*:", core)}
    rows = table_rows(section(MILLE, "Where the editions differ").split("\n\n")[1])
    table = {clause(re.match(r"\*([^*]+)\*", r[0]).group(1)) for r in rows}  # type: ignore[union-attr]
    resolutions = {clause(c) for c in re.findall(r"^- \*([^*]+)\*", section(MILLE, "Resolutions"), re.M)}
    return {"core": clauses, "table": table, "resolution": resolutions}


def test_every_rules_citation_in_the_source_names_a_documented_clause() -> None:
    """The source cites ``docs/rules/mille-bornes.md`` in brackets instead of repeating it:
    ``[core: coup fourré, Resolution (declaring)]``, ``[table: extension]``, several joined by
    ``;``. Each name must be a clause of the common core, a row of the edition table or a
    Resolution there."""
    names = _mille_names()
    cited = 0
    unknown = []
    for path in sorted((ROOT / "src" / "rallye").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"\[(core|table):([^\]]*)\]", text):
            kind = m.group(1)
            for group in re.sub(r"[\s#]+", " ", m.group(2)).split(";"):
                head, sep, rest = group.partition(":")
                if sep and head.strip() in ("core", "table"):
                    kind, group = head.strip(), rest
                for item in group.split(","):
                    res = re.fullmatch(r"\s*Resolution \(([^)]+)\)\s*", item)
                    where, name = ("resolution", res.group(1)) if res else (kind, item)
                    cited += 1
                    if clause(name) not in names[where]:
                        unknown.append(f"{path.relative_to(ROOT)}: {where} {name.strip()!r}")
    assert cited > 20, "no citations found"
    assert not unknown, f"citations of names the rules page does not have: {unknown}"
