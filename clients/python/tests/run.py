"""Runs the unittest suite and writes each test's outcome as JSON (for the workspace's vitest
wrapper, test/python-unittest.test.ts): ``python3 tests/run.py OUT.json``. People run
``python3 -m unittest discover -s tests`` instead (with ``src`` on PYTHONPATH)."""

from __future__ import annotations

import json
import sys
import time
import traceback
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent


class JsonResult(unittest.TextTestResult):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.outcomes: list = []
        self._started = 0.0

    def startTest(self, test) -> None:
        self._started = time.monotonic()
        super().startTest(test)

    def _record(self, test, status: str, detail: str = "") -> None:
        name = test.id() if isinstance(test, unittest.TestCase) else str(test)
        self.outcomes.append({"name": name, "status": status, "detail": detail, "ms": round((time.monotonic() - self._started) * 1000)})

    def addSuccess(self, test) -> None:
        super().addSuccess(test)
        self._record(test, "passed")

    def addFailure(self, test, err) -> None:
        super().addFailure(test, err)
        self._record(test, "failed", "".join(traceback.format_exception(*err)))

    def addError(self, test, err) -> None:
        super().addError(test, err)
        self._record(test, "failed", "".join(traceback.format_exception(*err)))

    def addSkip(self, test, reason) -> None:
        super().addSkip(test, reason)
        self._record(test, "skipped", reason)


def main(out: str) -> int:
    suite = unittest.defaultTestLoader.discover(str(HERE), top_level_dir=str(HERE))
    runner = unittest.TextTestRunner(resultclass=JsonResult, verbosity=2, stream=sys.stderr)
    result = runner.run(suite)
    Path(out).write_text(json.dumps(result.outcomes, indent=1))
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
