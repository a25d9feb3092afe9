"""A real ``milligan serve`` on a free port and Debian's Chromium, headless, for the browser tests.

Chromium is never downloaded: the tests use ``/usr/bin/chromium`` (install it
with ``apt-get install chromium``; ``test.sh`` does so when it is missing).
Screenshots go to a temporary folder, and also to ``$MILLIGAN_SCREENSHOTS``
when that is set (``docs/screenshots`` is made that way).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

import milligan

CHROMIUM = os.environ.get("MILLIGAN_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]

if not Path(CHROMIUM).exists():
    pytest.fail(f"Chromium is needed at {CHROMIUM} (apt-get install chromium)", pytrace=False)

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright  # noqa: E402


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _milligan() -> tuple[list[str], dict[str, str]]:
    """The ``milligan`` command, run on the same source tree that these tests import."""
    source = str(Path(milligan.__file__).resolve().parents[1])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [source, env.get("PYTHONPATH")]))
    command = [sys.executable, "-c", "import sys; from milligan.cli import main; sys.exit(main())"]
    return command, env


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real server with its own SQLite file."""
    database = tmp_path_factory.mktemp("server") / "games.sqlite"
    port = _free_port()
    command, env = _milligan()
    log = (database.parent / "serve.log").open("w")
    process = subprocess.Popen(
        [*command, "serve", "--port", str(port), "--database", str(database)],
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"{base}/api/variants", timeout=2) as answer:
                if answer.status == 200:
                    break
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            log.close()
            output = (database.parent / "serve.log").read_text()
            pytest.fail(f"milligan serve did not start:\n{output}", pytrace=False)
        time.sleep(0.1)
    yield base
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield chromium
        chromium.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser profile: a new player for the server, English, desktop size."""
    ctx = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800})
    ctx.set_default_timeout(10_000)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("screenshots")
