"""The daemon's answers, typed (docs/http-api.md). Fields the daemon adds later simply appear in the dicts."""

from __future__ import annotations

from typing import Any, Dict, List, NotRequired, Optional, TypedDict


class RuntimeRecord(TypedDict):
    runtime_id: str
    conversation_id: str
    sender_id: str
    #: ``idle``, ``running``, ``paused``, ``failed`` or ``closed``.
    status: str
    created_at_ms: int
    updated_at_ms: int


class RuntimeResult(TypedDict):
    runtime: RuntimeRecord


class OpenResult(TypedDict):
    runtime: RuntimeRecord
    created: bool


class ExecResult(TypedDict):
    stdout_base64: str
    stderr_base64: str
    exit_code: Optional[int]
    timed_out: bool
    truncated: bool
    duration_ms: float


class CheckpointResult(TypedDict):
    checkpoint_id: str
    runtime: RuntimeRecord
    parent_checkpoint_id: Optional[str]
    created_at_ms: int
    name: Optional[str]
    metadata: Dict[str, Any]
    reused_backend_snapshot: bool
    manifest_root: Optional[str]
    skipped_paths: NotRequired[List[Dict[str, Any]]]
    background_processes: NotRequired[int]


class CheckpointView(TypedDict):
    checkpoint_id: str
    runtime_id: str
    parent_checkpoint_id: Optional[str]
    kind: str
    name: Optional[str]
    metadata: Dict[str, Any]
    created_at_ms: int
    provider: str
    has_provider_snapshot: bool
    manifest_root: Optional[str]
    pinned: bool
    last_used_at_ms: Optional[int]


class CheckpointTreeEntry(TypedDict):
    name: str
    #: ``file``, ``directory`` or ``symlink``.
    kind: str
    mode: int
    size: int
    target: Optional[str]


class CheckpointTree(TypedDict):
    checkpoint_id: str
    path: str
    entries: List[CheckpointTreeEntry]
    next_cursor: Optional[str]


class CheckpointList(TypedDict):
    checkpoints: List[CheckpointView]
    next_cursor: Optional[str]


class CheckoutResult(TypedDict):
    checkpoint_id: str
    source_runtime_id: str
    runtime: RuntimeRecord


class CheckoutChildrenResult(TypedDict):
    checkpoint_id: str
    source_runtime_id: str
    #: ``{"runtime": …}`` or ``{"error": {"code", "message"}}`` per child, in order.
    results: List[Dict[str, Any]]


class DiffResult(TypedDict):
    from_checkpoint_id: str
    to_checkpoint_id: Optional[str]
    to_runtime_id: Optional[str]
    from_manifest_root: str
    to_manifest_root: str
    #: This page of changed paths, sorted by path.
    entries: List[Dict[str, Any]]
    next_cursor: Optional[str]
    #: Counts over the whole diff, every page.
    summary: Dict[str, Any]


class CloseResult(TypedDict):
    runtime: RuntimeRecord
    released_backend: bool
    deleted_snapshot_ids: List[str]
    closed_runtime_ids: List[str]


class EventView(TypedDict):
    event_id: int
    type: str
    at_ms: int
    runtime_id: Optional[str]
    checkpoint_id: Optional[str]
    data: Dict[str, Any]


class EventList(TypedDict):
    events: List[EventView]
    last_event_id: Optional[int]
