"""nginx for the tests: the benchmarks' helper (benchmarks/nginx_proxy.py), skipped where
nginx is not installed (CI installs it and requires it)."""

from __future__ import annotations

import os

import pytest

from benchmark_modules import load

nginx_proxy = load("nginx_proxy")
Nginx = nginx_proxy.Nginx
free_port = nginx_proxy.free_port


def nginx_or_skip() -> str:
    found: str | None = nginx_proxy.find_nginx()
    if found is None:
        if os.environ.get("RALLYE_REQUIRE_NGINX"):
            pytest.fail("nginx is required (RALLYE_REQUIRE_NGINX) but not installed")
        pytest.skip("nginx is not installed here (apt-get install nginx); .ci/run installs it")
    return found
