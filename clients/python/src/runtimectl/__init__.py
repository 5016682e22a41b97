"""Python client for the runtimectl daemon: checkpoint, check out, pause and resume agent runtimes.

Standard library only. ``Client`` is synchronous; ``AsyncClient`` (``runtimectl.aio``) awaits the
same methods. Errors are ``runtimectl.errors`` classes, one per code the daemon answers.
"""

from ._transport import ClientOptions
from .aio import AsyncClient
from .client import Client, output
from .errors import *  # noqa: F401,F403 — one class per error code
from .errors import ClientTimeoutError, DaemonUnreachableError, RuntimectlApiError, RuntimectlError

__version__ = "0.1.0"
__all__ = ["AsyncClient", "Client", "ClientOptions", "ClientTimeoutError", "DaemonUnreachableError", "RuntimectlApiError", "RuntimectlError", "output"]
