"""The synchronous client: one method per route of the HTTP API (docs/http-api.md)."""

from __future__ import annotations

import base64
import threading
import urllib.parse
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Union, Unpack, cast

from ._transport import ClientOptions, Transport
from .events import follow_events
from .types import (
    CheckoutChildrenResult,
    CheckoutResult,
    CheckpointList,
    CheckpointTree,
    CheckpointResult,
    CheckpointView,
    CloseResult,
    DiffResult,
    EventList,
    EventView,
    ExecResult,
    OpenResult,
    RuntimeResult,
)

Json = Dict[str, Any]


def _fields(**fields: Any) -> Json:
    """A request body: the fields given, ``None`` left out (the daemon's defaults apply)."""
    return {key: value for key, value in fields.items() if value is not None}


def _id(value: str) -> str:
    return urllib.parse.quote(value, safe="")


class Client:
    """Typed client for the runtimectl daemon, on the standard library only.

    Every POST carries an ``Idempotency-Key`` (a fresh UUID, or ``idempotency_key=`` to retry a
    request as the same request); a connection that broke is retried with the same key, so the
    daemon carries the request out once. Failures raise the error class of the daemon's code
    (``runtimectl.errors``). Keyword arguments are the wire's field names; ``**fields`` passes
    fields this version does not name yet.
    """

    def __init__(self, base_url: str, **options: Unpack[ClientOptions]) -> None:
        """``options``: ``token``, ``timeout`` (seconds), ``retries``, ``idempotency_keys`` (see ``ClientOptions``)."""
        self._http = Transport(base_url, **options)

    @property
    def base_url(self) -> str:
        return self._http.base_url

    def _post(self, path: str, body: Json, idempotency_key: Optional[str]) -> Any:
        return self._http.json("POST", path, body=body, idempotency_key=idempotency_key)

    def _get(self, route: str, **query: Any) -> Any:
        return self._http.json("GET", route, query=query)

    # The daemon and its fleet.

    def health(self) -> Json:
        return cast(Json, self._get("/api/v1/health"))

    def ready(self) -> Json:
        """Answers while the daemon reaches its store; ``StoreUnavailableError`` otherwise."""
        return cast(Json, self._get("/api/v1/ready"))

    def providers(self) -> Json:
        return cast(Json, self._get("/api/v1/providers"))

    def nodes(self) -> Json:
        return cast(Json, self._get("/api/v1/nodes"))

    # Runtimes.

    def open(self, conversation_id: str, sender_id: str, *, runtime_id: Optional[str] = None, provider: Optional[str] = None, idempotency_key: Optional[str] = None, **fields: Any) -> OpenResult:
        body = _fields(conversation_id=conversation_id, sender_id=sender_id, runtime_id=runtime_id, provider=provider, **fields)
        return cast(OpenResult, self._post("/api/v1/runtimes/open", body, idempotency_key))

    def list(self, *, status: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None) -> Json:
        return cast(Json, self._get("/api/v1/runtimes", status=status, limit=limit, cursor=cursor))

    def get(self, runtime_id: str) -> Json:
        return cast(Json, self._get(f"/api/v1/runtimes/{_id(runtime_id)}"))

    def update(self, runtime_id: str, *, idempotency_key: Optional[str] = None, **fields: Any) -> RuntimeResult:
        """Fields: ``session_state``, ``metadata``, ``retention``, ``verify``, ``expires_at_ms``,
        ``idle_pause_after_ms``, ``auto_resume``. Unlike elsewhere, ``None`` is sent, as JSON null
        (which clears a TTL, or takes the daemon's default again)."""
        return cast(RuntimeResult, self._post("/api/v1/runtimes/update", {"runtime_id": runtime_id, **fields}, idempotency_key))

    def exec(
        self,
        runtime_id: str,
        command: str,
        *,
        cwd: Optional[str] = None,
        timeout_ms: Optional[int] = None,
        shell: Optional[str] = None,
        env: Optional[Mapping[str, str]] = None,
        idempotency_key: Optional[str] = None,
    ) -> ExecResult:
        """Runs ``command``; a non-zero exit is a result, not an error. ``stdout``/``stderr`` decode the output."""
        body = _fields(runtime_id=runtime_id, command=command, cwd=cwd, timeout_ms=timeout_ms, shell=shell, env=dict(env) if env is not None else None)
        return cast(ExecResult, self._post("/api/v1/runtimes/exec", body, idempotency_key))

    def read_file(self, path: str, *, runtime_id: Optional[str] = None, checkpoint_id: Optional[str] = None) -> bytes:
        """A runtime's file, or a checkpoint's (read from its snapshot without restoring it)."""
        body = _fields(runtime_id=runtime_id, checkpoint_id=checkpoint_id, path=path)
        return base64.b64decode(self._post("/api/v1/runtimes/read-file", body, None)["content_base64"])

    def write_file(self, runtime_id: str, path: str, content: Union[bytes, str], *, idempotency_key: Optional[str] = None) -> Json:
        data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
        body = {"runtime_id": runtime_id, "path": path, "content_base64": base64.b64encode(data).decode("ascii")}
        return cast(Json, self._post("/api/v1/runtimes/write-file", body, idempotency_key))

    def stat(self, runtime_id: str, path: str) -> Json:
        return cast(Json, self._post("/api/v1/runtimes/stat", {"runtime_id": runtime_id, "path": path}, None))

    def mkdir(self, runtime_id: str, path: str) -> Json:
        return cast(Json, self._post("/api/v1/runtimes/mkdir", {"runtime_id": runtime_id, "path": path}, None))

    def search(self, runtime_id: str, *, glob: Optional[str] = None, grep: Optional[Mapping[str, Any]] = None, base_dir: Optional[str] = None, limit: Optional[int] = None) -> Json:
        """``glob`` (paths) or ``grep={"query": …}`` (matching lines)."""
        body = _fields(runtime_id=runtime_id, glob=glob, grep=dict(grep) if grep is not None else None, base_dir=base_dir, limit=limit)
        return cast(Json, self._post("/api/v1/runtimes/search", body, None))

    def export(self, runtime_id: str, path: str) -> bytes:
        """A file's bytes, any size (held in memory here: use ``read_file`` for small ones, or the CLI for large)."""
        _, _, raw = self._http.send("POST", "/api/v1/runtimes/export", body={"runtime_id": runtime_id, "path": path})
        return cast(bytes, raw)

    # Checkpoints, branches, pause.

    def checkpoint(self, runtime_id: str, *, name: Optional[str] = None, metadata: Optional[Mapping[str, Any]] = None, idempotency_key: Optional[str] = None) -> CheckpointResult:
        body = _fields(runtime_id=runtime_id, name=name, metadata=dict(metadata) if metadata is not None else None)
        return cast(CheckpointResult, self._post("/api/v1/runtimes/checkpoint", body, idempotency_key))

    def list_checkpoints(self, runtime_id: str, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> CheckpointList:
        """Newest first."""
        return cast(CheckpointList, self._get(f"/api/v1/runtimes/{_id(runtime_id)}/checkpoints", limit=limit, cursor=cursor))

    def get_checkpoint(self, checkpoint_id: str) -> CheckpointView:
        return cast(CheckpointView, self._get(f"/api/v1/checkpoints/{_id(checkpoint_id)}"))

    def checkpoint_tree(self, checkpoint_id: str, path: Optional[str] = None, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> CheckpointTree:
        """One directory of a checkpoint (``path`` relative, the root without one) from its manifest, restoring nothing."""
        return cast(CheckpointTree, self._get(f"/api/v1/checkpoints/{_id(checkpoint_id)}/tree", path=path, limit=limit, cursor=cursor))

    def diff(self, from_checkpoint_id: str, *, to_checkpoint_id: Optional[str] = None, to_runtime_id: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None) -> DiffResult:
        """What changed from a checkpoint to another (``to_checkpoint_id``) or to a runtime as it is now (``to_runtime_id``)."""
        body = _fields(from_checkpoint_id=from_checkpoint_id, to_checkpoint_id=to_checkpoint_id, to_runtime_id=to_runtime_id, limit=limit, cursor=cursor)
        return cast(DiffResult, self._post("/api/v1/checkpoints/diff", body, None))

    def checkout(self, checkpoint_id: str, *, count: Optional[int] = None, idempotency_key: Optional[str] = None, **fields: Any) -> Union[CheckoutResult, CheckoutChildrenResult]:
        """A new runtime from a checkpoint; with ``count`` (1–100) that many, ``results`` in order."""
        body = _fields(checkpoint_id=checkpoint_id, count=count, **fields)
        return cast(Union[CheckoutResult, CheckoutChildrenResult], self._post("/api/v1/runtimes/checkout", body, idempotency_key))

    def fork(self, runtime_id: str, *, count: Optional[int] = None, idempotency_key: Optional[str] = None, **fields: Any) -> CheckoutChildrenResult:
        """One checkpoint of the runtime, checked out ``count`` times."""
        body = _fields(runtime_id=runtime_id, count=count, **fields)
        return cast(CheckoutChildrenResult, self._post("/api/v1/runtimes/fork", body, idempotency_key))

    def pause(self, runtime_id: str, *, name: Optional[str] = None, metadata: Optional[Mapping[str, Any]] = None, idempotency_key: Optional[str] = None) -> Json:
        body = _fields(runtime_id=runtime_id, name=name, metadata=dict(metadata) if metadata is not None else None)
        return cast(Json, self._post("/api/v1/runtimes/pause", body, idempotency_key))

    def resume(self, runtime_id: str, *, metadata: Optional[Mapping[str, Any]] = None, idempotency_key: Optional[str] = None) -> RuntimeResult:
        body = _fields(runtime_id=runtime_id, metadata=dict(metadata) if metadata is not None else None)
        return cast(RuntimeResult, self._post("/api/v1/runtimes/resume", body, idempotency_key))

    def close(self, runtime_id: str, *, cascade: Optional[bool] = None, keep_snapshots: Optional[bool] = None, idempotency_key: Optional[str] = None) -> CloseResult:
        body = _fields(runtime_id=runtime_id, cascade=cascade, keep_snapshots=keep_snapshots)
        return cast(CloseResult, self._post("/api/v1/runtimes/close", body, idempotency_key))

    def delete_checkpoint_snapshot(self, checkpoint_id: str, *, idempotency_key: Optional[str] = None) -> Json:
        return cast(Json, self._post("/api/v1/runtimes/checkpoint/delete-snapshot", {"checkpoint_id": checkpoint_id}, idempotency_key))

    def pin_checkpoint(self, checkpoint_id: str, pinned: bool = True, *, idempotency_key: Optional[str] = None) -> Json:
        return cast(Json, self._post("/api/v1/runtimes/checkpoint/pin", {"checkpoint_id": checkpoint_id, "pinned": pinned}, idempotency_key))

    def retention_preview(self, *, runtime_id: Optional[str] = None, limit: Optional[int] = None, cursor: Optional[str] = None) -> Json:
        return cast(Json, self._get("/api/v1/retention/preview", runtime_id=runtime_id, limit=limit, cursor=cursor))

    # Events and webhooks.

    def events(self, *, after: Optional[int] = None, runtime_id: Optional[str] = None, types: Optional[List[str]] = None, limit: Optional[int] = None) -> EventList:
        """A page of the event log (oldest first) after ``after``, and the last id appended so far."""
        return cast(EventList, self._get("/api/v1/events", after=after, runtime_id=runtime_id, types=types, limit=limit))

    def follow_events(
        self,
        *,
        after: Optional[int] = None,
        runtime_id: Optional[str] = None,
        types: Optional[List[str]] = None,
        stop: Optional[threading.Event] = None,
        on_reconnect: Optional[Callable[[BaseException, float], None]] = None,
        read_timeout: Optional[float] = None,
    ) -> Iterator[EventView]:
        """Follows the event log live (SSE), reconnecting with the last id received: nothing missed, nothing twice."""
        filters = _fields(runtime_id=runtime_id, types=",".join(types) if types else None)
        return follow_events(self._http, filters, after, stop=stop, on_reconnect=on_reconnect, read_timeout=read_timeout)

    def webhooks(self) -> Json:
        return cast(Json, self._get("/api/v1/webhooks"))

    def webhook_deliveries(self, webhook_id: str, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> Json:
        return cast(Json, self._get(f"/api/v1/webhooks/{_id(webhook_id)}/deliveries", limit=limit, cursor=cursor))

    # API keys (an admin key's calls).

    def api_keys(self) -> Json:
        """The configured and stored keys: names, scopes and reach, never a token nor its hash."""
        return cast(Json, self._get("/api/v1/keys"))

    def create_api_key(
        self,
        name: str,
        scopes: Sequence[str],
        *,
        expires_at_ms: Optional[int] = None,
        runtimes: Optional[Sequence[str]] = None,
        conversations: Optional[Sequence[str]] = None,
        opened_runtimes: Optional[bool] = None,
    ) -> Json:
        """Creates a stored key; the answer's ``token`` is shown this once. Never retried (the daemon
        keeps no answer that would hold the token): after a lost answer, revoke the name and create
        it again. ``ApiKeyExistsError`` for a name a key already has."""
        body = _fields(
            name=name,
            scopes=list(scopes),
            expires_at_ms=expires_at_ms,
            runtimes=list(runtimes) if runtimes is not None else None,
            conversations=list(conversations) if conversations is not None else None,
            opened_runtimes=opened_runtimes,
        )
        return cast(Json, self._http.json("POST", "/api/v1/keys", body=body, retries=0))

    def revoke_api_key(self, name: str) -> Json:
        """Revokes a stored key: refused from its next request on. ``ApiKeyNotFoundError`` for a name no stored key has."""
        return cast(Json, self._http.json("DELETE", f"/api/v1/keys/{_id(name)}"))


def output(result: ExecResult) -> "tuple[str, str]":
    """An exec's stdout and stderr as text (UTF-8, undecodable bytes replaced)."""
    return (
        base64.b64decode(result["stdout_base64"]).decode("utf-8", "replace"),
        base64.b64decode(result["stderr_base64"]).decode("utf-8", "replace"),
    )
