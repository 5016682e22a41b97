"""HTTP with the daemon's conventions, on the standard library only (urllib): bearer auth, JSON
bodies, one Idempotency-Key per POST reused by its retries, error bodies turned into error
classes, deadlines."""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Callable, Dict, Mapping, Optional, TypedDict, Unpack

from .errors import ClientTimeoutError, DaemonUnreachableError, RuntimectlApiError, api_error

Query = Mapping[str, Any]

#: Connection failures before anything was sent: the daemon never saw the request.
_NOT_SENT = (ConnectionRefusedError, socket.gaierror)
_RETRY_DELAY_S = 0.2


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """The daemon never redirects: a redirect is someone else answering, and must not carry the token on."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class ClientOptions(TypedDict, total=False):
    #: The daemon's bearer token, when it has auth configured.
    token: Optional[str]
    #: Seconds to wait for each answer (default 120: a checkout on a real provider takes seconds).
    timeout: float
    #: Attempts after the first when the daemon could not be reached (default 2).
    retries: int
    #: The Idempotency-Key of each POST, called once per request (its retries reuse it); default a
    #: random UUID. A caller that sends a request again after a failure, as the same request, gives
    #: keys it can reproduce.
    idempotency_keys: Optional[Callable[[], str]]


class Transport:
    def __init__(self, base_url: str, **options: Unpack[ClientOptions]) -> None:
        self.base_url = base_url.rstrip("/")
        self._token = options.get("token")
        self._timeout = options.get("timeout", 120.0)
        self._retries = options.get("retries", 2)
        self._idempotency_keys = options.get("idempotency_keys")
        self._opener = urllib.request.build_opener(_NoRedirect())

    def url(self, path: str, query: Optional[Query] = None) -> str:
        pairs = {key: _query_value(value) for key, value in (query or {}).items() if value is not None}
        return self.base_url + path + (f"?{urllib.parse.urlencode(pairs)}" if pairs else "")

    def headers(self, accept: str = "application/json") -> Dict[str, str]:
        headers = {"accept": accept, "user-agent": "runtimectl-python"}
        if self._token:
            headers["authorization"] = f"Bearer {self._token}"
        return headers

    def json(self, method: str, path: str, query: Optional[Query] = None, body: Optional[Mapping[str, Any]] = None, idempotency_key: Optional[str] = None, retries: Optional[int] = None) -> Any:
        status, headers, raw = self.send(method, path, query=query, body=body, idempotency_key=idempotency_key, retries=retries)
        try:
            return json.loads(raw)
        except ValueError:
            raise RuntimectlApiError("internal", f"unexpected response from {method} {path}: not JSON", status, request_id=headers.get("x-request-id")) from None

    def send(self, method: str, path: str, query: Optional[Query] = None, body: Optional[Mapping[str, Any]] = None, idempotency_key: Optional[str] = None, retries: Optional[int] = None):
        """Sends; returns ``(status, headers, body bytes)`` of a 2xx answer, raises the matching error otherwise.
        ``retries``: how often a broken connection is retried (default the client's)."""
        url = self.url(path, query)
        headers = self.headers()
        data: Optional[bytes] = None
        key: Optional[str] = None
        if method == "POST":
            key = idempotency_key or (self._idempotency_keys() if self._idempotency_keys else str(uuid.uuid4()))
            headers["content-type"] = "application/json"
            headers["idempotency-key"] = key
            data = json.dumps(dict(body or {}), separators=(",", ":")).encode("utf-8")
        may_have_run = False
        attempt = 0
        while True:
            attempt += 1
            request = urllib.request.Request(url, data=data, headers=headers, method=method)
            try:
                with self._opener.open(request, timeout=self._timeout) as response:
                    return response.status, _lower(response.headers), response.read()
            except urllib.error.HTTPError as answer:
                with answer:
                    raise error_of(answer.code, _lower(answer.headers), answer.read()) from None
            except (TimeoutError, socket.timeout):
                raise ClientTimeoutError(url, self._timeout) from None
            except (urllib.error.URLError, ConnectionError, OSError) as failure:
                cause = failure.reason if isinstance(failure, urllib.error.URLError) and isinstance(failure.reason, BaseException) else failure
                if isinstance(cause, (TimeoutError, socket.timeout)):
                    raise ClientTimeoutError(url, self._timeout) from None
                may_have_run = may_have_run or (key is not None and not isinstance(cause, _NOT_SENT))
                if attempt > (self._retries if retries is None else retries):
                    raise DaemonUnreachableError(self.base_url, cause, may_have_run, key) from None
                # Retries carry the same key: a POST the daemon received before its connection broke runs once.
                time.sleep(_RETRY_DELAY_S * attempt)

    def open_stream(self, path: str, query: Optional[Query], last_event_id: Optional[int], timeout: Optional[float]):
        """Opens a Server-Sent Events stream; raises the matching error for a non-2xx answer."""
        headers = self.headers("text/event-stream")
        if last_event_id is not None:
            headers["last-event-id"] = str(last_event_id)
        request = urllib.request.Request(self.url(path, query), headers=headers, method="GET")
        try:
            return self._opener.open(request, timeout=timeout)
        except urllib.error.HTTPError as answer:
            with answer:
                raise error_of(answer.code, _lower(answer.headers), answer.read()) from None
        except (urllib.error.URLError, ConnectionError, OSError) as failure:
            cause = failure.reason if isinstance(failure, urllib.error.URLError) and isinstance(failure.reason, BaseException) else failure
            raise DaemonUnreachableError(self.base_url, cause) from None


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(item) for item in value)
    return str(value)


def _lower(headers: Any) -> Dict[str, str]:
    return {key.lower(): value for key, value in headers.items()}


def error_of(status: int, headers: Mapping[str, str], raw: bytes) -> RuntimectlApiError:
    """The error class for a non-2xx answer's body (``{"error": message, "code": code, "details"?}``)."""
    request_id = headers.get("x-request-id")
    retry_after: Optional[float] = None
    try:
        seconds = float(headers.get("retry-after", ""))
        retry_after = seconds * 1000 if seconds > 0 else None
    except ValueError:
        pass
    try:
        body = json.loads(raw)
        code, message = body["code"], body["error"]
        if not isinstance(code, str) or not isinstance(message, str):
            raise TypeError
    except (ValueError, KeyError, TypeError):
        return RuntimectlApiError("internal", f"HTTP {status} without an error body", status, request_id=request_id, retry_after_ms=retry_after)
    details = body.get("details") if isinstance(body.get("details"), dict) else None
    if retry_after is None and details and isinstance(details.get("retry_after_ms"), (int, float)):
        retry_after = float(details["retry_after_ms"])
    return api_error(code, message, status, details=details, request_id=request_id, retry_after_ms=retry_after)
