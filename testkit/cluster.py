"""A small cluster for the scale tests: a streaming replica of the test PostgreSQL, network namespaces
joined to the root one by veth pairs, TCP forwarders into the databases, and `tablelog serve` nodes.

The primary is a cluster of the tests' own (`initdb` into a temporary directory, a port of its own, a
pg_hba.conf that lets 127.0.0.1 replicate) and the replica a second one made from it by `pg_basebackup`,
both run by the `postgres` OS user with the machine's binaries (`/usr/lib/postgresql/<major>/bin`),
stopped and removed afterwards. The machine's own PostgreSQL is never reconfigured.

The databases listen on 127.0.0.1 only, so each namespace's node reaches them through a forwarder that
listens on the root end of its veth pair (an address of a private /30 used only by that pair): the node's
connections cross a real interface, and a node killed or cut off is seen by the database as a peer gone.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import selectors
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

from testkit.waiting import answers, scaled, wait_until

ROOT = Path(__file__).resolve().parents[1]


class ClusterUnavailable(Exception):
    """What this machine lacks to run a replica or namespaces (the tests skip, or fail under CI)."""


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def with_address(url: str, host: str, port: int) -> str:
    """The same database URL (user, password, options) at another host and port."""
    parts = urlsplit(url)
    credentials = parts.netloc.rpartition("@")[0]
    netloc = f"{credentials}@{host}:{port}" if credentials else f"{host}:{port}"
    return urlunsplit(parts._replace(netloc=netloc))


def _run(groups: Path | None, args: list[str], *, user: str | None = None, env: dict[str, str] | None = None) -> str:
    """Run a command to its end; in a process group of its own, written to `groups` for `guard` to kill."""
    process = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, user=user, env=env, start_new_session=True
    )
    if groups is not None:
        with groups.open("a") as file:
            file.write(f"{process.pid}\n")
    out, err = process.communicate(timeout=120)
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed: {err.strip() or out.strip()}")
    return out


def guard(*commands: str) -> subprocess.Popen[bytes]:
    """A watcher, in a session of its own, that runs these shell commands once this test process is gone:
    a run killed mid-way (a time-out, a SIGKILL) must not leave a replica, a node or a namespace behind.
    Kill it once the cleanup ran normally."""
    script = f"while kill -0 {os.getpid()} 2>/dev/null; do sleep 1; done; " + "; ".join(commands)
    return subprocess.Popen(
        ["bash", "-c", script], start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def unguard(watcher: subprocess.Popen[bytes] | None) -> None:
    if watcher is not None and watcher.poll() is None:
        watcher.kill()
        watcher.wait(timeout=10)


# -- the primary and its replica ----------------------------------------------------------------------
@dataclass
class Private:
    """A PostgreSQL cluster of the tests' own in a temporary directory, run by the `postgres` OS user with
    the machine's binaries, on a port of its own; stopped and removed by `stop` (or by its guard, when the
    test process dies first)."""

    port: int = 0
    directory: Path = field(default_factory=Path)
    bin: Path = field(default_factory=Path)
    watcher: subprocess.Popen[bytes] | None = None

    def _prepare(self, prefix: str, major: int | None = None) -> tuple[Path, Path]:
        """Its binaries found and its directory made and guarded: (data directory, process-groups file)."""
        if os.geteuid() != 0:
            raise ClusterUnavailable("a private cluster is run by the postgres OS user: the tests must run as root")
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            raise ClusterUnavailable("no postgres OS user on this machine") from None
        versions = sorted(
            int(p.parent.name) for p in Path("/usr/lib/postgresql").glob("*/bin") if p.parent.name.isdigit()
        )
        if major is None and versions:
            major = versions[-1]
        self.bin = Path(f"/usr/lib/postgresql/{major}/bin")
        if not (self.bin / "pg_ctl").exists():
            raise ClusterUnavailable(f"no PostgreSQL {major or ''} binaries in /usr/lib/postgresql")
        self.directory = Path(tempfile.mkdtemp(prefix=prefix))
        shutil.chown(self.directory, "postgres", "postgres")
        data = self.directory / "data"
        groups = self.directory / "process-groups"
        self.watcher = guard(
            f"for group in $(cat {groups} 2>/dev/null); do kill -9 -$group; done",
            f"runuser -u postgres -- {self.bin / 'pg_ctl'} -D {data} -m immediate -w stop",
            f"rm -rf {self.directory}",
        )
        self.port = free_port()
        return data, groups

    def _configure_and_start(self, data: Path, settings: dict[str, str], hba: str) -> None:
        """A small configuration of its own (never the machine's), then started."""
        conf = {
            "port": str(self.port),
            "listen_addresses": "'127.0.0.1'",
            "unix_socket_directories": f"'{self.directory}'",
            "shared_buffers": "'32MB'",
            "fsync": "off",
            "logging_collector": "off",
            **settings,
        }
        (data / "postgresql.conf").write_text("".join(f"{k} = {v}\n" for k, v in conf.items()))
        (data / "pg_hba.conf").write_text(hba)
        for name in ("postgresql.conf", "pg_hba.conf"):
            shutil.chown(data / name, "postgres", "postgres")
        start = [str(self.bin / "pg_ctl"), "-D", str(data), "-l", str(self.directory / "log"), "-w", "-t"]
        _run(None, [*start, str(round(scaled(60))), "start"], user="postgres")

    def execute(self, sql: str) -> None:
        with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
            conn.execute(sql)

    @property
    def url(self) -> str:
        raise NotImplementedError

    def start(self) -> None:
        raise NotImplementedError

    def log(self) -> str:
        path = self.directory / "log"
        return path.read_text()[-3000:] if path.exists() else ""

    def pid(self) -> int:
        """The postmaster's process id."""
        return int((self.directory / "data" / "postmaster.pid").read_text().split()[0])

    def stop(self) -> None:
        unguard(self.watcher)
        if self.directory.exists():
            data = self.directory / "data"
            if (data / "postmaster.pid").exists():
                subprocess.run(
                    [str(self.bin / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                    capture_output=True,
                    timeout=60,
                    user="postgres",
                )
            shutil.rmtree(self.directory, ignore_errors=True)


@dataclass
class Primary(Private):
    """A primary of the tests' own that lets 127.0.0.1 replicate: the replica tests stream from it, so the
    machine's PostgreSQL is never reconfigured. `settings` add to (or replace) its small configuration."""

    settings: dict[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/test"  # the test server's database name

    def start(self) -> None:
        data, groups = self._prepare("tablelog-primary-")
        _run(
            groups,
            [str(self.bin / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "--no-sync"],
            user="postgres",
        )
        settings = {"wal_level": "replica", "max_wal_senders": "10", "max_connections": "200"} | self.settings
        hba = "local all all trust\nhost all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\n"
        self._configure_and_start(data, settings, hba)
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.port}/postgres", autocommit=True) as conn:
            conn.execute("CREATE DATABASE test")


@dataclass
class Standby(Private):
    """A streaming replica of a primary on this machine, running from a temporary directory."""

    primary_url: str = ""

    @property
    def url(self) -> str:
        return with_address(self.primary_url, "127.0.0.1", self.port)

    def start(self) -> None:
        parts = urlsplit(self.primary_url)
        if parts.hostname not in ("127.0.0.1", "localhost"):
            raise ClusterUnavailable(f"the primary at {parts.hostname} is not on this machine")
        with psycopg.connect(self.primary_url, autocommit=True, connect_timeout=5) as conn:
            major = int(str(conn.execute("SHOW server_version_num").fetchone()[0])) // 10000  # type: ignore[index]
            settings = {
                name: str(conn.execute(f"SHOW {name}").fetchone()[0])  # type: ignore[index]
                for name in ("max_connections", "max_worker_processes", "max_wal_senders", "max_locks_per_transaction")
            }
            wal_level = str(conn.execute("SHOW wal_level").fetchone()[0])  # type: ignore[index]
            replication_allowed = conn.execute(
                "SELECT count(*) FROM pg_hba_file_rules WHERE 'replication' = ANY(database) "
                "AND (address IS NULL AND type = 'host' OR address IN ('127.0.0.1', '0.0.0.0'))"
            ).fetchone()[0]  # type: ignore[index]
        if wal_level not in ("replica", "logical"):
            raise ClusterUnavailable(f"the primary's wal_level is {wal_level}: it cannot feed a replica")
        if not replication_allowed:
            raise ClusterUnavailable("the primary's pg_hba.conf has no replication line for 127.0.0.1")
        data, groups = self._prepare("tablelog-replica-", major)
        if not (self.bin / "pg_basebackup").exists():
            raise ClusterUnavailable(f"no PostgreSQL {major} binaries in {self.bin}")
        env = {**os.environ, "PGPASSWORD": parts.password or ""}
        _run(
            groups,
            [
                str(self.bin / "pg_basebackup"),
                "-h", "127.0.0.1", "-p", str(parts.port or 5432), "-U", parts.username or "postgres",
                "-D", str(data), "-X", "stream", "-R", "-c", "fast", "--no-sync",
            ],
            user="postgres",
            env=env,
        )  # fmt: skip
        replica = {"hot_standby": "on", "max_standby_streaming_delay": "'5s'"}
        self._configure_and_start(data, replica | settings, "local all all trust\nhost all all 127.0.0.1/32 trust\n")
        self.wait_until_replayed()

    def wait_until_replayed(self, timeout: float = 30.0) -> None:
        """Until the replica has replayed everything the primary has written now."""
        with psycopg.connect(self.primary_url, autocommit=True) as primary:
            target = primary.execute("SELECT pg_current_wal_lsn()").fetchone()[0]  # type: ignore[index]

        def replayed() -> bool:
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=3) as conn:
                    return bool(
                        conn.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", (str(target),)).fetchone()[0]  # type: ignore[index]
                    )
            except psycopg.OperationalError:
                return False

        wait_until(replayed, "the replica's catching up", timeout, log=self.log, interval=0.1)


# -- forwarding ----------------------------------------------------------------------------------------
class Forwarder:
    """Relays TCP connections from (host, port) to 127.0.0.1:target, in one thread."""

    def __init__(self, host: str, port: int, target: int) -> None:
        self.listener = socket.create_server((host, port), reuse_port=False)
        self.listener.setblocking(False)
        self.target = target
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.listener, selectors.EVENT_READ)
        self._peers: dict[socket.socket, socket.socket] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name=f"forward-{host}:{port}")
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            for key, _ in self._selector.select(timeout=0.2):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                if sock is self.listener:
                    self._accept()
                else:
                    self._relay(sock)

    def _accept(self) -> None:
        try:
            client, _ = self.listener.accept()
            upstream = socket.create_connection(("127.0.0.1", self.target), timeout=5)
        except OSError:
            return
        for sock in (client, upstream):
            sock.setblocking(False)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._selector.register(sock, selectors.EVENT_READ)
        self._peers[client], self._peers[upstream] = upstream, client

    def _relay(self, sock: socket.socket) -> None:
        peer = self._peers.get(sock)
        try:
            data = sock.recv(65536)
            if data and peer is not None:
                peer.setblocking(True)
                peer.sendall(data)
                peer.setblocking(False)
                return
        except OSError:
            pass
        self._close(sock)

    def _close(self, sock: socket.socket) -> None:
        for one in (sock, self._peers.pop(sock, None)):
            if one is None:
                continue
            self._peers.pop(one, None)
            with contextlib.suppress(KeyError, ValueError):
                self._selector.unregister(one)
            one.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        for sock in list(self._peers):
            self._close(sock)
        self.listener.close()


# -- namespaces ------------------------------------------------------------------------------------------
@dataclass
class Namespace:
    """A network namespace joined to the root one by a veth pair: `host` is the root end's address,
    `address` the namespace's own."""

    name: str
    host: str
    address: str
    watcher: subprocess.Popen[bytes] | None = None

    @classmethod
    def create(cls, tag: str, index: int) -> Namespace:
        if shutil.which("ip") is None:
            raise ClusterUnavailable("the ip command (iproute2) is missing (scripts/test installs it)")
        if os.geteuid() != 0:
            raise ClusterUnavailable("network namespaces need root")
        pid = os.getpid()
        # A /30 of 10.0.0.0/8 per pair, from this process's id: parallel test processes never share one.
        prefix = f"10.{(pid >> 8) & 255}.{pid & 255}"
        host, address = f"{prefix}.{index * 4 + 1}", f"{prefix}.{index * 4 + 2}"
        name = f"tl{pid}{tag}"
        outside, inside = f"tlh{pid}{tag}"[:15], f"tln{pid}{tag}"[:15]
        made = cls(name=name, host=host, address=address)
        made.watcher = guard(f"ip netns delete {name}", f"ip link delete {outside}")
        try:
            _run(None, ["ip", "netns", "add", name])
            _run(None, ["ip", "link", "add", outside, "type", "veth", "peer", "name", inside])
            _run(None, ["ip", "link", "set", inside, "netns", name])
            _run(None, ["ip", "addr", "add", f"{host}/30", "dev", outside])
            _run(None, ["ip", "link", "set", outside, "up"])
            made.run("ip", "addr", "add", f"{address}/30", "dev", inside)
            made.run("ip", "link", "set", inside, "up")
            made.run("ip", "link", "set", "lo", "up")
        except Exception:
            made.delete()
            raise
        return made

    def run(self, *args: str) -> str:
        return _run(None, ["ip", "netns", "exec", self.name, *args])

    def delete(self) -> None:
        # Deleting the namespace deletes its veth end, and with it the pair.
        subprocess.run(["ip", "netns", "delete", self.name], capture_output=True, timeout=30)
        subprocess.run(["ip", "link", "delete", f"tlh{os.getpid()}{self.name[-1]}"[:15]], capture_output=True)
        unguard(self.watcher)


# -- nodes ---------------------------------------------------------------------------------------------------
@dataclass
class Node:
    """A `tablelog serve` process in a namespace, listening on the namespace's address."""

    namespace: Namespace
    env: dict[str, str]
    port: int = 8000
    process: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None
    watcher: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://{self.namespace.address}:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        self.log_path = Path(tempfile.mkstemp(prefix=f"tablelog-{self.namespace.name}-", suffix=".log")[1])
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [
                    "ip", "netns", "exec", self.namespace.name,
                    str(ROOT / ".venv" / "bin" / "python"), "-m", "service.cli", "serve",
                    "--host", self.namespace.address, "--port", str(self.port),
                ],
                env=self.env,
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        self.watcher = guard(f"kill -9 -{self.process.pid}", f"rm -f {self.log_path}")
        wait_until(
            answers(f"{self.base}/health"), f"node {self.namespace.name}", timeout, runner=self.process, log=self.log
        )

    def kill(self) -> None:
        """SIGKILL to the node's whole process group (no shutdown of any kind)."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        unguard(self.watcher)
        if self.log_path is not None:
            self.log_path.unlink(missing_ok=True)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:] if self.log_path and self.log_path.exists() else ""
