"""The asynchronous client: every method of ``Client``, awaitable (run in a worker thread, so the
event loop never blocks on the network), and ``follow_events`` as an async iterator."""

from __future__ import annotations

import asyncio
import functools
import threading
from typing import Any, AsyncIterator, Awaitable, Callable, List, Optional, Unpack

from ._transport import ClientOptions
from .client import Client
from .types import EventView


class AsyncClient:
    """``await client.exec(runtime_id, "make test")``: the same arguments, results and errors as ``Client``."""

    def __init__(self, base_url: str, **options: Unpack[ClientOptions]) -> None:
        self.sync = Client(base_url, **options)

    def __getattr__(self, name: str) -> Callable[..., Awaitable[Any]]:
        method = getattr(self.sync, name)
        if name.startswith("_") or not callable(method):
            raise AttributeError(name)

        @functools.wraps(method)
        async def call(*args: Any, **kwargs: Any) -> Any:
            return await asyncio.to_thread(method, *args, **kwargs)

        return call

    async def follow_events(
        self,
        *,
        after: Optional[int] = None,
        runtime_id: Optional[str] = None,
        types: Optional[List[str]] = None,
        read_timeout: Optional[float] = None,
    ) -> AsyncIterator[EventView]:
        """Events as they come (see ``Client.follow_events``); leaving the ``async for`` stops the stream."""
        stop = threading.Event()
        events = self.sync.follow_events(after=after, runtime_id=runtime_id, types=types, stop=stop, read_timeout=read_timeout)
        done = object()
        try:
            while True:
                event = await asyncio.to_thread(next, events, done)
                if event is done:
                    return
                yield event
        finally:
            stop.set()
