"""The asynchronous client: every method of ``Client``, awaitable (run in a worker thread, so the
event loop never blocks on the network), typed as ``Client``'s are, and ``follow_events`` as an
async iterator."""

from __future__ import annotations

import asyncio
import functools
import threading
from typing import AsyncIterator, Awaitable, Callable, Concatenate, List, Optional, ParamSpec, TypeVar, Unpack

from ._transport import ClientOptions
from .client import Client
from .types import EventView


P = ParamSpec("P")
R = TypeVar("R")


def _off_the_loop(method: Callable[Concatenate[Client, P], R]) -> Callable[Concatenate["AsyncClient", P], Awaitable[R]]:
    """``Client.method`` as a coroutine with the same parameters and result type, run in a worker thread."""

    @functools.wraps(method)
    async def call(self: "AsyncClient", *args: P.args, **kwargs: P.kwargs) -> R:
        return await asyncio.to_thread(method, self.sync, *args, **kwargs)

    return call


class AsyncClient:
    """``await client.exec(runtime_id, "make test")``: the same arguments, results and errors as ``Client``."""

    def __init__(self, base_url: str, **options: Unpack[ClientOptions]) -> None:
        self.sync = Client(base_url, **options)

    @property
    def base_url(self) -> str:
        return self.sync.base_url

    health = _off_the_loop(Client.health)
    ready = _off_the_loop(Client.ready)
    providers = _off_the_loop(Client.providers)
    nodes = _off_the_loop(Client.nodes)
    open = _off_the_loop(Client.open)
    list = _off_the_loop(Client.list)
    get = _off_the_loop(Client.get)
    update = _off_the_loop(Client.update)
    exec = _off_the_loop(Client.exec)
    read_file = _off_the_loop(Client.read_file)
    write_file = _off_the_loop(Client.write_file)
    stat = _off_the_loop(Client.stat)
    mkdir = _off_the_loop(Client.mkdir)
    search = _off_the_loop(Client.search)
    export = _off_the_loop(Client.export)
    checkpoint = _off_the_loop(Client.checkpoint)
    list_checkpoints = _off_the_loop(Client.list_checkpoints)
    get_checkpoint = _off_the_loop(Client.get_checkpoint)
    checkpoint_tree = _off_the_loop(Client.checkpoint_tree)
    diff = _off_the_loop(Client.diff)
    checkout = _off_the_loop(Client.checkout)
    fork = _off_the_loop(Client.fork)
    pause = _off_the_loop(Client.pause)
    resume = _off_the_loop(Client.resume)
    close = _off_the_loop(Client.close)
    delete_checkpoint_snapshot = _off_the_loop(Client.delete_checkpoint_snapshot)
    pin_checkpoint = _off_the_loop(Client.pin_checkpoint)
    retention_preview = _off_the_loop(Client.retention_preview)
    events = _off_the_loop(Client.events)
    webhooks = _off_the_loop(Client.webhooks)
    webhook_deliveries = _off_the_loop(Client.webhook_deliveries)
    api_keys = _off_the_loop(Client.api_keys)
    create_api_key = _off_the_loop(Client.create_api_key)
    revoke_api_key = _off_the_loop(Client.revoke_api_key)

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
