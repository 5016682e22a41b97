"""The package as a user gets it: a wheel built from this directory, installed outside the
repository, used against a real daemon."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from daemon import TOKEN, Daemon

HERE = Path(__file__).resolve().parents[1]
TOOLS = importlib.util.find_spec("pip") is not None and importlib.util.find_spec("wheel") is not None

SMOKE = """
import json, pathlib, sys
import runtimectl
from runtimectl import Client
client = Client(sys.argv[1], token=sys.argv[2])
runtime = client.open("packaged", "wheel")["runtime"]["runtime_id"]
client.write_file(runtime, "a.txt", "from the wheel")
made = client.checkpoint(runtime, name="packaged")
package = pathlib.Path(runtimectl.__file__).parent
print(json.dumps({"file": runtimectl.__file__, "typed": (package / "py.typed").exists(),
                  "read": client.read_file("a.txt", checkpoint_id=made["checkpoint_id"]).decode()}))
"""


@unittest.skipUnless(TOOLS, "building a wheel needs pip and wheel (Debian: python3-pip python3-wheel)")
class WheelTest(unittest.TestCase):
    def test_the_wheel_installed_outside_the_repository_works_against_a_daemon(self) -> None:
        with tempfile.TemporaryDirectory(prefix="runtimectl-wheel-") as scratch:
            source = Path(scratch) / "source"
            shutil.copytree(HERE, source, ignore=shutil.ignore_patterns("node_modules", "__pycache__", "test-results.json", "*.egg-info", "build"))
            wheels = Path(scratch) / "wheels"
            pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-cache-dir"]
            subprocess.run([*pip, "wheel", "--quiet", "--no-index", "--no-build-isolation", "--no-deps", "-w", str(wheels), str(source)], check=True, capture_output=True)
            [wheel] = list(wheels.glob("runtimectl-*.whl"))
            site = Path(scratch) / "site"
            subprocess.run([*pip, "install", "--quiet", "--no-index", "--no-deps", "--target", str(site), str(wheel)], check=True, capture_output=True)
            daemon = Daemon()
            try:
                ran = subprocess.run(
                    [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(site)!r}); exec({SMOKE!r})", daemon.url, TOKEN],
                    cwd=scratch,
                    check=True,
                    capture_output=True,
                    text=True,
                )
            finally:
                daemon.stop()
            seen = json.loads(ran.stdout)
            self.assertTrue(seen["file"].startswith(str(site)), seen["file"])
            self.assertTrue(seen["typed"])
            self.assertEqual(seen["read"], "from the wheel")
