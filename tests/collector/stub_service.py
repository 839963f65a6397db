"""A stand-in for the InnoTune API in a thread: records each request and answers as told.

The real snapshots endpoint is being built elsewhere; this stub pins what the collector sends.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class RecordedPart:
    """One part of a multipart/form-data body."""

    field: str
    filename: str | None
    content_type: str
    data: bytes


@dataclass
class RecordedRequest:
    """What reached the stub: method, path, headers (lower-case names) and the raw body."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def parts(self) -> list[RecordedPart]:
        """The multipart parts, in the order they were sent."""
        head = f"Content-Type: {self.headers['content-type']}\r\n\r\n".encode()
        message = BytesParser(policy=HTTP).parsebytes(head + self.body)
        assert message.is_multipart(), self.headers["content-type"]
        return [
            RecordedPart(
                field=str(part.get_param("name", header="content-disposition")),
                filename=part.get_filename(),
                content_type=part.get_content_type(),
                data=part.get_payload(decode=True) or b"",
            )
            for part in message.iter_parts()
        ]


@dataclass
class StubService:
    """The stub's base URL, what it answers, and the requests it received."""

    url: str = ""
    status: int = 201
    answer: Any = field(default_factory=lambda: {"id": "snap_0123456789abcdef"})
    content_type: str = "application/json"
    requests: list[RecordedRequest] = field(default_factory=list)


def _handler(service: StubService) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            headers = {name.lower(): value for name, value in self.headers.items()}
            service.requests.append(RecordedRequest("POST", self.path, headers, body))
            payload = json.dumps(service.answer).encode()
            self.send_response(service.status)
            self.send_header("Content-Type", service.content_type)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
            pass

    return Handler


@contextmanager
def stub_service(**answer: Any) -> Iterator[StubService]:
    """Serve on a free port of 127.0.0.1 until the block ends."""
    service = StubService(**answer)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(service))
    service.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
