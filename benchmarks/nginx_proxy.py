"""Debian's nginx with the project's site file (deploy/nginx/rallye.conf), for the tests and
the load benchmark (``server_load.py --nginx``): the same file, with their ports, upstream
processes and a self-signed certificate."""

from __future__ import annotations

import re
import shutil
import signal
import socket
import ssl
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "deploy" / "nginx" / "rallye.conf"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def find_nginx() -> str | None:
    """Debian's nginx, if installed."""
    return shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


class Nginx:
    """nginx running the shipped site in front of ``upstreams`` (ports on 127.0.0.1), with
    HTTPS on ``https`` (a free port if not given)."""

    def __init__(self, folder: Path, upstreams: list[int], https: int | None = None) -> None:
        binary = find_nginx()
        if binary is None:
            raise RuntimeError("nginx is not installed here (apt-get install nginx)")
        self.binary = binary
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        cert, key = folder / "cert.pem", folder / "key.pem"
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
             "-keyout", str(key), "-out", str(cert)],
            check=True, capture_output=True, timeout=60,
        )  # fmt: skip
        self.tls = ssl.create_default_context(cafile=str(cert))
        self.tls.check_hostname = False
        self.http, self.https = free_port(), https or free_port()
        site = SITE.read_text(encoding="utf-8")
        site = re.sub(r"^\s*listen \[::\].*$", "", site, flags=re.M)  # no IPv6 needed here
        site = site.replace("listen 80;", f"listen 127.0.0.1:{self.http};")
        site = site.replace("listen 443 ", f"listen 127.0.0.1:{self.https} ")
        site = re.sub(r"^\s*# server 127\.0\.0\.1:\d+;\s*$", "", site, flags=re.M)
        servers = "".join(f"    server 127.0.0.1:{p};\n" for p in upstreams)
        site, n = re.subn(r"^    server 127\.0\.0\.1:8000;.*\n", servers, site, flags=re.M)
        assert n == 1, "the site's upstream changed shape"
        site = site.replace("/etc/letsencrypt/live/rallye.example.org/fullchain.pem", str(cert))
        site = site.replace("/etc/letsencrypt/live/rallye.example.org/privkey.pem", str(key))
        temp = folder / "temp"
        temp.mkdir(exist_ok=True)
        self.conf = folder / "nginx.conf"
        self.error_log = folder / "error.log"
        self.conf.write_text(
            f"daemon off;\npid {temp}/nginx.pid;\nerror_log {self.error_log};\nevents {{}}\n"
            f"http {{\naccess_log off;\nclient_body_temp_path {temp}/body;\nproxy_temp_path {temp}/proxy;\n"
            f"fastcgi_temp_path {temp}/fcgi;\nuwsgi_temp_path {temp}/uwsgi;\nscgi_temp_path {temp}/scgi;\n"
            f"{site}\n}}\n",
            encoding="utf-8",
        )
        checked = subprocess.run(
            [self.binary, "-t", "-c", str(self.conf), "-e", str(self.error_log)], capture_output=True, text=True
        )
        assert checked.returncode == 0, checked.stderr
        with (folder / "nginx.out").open("w") as out:
            self.proc = subprocess.Popen(
                [self.binary, "-c", str(self.conf), "-e", str(self.error_log)], stdout=out, stderr=out
            )

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.https}"

    def cpu_seconds(self) -> float:
        """CPU seconds (user + system) of nginx's master and worker processes."""
        import os

        total = 0.0
        for status in Path("/proc").glob("[0-9]*/stat"):
            try:
                rest = status.read_text().rsplit(")", 1)[1]
            except OSError:
                continue
            fields = rest.split()
            pid, ppid = int(status.parent.name), int(fields[1])
            if pid == self.proc.pid or ppid == self.proc.pid:
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return total

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
