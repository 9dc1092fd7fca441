"""A loopback HTTP server that serves good and hostile OpenAPI documents for spec fetches."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

GOOD = {
    "openapi": "3.0.3",
    "info": {"title": "Loopback", "version": "1"},
    "paths": {"/ping": {"get": {"responses": {"200": {"description": "pong"}}}}},
}
GOOD_YAML = """\
openapi: 3.1.0
info: {title: Loopback YAML, version: "2"}
paths:
  /pong:
    get:
      responses:
        "200": {description: ping}
"""


class _Handler(BaseHTTPRequestHandler):
    stop: threading.Event

    def log_message(self, *_: object) -> None:
        pass

    def _send(self, body: bytes, kind: str = "application/json") -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        path = self.path
        if path == "/good.json":
            self._send(json.dumps(GOOD).encode())
        elif path == "/good.yaml":
            self._send(GOOD_YAML.encode(), "application/yaml")
        elif path == "/not-openapi.json":
            self._send(b'{"hello": "world"}')
        elif path == "/broken.yaml":
            self._send(b"openapi: [unclosed\n  - : :")
        elif path == "/never":
            self.stop.wait(30)  # answers nothing until the test ends
        elif path == "/endless":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            chunk = b" " * 65536
            try:
                while not self.stop.is_set():
                    self.wfile.write(chunk)
            except OSError:
                pass
        elif path == "/ten-mb.json":
            body = b'{"openapi": "3.0.3", "x": "' + b"a" * 10_000_000 + b'"}'
            self._send(body)
        elif path == "/to-metadata":
            self.send_response(302)
            self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()


@contextmanager
def spec_server() -> Iterator[str]:
    stop = threading.Event()
    handler = type("Handler", (_Handler,), {"stop": stop})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        stop.set()
        server.shutdown()
        server.server_close()
