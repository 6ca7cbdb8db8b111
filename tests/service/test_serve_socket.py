"""Several workers share one listening socket, made by `TcpConfig`: connections accepted on it must get
TCP_NODELAY, or every small answer waits for the client's delayed ACK (about 40 ms)."""

from __future__ import annotations

import asyncio
import socket

from service.cli import TcpConfig


async def nodelay_of_accepted_connection(sock: socket.socket) -> int:
    seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    class Probe(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            accepted = transport.get_extra_info("socket")
            seen.set_result(accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    server = await asyncio.get_running_loop().create_server(Probe, sock=sock)
    _, writer = await asyncio.open_connection(*sock.getsockname()[:2])
    try:
        return await asyncio.wait_for(seen, timeout=10)
    finally:
        writer.close()
        server.close()


def test_the_shared_worker_socket_gives_accepted_connections_tcp_nodelay() -> None:
    sock = TcpConfig("service.app:app_factory", factory=True, host="127.0.0.1", port=0, workers=2).bind_socket()
    assert sock.proto == socket.IPPROTO_TCP
    assert asyncio.run(nodelay_of_accepted_connection(sock)) != 0


def test_a_plain_socket_as_uvicorn_makes_it_would_leave_nagle_on() -> None:
    """The failure the test above guards against, shown on a socket made the way uvicorn makes it."""
    sock = socket.socket(socket.AF_INET)
    sock.bind(("127.0.0.1", 0))
    assert asyncio.run(nodelay_of_accepted_connection(sock)) == 0
