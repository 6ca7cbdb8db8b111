"""`/health` on a port of its own (`health_port`), answered by a thread of each server process.

On the main port a probe waits its turn on the worker's event loop: when hundreds of connections arrive at
once (a flood of stream attempts, bench `live`), each is accepted and parsed before the probe is, and an
orchestrator may take a busy server for a dead one. Here the standard library's HTTP server, in threads of
its own, answers within the interpreter's switch interval whatever the loop is doing, and still tells a
stuck loop from a busy one: the loop beats every `BEAT_SECONDS`; a beat older than `stalled_after` seconds
answers 503.

Every worker binds the port with SO_REUSEPORT (as the main port, service.cli), so a probe reaches one of
them; the port belongs on a private network, like the metrics.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from socketserver import TCPServer
from typing import Any

import msgspec

from service import __version__
from service.logs import get_logger

BEAT_SECONDS = 0.5


class Heartbeat:
    """The last time the event loop ran a callback of ours, read from another thread."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.last = time.monotonic()
        self._handle: asyncio.TimerHandle | None = None
        self.beat()

    def beat(self) -> None:
        self.last = time.monotonic()  # one float stored: atomic under the GIL
        self._handle = self.loop.call_later(BEAT_SECONDS, self.beat)

    def age(self) -> float:
        return time.monotonic() - self.last

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()


class _Server(ThreadingHTTPServer):
    """The standard library's HTTP server (a thread per connection, so a probe on a kept-alive connection
    or a half-sent request holds no other probe back), bound with SO_REUSEPORT and without its reverse DNS
    lookup of the host (a lookup that can hang where no resolver answers)."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], heartbeat: Heartbeat, stalled_after: float) -> None:
        self.heartbeat = heartbeat
        self.stalled_after = stalled_after
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        super().__init__(address, _Probe, bind_and_activate=False)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "SO_REUSEPORT"):
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        try:
            self.server_bind()
            self.server_activate()
        except OSError:
            self.server_close()
            raise

    def server_bind(self) -> None:
        TCPServer.server_bind(self)
        self.server_name, self.server_port = str(self.server_address[0]), int(self.server_address[1])


class _Probe(BaseHTTPRequestHandler):
    server: _Server
    timeout = 2  # an idle or half-sent connection holds its thread no longer than this
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        if self.path.split("?", 1)[0] != "/health":
            self._answer(404, {"status": "not-found", "detail": "This port answers /health only."})
            return
        age = self.server.heartbeat.age()
        if age > self.server.stalled_after:
            self._answer(503, {"status": "stalled", "version": __version__, "checks": {"loop_idle_s": round(age, 1)}})
            return
        self._answer(200, {"status": "ok", "version": __version__, "checks": {}})

    def do_HEAD(self) -> None:
        self.do_GET()

    def _answer(self, status: int, body: dict[str, Any]) -> None:
        data = msgspec.json.encode(body)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # probes every few seconds are not worth a line each; the main port logs its requests


class HealthListener:
    """The thread that serves the health port for one server process, started and stopped by its lifespan."""

    def __init__(self, host: str, port: int, loop: asyncio.AbstractEventLoop, stalled_after: float) -> None:
        self.heartbeat = Heartbeat(loop)
        self.server = _Server((host, port), self.heartbeat, stalled_after)
        self.port: int = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, name="tablelog-health", daemon=True)

    def start(self) -> HealthListener:
        self.thread.start()
        get_logger().info("health.listening", port=self.port)
        return self

    def stop(self) -> None:
        self.heartbeat.stop()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)
