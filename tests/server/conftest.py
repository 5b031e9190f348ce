"""Fixtures of the server tests: a real database (SQLite, and PostgreSQL from Debian's
packages started by ``scripts/postgres``), the app under Starlette's test client."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from tests.server.helpers import close_all

from rallye.server.app import create_app

ROOT = Path(__file__).resolve().parents[2]
_PG: dict[str, str] = {}


def _postgres_admin_url() -> str | None:
    """The admin URL of a PostgreSQL server for the tests: ``RALLYE_TEST_POSTGRES`` (set
    by .ci/run), else one this test process starts with scripts/postgres (stopped at exit)."""
    if "url" in _PG:
        return _PG["url"]
    url = os.environ.get("RALLYE_TEST_POSTGRES")
    if not url:
        if not any(Path("/usr/lib/postgresql").glob("*/bin/initdb")):
            return None
        folder = tempfile.mkdtemp(prefix="rallye-pg-")
        os.chmod(folder, 0o755)
        done = subprocess.run([str(ROOT / "scripts" / "postgres"), "start", folder], capture_output=True, text=True)
        if done.returncode != 0:
            pytest.fail(f"scripts/postgres could not start PostgreSQL: {done.stderr}")
        url = done.stdout.strip()
        _PG["dir"] = folder
    _PG["url"] = url
    return url


def pytest_sessionfinish(session: object, exitstatus: object) -> None:
    folder = _PG.get("dir")
    if folder:
        subprocess.run([str(ROOT / "scripts" / "postgres"), "stop", folder], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def fresh_postgres() -> str:
    """A new, empty PostgreSQL database; its URL."""
    admin = _postgres_admin_url()
    if admin is None:
        if os.environ.get("RALLYE_REQUIRE_POSTGRES"):
            pytest.fail("PostgreSQL is required (RALLYE_REQUIRE_POSTGRES) but not installed")
        pytest.skip("PostgreSQL is not installed here (apt-get install postgresql); .ci/run installs it")
    import sqlalchemy as sa

    name = f"rallye_{secrets.token_hex(6)}"
    engine = sa.create_engine(admin.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return admin.replace("/postgres?", f"/{name}?", 1)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each database test runs on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'rallye.db'}"
    else:
        yield fresh_postgres()


@pytest.fixture
def postgres_url() -> str:
    """A new, empty PostgreSQL database (a fixture, so that no test module imports this
    conftest a second time: a second copy would start a server this one never stops)."""
    return fresh_postgres()


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    """The app under Starlette's test client, on each database; bots answer at once."""
    with TestClient(create_app(database_url, bot_delay=0)) as c:
        try:
            yield c
        finally:
            close_all()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'rallye.db'}"
