"""A loopback TCP proxy that delays every request: a slow link for tests and manual checks.

`python tests/slow_link.py 8081 http://127.0.0.1:8080 0.3` forwards 127.0.0.1:8081 to the
sandbox at 8080, each chunk from the client waiting 0.3 s first (as a 0.3 s link does).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from urllib.parse import urlsplit


class SlowLink:
    """Forwards 127.0.0.1:<port> to `upstream`; what the client sends waits `delay` first."""

    def __init__(self, upstream: str, delay: float) -> None:
        parts = urlsplit(upstream)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.delay = delay
        self.server: asyncio.Server | None = None

    async def start(self, port: int = 0) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", port)
        bound = self.server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{bound}"

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 2)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(self.host, self.port)
        except OSError:
            writer.close()
            return
        await asyncio.gather(
            self._pump(reader, up_writer, self.delay),
            self._pump(up_reader, writer, 0),
            return_exceptions=True,
        )

    @staticmethod
    async def _pump(
        reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float
    ) -> None:
        try:
            while chunk := await reader.read(65536):
                if delay:
                    await asyncio.sleep(delay)
                writer.write(chunk)
                await writer.drain()
        finally:
            with contextlib.suppress(Exception):
                writer.close()


async def _main(port: int, upstream: str, delay: float) -> None:
    link = SlowLink(upstream, delay)
    print(f"{await link.start(port)} -> {upstream}, +{delay}s per request", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(_main(int(sys.argv[1]), sys.argv[2], float(sys.argv[3])))
