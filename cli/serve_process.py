"""`innotune serve`: uvicorn, announcing its address only once the socket is bound."""

from __future__ import annotations

import socket
import sys

import uvicorn


class _AnnouncingServer(uvicorn.Server):
    """Prints `InnoTune listening on …` after the port is bound (a port taken is an error, never a
    false announcement), with the real port when 0 asked for any free one."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if not self.started or self.should_exit:
            return
        for server in self.servers:
            for bound in server.sockets:
                host, port = bound.getsockname()[:2]
                shown = f"[{host}]" if ":" in host else host
                print(f"InnoTune listening on http://{shown}:{port}", file=sys.stderr, flush=True)


def run_server(host: str, port: int) -> None:
    """Serve the API until interrupted."""
    config = uvicorn.Config("api.app:create_app", factory=True, host=host, port=port, log_config=None)
    _AnnouncingServer(config).run()
