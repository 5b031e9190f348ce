"""The files that install rallye's server as a service (docs/hosting.md): the systemd unit
passes ``systemd-analyze verify``, and the container file's commands, run in a plain virtual
environment instead of an image (no container engine runs here), build the wheel, install
it and start a server that answers ``/healthz`` on the database named by the environment."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"


def test_the_systemd_unit_verifies(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here")
    text = (DEPLOY / "rallye.service").read_text(encoding="utf-8")
    # verify checks that the program exists: point it at this environment's rallye
    start = re.search(r"^ExecStart=(\S+)", text, re.M)
    assert start is not None and start.group(1) == "/opt/rallye/bin/rallye"
    rallye = Path(sys.executable).with_name("rallye")
    unit = tmp_path / "rallye.service"
    unit.write_text(text.replace("/opt/rallye/bin/rallye", str(rallye)), encoding="utf-8")
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    # the options the unit passes are the server's own
    args = shlex.split(text[start.end() :].splitlines()[0])
    from rallye.cli import build_parser

    assert args[0] == "serve"
    build_parser().parse_args(args)


def _instructions(text: str) -> list[tuple[str, str]]:
    joined = re.sub(r"\\\n", " ", text)
    out = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def _stop(server: subprocess.Popen[bytes]) -> None:
    """Stop a server as Ctrl-C does (it writes what it accepted), or kill it after 20 s."""
    server.send_signal(signal.SIGINT)
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_the_container_file_installs_and_serves(tmp_path: Path) -> None:
    steps = _instructions((DEPLOY / "Containerfile").read_text(encoding="utf-8"))
    assert [w for w, _ in steps].count("FROM") == 2 and "USER" in [w for w, _ in steps]
    # the image's paths, inside this test's folder
    paths = {
        "/src": str(ROOT),
        "/dist": str(tmp_path / "dist"),
        "/opt/rallye": str(tmp_path / "opt" / "rallye"),
        "/var/lib/rallye": str(tmp_path / "var"),
    }
    (tmp_path / "var").mkdir()

    image_path = re.compile(rf"(?<![\w.])({'|'.join(map(re.escape, paths))})(?=[/\s\"']|$)")

    def here(s: str) -> str:  # one pass, so a path put in is never replaced again
        return image_path.sub(lambda m: paths[m.group(1)], s)

    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if ".venv" not in p)
    cmd: list[str] = []
    python = shutil.which("python3", path=env["PATH"]) or sys.executable
    for word, rest in steps:
        if word == "RUN":
            if rest.startswith("useradd"):
                continue  # a system user: the image's business, not this test's
            line = (
                here(rest).replace("pip wheel", f"{python} -m pip wheel").replace("python -m venv", f"{python} -m venv")
            )
            done = subprocess.run(["bash", "-c", line], env=env, capture_output=True, text=True, timeout=540)
            assert done.returncode == 0, f"RUN {rest}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        elif word == "ENV":
            key, _, value = rest.partition("=")
            env[key] = here(value)
        elif word == "CMD":
            cmd = [here(a) for a in json.loads(rest)]
    assert env["RALLYE_DATABASE"] == f"sqlite:///{tmp_path / 'var'}/rallye.db"
    port = _free_port()
    cmd[cmd.index("--port") + 1] = str(port)
    cmd[cmd.index("--host") + 1] = "127.0.0.1"
    log = tmp_path / "server.log"
    with log.open("w") as out:
        server = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                    assert json.load(r)["status"] == "ok"
                    break
            except OSError:
                assert server.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "the installed server did not answer"
                time.sleep(0.2)
        assert (tmp_path / "var" / "rallye.db").exists()  # the database the environment named
    finally:
        _stop(server)


def test_the_nginx_configuration_serves_pages_and_websockets_over_tls(tmp_path: Path) -> None:
    """deploy/nginx/rallye.conf in Debian's nginx, in front of a real ``rallye serve``: plain
    HTTP is sent to HTTPS, pages and the API come through TLS, and a table's websocket is
    upgraded and answered."""
    from proxy_helpers import Nginx, nginx_or_skip

    nginx_or_skip()
    app = _free_port()
    db = f"sqlite:///{tmp_path / 'rallye.db'}"
    rallye = [sys.executable, "-m", "rallye", "serve", "--port", str(app), "--no-browser", "--database", db]
    log = tmp_path / "server.log"
    with log.open("w") as out:
        server = subprocess.Popen(rallye, stdout=out, stderr=subprocess.STDOUT)
    proxy = Nginx(tmp_path / "nginx", [app])
    tls = proxy.tls
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{proxy.url}/healthz", context=tls, timeout=5) as r:
                    assert json.load(r)["status"] == "ok"
                    break
            except OSError:
                assert server.poll() is None and proxy.proc.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "no answer through nginx"
                time.sleep(0.2)

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args: object, **kwargs: object) -> None:
                return None

        try:
            urllib.request.build_opener(NoRedirect).open(f"http://127.0.0.1:{proxy.http}/", timeout=5)
            raise AssertionError("plain HTTP was served")
        except urllib.error.HTTPError as exc:
            assert exc.code == 301 and exc.headers["Location"].startswith("https://")
        seats = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]
        body = json.dumps({"game": "mille", "players": 2, "seats": seats, "sit": 0})
        req = urllib.request.Request(
            f"{proxy.url}/api/tables", data=body.encode(), headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, context=tls, timeout=10) as r:
            made = json.load(r)
        from websockets.sync.client import connect

        with connect(f"wss://127.0.0.1:{proxy.https}/ws/{made['code']}", ssl=tls, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "protocol": 1, "token": made["token"]}))
            welcome = json.loads(ws.recv(timeout=10))
            assert welcome["type"] == "welcome" and welcome["seat"] == 0
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
    finally:
        proxy.stop()
        _stop(server)
