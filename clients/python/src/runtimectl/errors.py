"""Errors the daemon answers, one class per stable error code, as in the TypeScript client."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Type


class RuntimectlError(Exception):
    """Base of every error this client raises."""


class RuntimectlApiError(RuntimectlError):
    """An error answered by the daemon: its ``code``, ``details``, HTTP ``status`` and ``request_id``."""

    def __init__(
        self,
        code: str,
        message: str,
        status: int,
        details: Optional[Mapping[str, Any]] = None,
        request_id: Optional[str] = None,
        retry_after_ms: Optional[float] = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.details: Dict[str, Any] = dict(details or {})
        #: The ``x-request-id`` to quote in a bug report.
        self.request_id = request_id
        #: From ``Retry-After`` (or ``details.retry_after_ms``) when the daemon said when to retry.
        self.retry_after_ms = retry_after_ms

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, status={self.status}, message={self.message!r})"


class DaemonUnreachableError(RuntimectlError):
    """No answer from the daemon after the retries. ``may_have_run``: a POST may have been carried
    out (retry it with the same ``idempotency_key`` to make sure it runs once)."""

    def __init__(self, base_url: str, cause: BaseException, may_have_run: bool = False, idempotency_key: Optional[str] = None) -> None:
        super().__init__(f"runtimectl daemon at {base_url} is unreachable: {cause}")
        self.base_url = base_url
        self.may_have_run = may_have_run
        self.idempotency_key = idempotency_key


class ClientTimeoutError(RuntimectlError):
    """The daemon did not answer within the client's ``timeout``."""

    def __init__(self, url: str, timeout_s: float) -> None:
        super().__init__(f"no answer from {url} within {timeout_s:g} s")
        self.url = url
        self.timeout_s = timeout_s


class InvalidRequestError(RuntimectlApiError): ...
class UnauthorizedError(RuntimectlApiError): ...
class ForbiddenError(RuntimectlApiError): ...
class HostNotAllowedError(RuntimectlApiError): ...
class RouteNotFoundError(RuntimectlApiError): ...
class MethodNotAllowedError(RuntimectlApiError): ...
class RuntimeNotFoundError(RuntimectlApiError): ...
class CheckpointNotFoundError(RuntimectlApiError): ...
class WebhookNotFoundError(RuntimectlApiError): ...
class ApiKeyNotFoundError(RuntimectlApiError): ...
class ApiKeyExistsError(RuntimectlApiError): ...
class PathNotFoundError(RuntimectlApiError): ...
class SessionBusyError(RuntimectlApiError): ...
class RuntimePausedError(RuntimectlApiError): ...
class RuntimeNotPausedError(RuntimectlApiError): ...
class RuntimeClosedError(RuntimectlApiError): ...
class RuntimeExpiredError(RuntimectlApiError): ...
class RuntimeFailedError(RuntimectlApiError): ...
class RuntimeExistsError(RuntimectlApiError): ...
class SnapshotInUseError(RuntimectlApiError): ...
class CheckpointSnapshotDeletedError(RuntimectlApiError): ...
class ManifestUnavailableError(RuntimectlApiError): ...
class CheckpointVerificationFailedError(RuntimectlApiError): ...
class IdempotentResponseNotKeptError(RuntimectlApiError): ...
class PayloadTooLargeError(RuntimectlApiError): ...
class IdempotencyKeyReusedError(RuntimectlApiError): ...
class ProviderCapacityError(RuntimectlApiError): ...
class TooManyEventStreamsError(RuntimectlApiError): ...
class WorkspaceQuotaExceededError(RuntimectlApiError): ...
class UnsupportedBackendError(RuntimectlApiError): ...
class ProviderError(RuntimectlApiError): ...
class ProviderTimeoutError(RuntimectlApiError): ...
class LeaseLostError(RuntimectlApiError): ...
class RuntimeOnOtherNodeError(RuntimectlApiError): ...
class NodeUnreachableError(RuntimectlApiError): ...
class StoreUnavailableError(RuntimectlApiError): ...
class InternalServerError(RuntimectlApiError): ...


#: One class per code the daemon answers (the list in @runtimectl/provider's ERROR_CODES; a test
#: compares them). A code this version does not know yet becomes a plain RuntimectlApiError.
ERROR_CLASSES: Dict[str, Type[RuntimectlApiError]] = {
    "invalid_request": InvalidRequestError,
    "unauthorized": UnauthorizedError,
    "forbidden": ForbiddenError,
    "host_not_allowed": HostNotAllowedError,
    "route_not_found": RouteNotFoundError,
    "method_not_allowed": MethodNotAllowedError,
    "runtime_not_found": RuntimeNotFoundError,
    "checkpoint_not_found": CheckpointNotFoundError,
    "webhook_not_found": WebhookNotFoundError,
    "api_key_not_found": ApiKeyNotFoundError,
    "path_not_found": PathNotFoundError,
    "session_busy": SessionBusyError,
    "runtime_paused": RuntimePausedError,
    "runtime_not_paused": RuntimeNotPausedError,
    "runtime_closed": RuntimeClosedError,
    "runtime_expired": RuntimeExpiredError,
    "runtime_failed": RuntimeFailedError,
    "runtime_exists": RuntimeExistsError,
    "api_key_exists": ApiKeyExistsError,
    "snapshot_in_use": SnapshotInUseError,
    "checkpoint_snapshot_deleted": CheckpointSnapshotDeletedError,
    "manifest_unavailable": ManifestUnavailableError,
    "checkpoint_verification_failed": CheckpointVerificationFailedError,
    "idempotent_response_not_kept": IdempotentResponseNotKeptError,
    "payload_too_large": PayloadTooLargeError,
    "idempotency_key_reused": IdempotencyKeyReusedError,
    "provider_capacity": ProviderCapacityError,
    "too_many_event_streams": TooManyEventStreamsError,
    "workspace_quota_exceeded": WorkspaceQuotaExceededError,
    "unsupported_backend": UnsupportedBackendError,
    "provider_error": ProviderError,
    "provider_timeout": ProviderTimeoutError,
    "lease_lost": LeaseLostError,
    "runtime_on_other_node": RuntimeOnOtherNodeError,
    "node_unreachable": NodeUnreachableError,
    "store_unavailable": StoreUnavailableError,
    "internal": InternalServerError,
}


def api_error(code: str, message: str, status: int, **context: Any) -> RuntimectlApiError:
    """The error class for ``code`` (RuntimectlApiError for a code this version does not know);
    ``context``: ``details``, ``request_id``, ``retry_after_ms``."""
    return ERROR_CLASSES.get(code, RuntimectlApiError)(code, message, status, **context)
