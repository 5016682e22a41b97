"""A real runtimed for the tests: the repository's built daemon (apps/daemon/dist), started on a
free port with the fs provider in a temporary state directory, a bearer token, stopped with SIGTERM."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import List, Optional

REPOSITORY = Path(__file__).resolve().parents[3]
DAEMON = REPOSITORY / "apps" / "daemon" / "dist" / "main.js"
TOKEN = "python-client-test-token-0123456789"
LISTENING = re.compile(r"listening on (http://\S+)")


class Daemon:
    def __init__(self, extra_args: Optional[List[str]] = None) -> None:
        if not DAEMON.exists():
            raise RuntimeError(f"{DAEMON} is missing: build the daemon first (npm test builds it)")
        self.state_dir = tempfile.mkdtemp(prefix="runtimectl-python-")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.state_dir, "RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN": TOKEN}
        args = ["node", str(DAEMON), "--port", "0", "--store", "sqlite", "--state-dir", self.state_dir, "--provider", "fs", "--local-isolation", "none", "--log-level", "warn", *(extra_args or [])]
        self.process = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
        self.output: List[str] = []
        found = threading.Event()
        self.url = ""

        def read() -> None:
            assert self.process.stdout is not None
            for line in self.process.stdout:
                self.output.append(line)
                match = LISTENING.search(line)
                if match and not found.is_set():
                    self.url = match.group(1)
                    found.set()
            found.set()

        self._reader = threading.Thread(target=read, daemon=True)
        self._reader.start()
        if not found.wait(60) or not self.url:
            self.stop()
            raise RuntimeError("runtimed did not start:\n" + "".join(self.output))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self._reader.join(5)
        if self.process.stdout is not None and not self._reader.is_alive():
            self.process.stdout.close()
        shutil.rmtree(self.state_dir, ignore_errors=True)
