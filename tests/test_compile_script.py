"""``scripts/compile``'s bookkeeping (docs/performance.md, "A compiled build"): ``--check`` names a built
module whose source changed since, ``--clean`` removes every built module, a wrong word is
refused. (The build itself runs in CI, which compiles and runs the suite again.)"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "compile"
SUFFIX = ".cpython-311-x86_64-linux-gnu.so"


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir()
    shutil.copy(SCRIPT, tmp_path / "scripts" / "compile")
    pkg = tmp_path / "src" / "rallye" / "mille"
    pkg.mkdir(parents=True)
    for name in ("engine", "view"):
        (pkg / f"{name}.py").write_text("x = 1\n")
        (pkg / f"{name}{SUFFIX}").write_bytes(b"built")
    (tmp_path / "src" / f"abc__mypyc{SUFFIX}").write_bytes(b"built")
    return tmp_path


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(root / "scripts" / "compile"), *args], capture_output=True, text=True)


def test_check_names_a_stale_module_and_passes_a_fresh_build(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    pkg = root / "src" / "rallye" / "mille"
    for so in pkg.glob(f"*{SUFFIX}"):
        os.utime(so, (2_000_000_000, 2_000_000_000))  # built after the sources
    fresh = _run(root, "--check")
    assert fresh.returncode == 0 and not fresh.stderr
    os.utime(pkg / "view.py", (2_000_000_100, 2_000_000_100))  # edited after the build
    stale = _run(root, "--check")
    assert stale.returncode == 1
    assert f"stale compiled module: src/rallye/mille/view{SUFFIX}" in stale.stderr and "engine" not in stale.stderr


def test_clean_removes_every_built_module_and_keeps_the_sources(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    (root / "src" / "build").mkdir()
    done = _run(root, "--clean")
    assert done.returncode == 0 and "pure Python" in done.stdout
    left = sorted(p.relative_to(root).as_posix() for p in (root / "src").rglob("*") if p.is_file())
    assert left == ["src/rallye/mille/engine.py", "src/rallye/mille/view.py"]


def test_a_wrong_word_is_refused(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    done = _run(root, "--fast")
    assert done.returncode == 2 and "usage: scripts/compile [--clean|--check]" in done.stderr


def test_compiled_speed_plays_the_measured_games_in_a_child() -> None:
    """``benchmarks/compiled_speed.py`` compares the two builds by what a child plays: the
    measured bot's moves and their CPU times, the same games as ``bot_speed.py``'s."""
    script = SCRIPT.parent.parent / "benchmarks" / "compiled_speed.py"
    done = subprocess.run(
        [sys.executable, str(script), "--child", "medium", "--hands", "1"], capture_output=True, text=True, check=True
    )
    got = json.loads(done.stdout)
    assert len(got["moves"]) == len(got["times"]) > 10
    assert all(
        isinstance(m, str) and m.split()[0] in {"play", "attack", "discard", "extend", "decline"} for m in got["moves"]
    )
    assert got["module"].endswith(("engine.py", ".so"))
