"""The yardstick for the server: a one-route bare FastAPI app under the same uvicorn settings
as `docdeck serve` (loop and HTTP implementation `auto`, warning log level, no server header).

Usage: python bench/_bare_api.py PORT   (prints "ready" once listening)
"""

from __future__ import annotations

import asyncio
import sys

import uvicorn
from fastapi import FastAPI

app = FastAPI()


@app.get("/bare")
async def bare() -> dict[str, object]:
    return {"object": "bare", "id": "a1b2c3d4e5f6g7h8i9j0", "title": "Bare", "count": 1}


async def _serve(server: uvicorn.Server) -> None:
    task = asyncio.create_task(server.serve())
    while not server.started and not task.done():
        await asyncio.sleep(0.005)
    print("ready", flush=True)
    await task


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    config = uvicorn.Config(
        app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", server_header=False
    )
    # The event loop uvicorn's "auto" picks (uvloop when installed), as `docdeck serve` does.
    with asyncio.Runner(loop_factory=config.get_loop_factory()) as runner:
        runner.run(_serve(uvicorn.Server(config)))
