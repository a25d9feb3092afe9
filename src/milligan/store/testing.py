"""A throwaway PostgreSQL server on loopback, for tests and benchmarks.

It runs Debian's PostgreSQL binaries (``/usr/lib/postgresql/*/bin``) in a
temporary folder. PostgreSQL refuses to run as root, so when we are root the
server runs as the ``postgres`` user, which then owns the folder.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType


def postgres_bin() -> Path | None:
    """The folder of the newest installed PostgreSQL's programs, or None."""

    def version(path: str) -> int:
        name = Path(path).parent.parent.name
        return int(name) if name.isdigit() else 0

    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=version)
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class TemporaryPostgres:
    """``with TemporaryPostgres() as server: server.url`` — a database to use, then gone."""

    def __init__(self, database: str = "milligan") -> None:
        bin_dir = postgres_bin()
        if bin_dir is None:
            raise FileNotFoundError("PostgreSQL is not installed (/usr/lib/postgresql/*/bin)")
        self.bin = bin_dir
        self.database = database
        self.port = 0
        self.folder: Path | None = None
        self.as_root = os.geteuid() == 0

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    @property
    def url(self) -> str:
        """The connection URL of the test database."""
        return self.url_of(self.database)

    def url_of(self, database: str) -> str:
        """The connection URL of another database on this server."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> TemporaryPostgres:
        self.folder = Path(tempfile.mkdtemp(prefix="milligan-pg-"))
        if self.as_root:
            shutil.chown(self.folder, "postgres", "postgres")
        self.folder.chmod(0o700)
        data = self.folder / "data"
        self._run("initdb", "-D", str(data), "-U", "postgres", "-A", "trust", "-N", "-E", "UTF8")
        self.port = free_port()
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        self._run(
            "pg_ctl", "-D", str(data), "-o", options, "-l", str(self.folder / "log"), "-w", "start"
        )
        self.create_database(self.database)
        return self

    def create_schema(self, name: str) -> str:
        """A fresh, empty schema in the test database; a URL that uses it.

        Much quicker than a database of its own, and just as separate for
        tables that are not named with a schema.
        """
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute(f'CREATE SCHEMA "{name}"')
        return f"{self.url}?options=-csearch_path%3D{name}"

    def create_database(self, name: str) -> str:
        """Create another database; its URL."""
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        return self.url_of(name)

    def stop(self) -> None:
        if self.folder is None:
            return
        with contextlib.suppress(subprocess.CalledProcessError):  # it was not running
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None

    def __enter__(self) -> TemporaryPostgres:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
