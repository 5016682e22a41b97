"""Following the event log over Server-Sent Events, reconnecting with the last id received."""

from __future__ import annotations

import json
import random
import threading
from typing import Any, Callable, Dict, Iterable, Iterator, Optional

from ._transport import Transport
from .errors import RuntimectlApiError, TooManyEventStreamsError
from .types import EventView

#: How long a follower waits before it reopens a stream that broke (seconds).
RECONNECT_DELAY_S = 1.0
#: The longest wait between attempts while the daemon keeps refusing streams.
MAX_REFUSED_DELAY_S = 30.0


def reconnect_delay_s(error: Optional[BaseException], refusals_in_a_row: int, rand: Callable[[], float] = random.random) -> float:
    """As the TypeScript client: a broken stream is reopened after RECONNECT_DELAY_S; one refused for
    too many open streams waits at least the daemon's Retry-After, doubling with each refusal in a
    row up to MAX_REFUSED_DELAY_S, plus up to a quarter more."""
    if not isinstance(error, TooManyEventStreamsError):
        return RECONNECT_DELAY_S
    backoff = min(MAX_REFUSED_DELAY_S, RECONNECT_DELAY_S * 2 ** max(0, refusals_in_a_row - 1))
    wait = max((error.retry_after_ms or 0) / 1000, backoff)
    return wait * (1 + rand() / 4)


def parse_sse(lines: Iterable[bytes]) -> Iterator[str]:
    """The ``data`` of each event of an SSE stream (lines joined with ``\\n``), comments and other fields skipped."""
    data: list = []
    for raw in lines:
        line = raw.decode("utf-8").rstrip("\r\n")
        if line == "":
            if data:
                yield "\n".join(data)
                data = []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "data":
            data.append(value)


def follow_events(
    transport: Transport,
    filters: Dict[str, Any],
    after: Optional[int],
    stop: Optional[threading.Event] = None,
    on_reconnect: Optional[Callable[[BaseException, float], None]] = None,
    read_timeout: Optional[float] = None,
) -> Iterator[EventView]:
    """Every event after ``after``, then new ones, until ``stop`` is set (checked between events and
    while waiting to reconnect) or the caller stops iterating. A broken stream is reopened with
    ``Last-Event-ID``, so nothing is missed and nothing comes twice; errors the daemon answers
    (401, 400) end it, except 429 ``too_many_event_streams``, which is tried again later."""
    stop = stop or threading.Event()
    last_event_id = after
    refusals = 0
    while not stop.is_set():
        reason: Optional[BaseException] = None
        try:
            with transport.open_stream("/api/v1/events", filters, last_event_id, read_timeout) as response:
                refusals = 0
                for data in parse_sse(response):
                    event: EventView = json.loads(data)
                    last_event_id = event["event_id"]
                    yield event
                    if stop.is_set():
                        return
        except TooManyEventStreamsError as error:
            refusals += 1
            reason = error
        except RuntimectlApiError:
            raise
        except Exception as error:  # a broken stream: reopened below
            reason = error
        if stop.is_set():
            return
        delay = reconnect_delay_s(reason, refusals)
        if reason is not None and on_reconnect is not None:
            on_reconnect(reason, delay)
        stop.wait(delay)
