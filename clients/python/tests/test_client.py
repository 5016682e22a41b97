"""The Python client against a real daemon (tests/daemon.py): every behaviour named after what it proves."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import threading
import unittest
import uuid

import runtimectl
from runtimectl import Client, output
from runtimectl.aio import AsyncClient
from runtimectl.errors import (
    ApiKeyExistsError,
    ApiKeyNotFoundError,
    ERROR_CLASSES,
    CheckpointNotFoundError,
    DaemonUnreachableError,
    ForbiddenError,
    IdempotencyKeyReusedError,
    InvalidRequestError,
    PathNotFoundError,
    RuntimeNotFoundError,
    RuntimePausedError,
    UnauthorizedError,
)

from daemon import REPOSITORY, TOKEN, Daemon

daemon: Daemon


def setUpModule() -> None:
    global daemon
    daemon = Daemon()


def tearDownModule() -> None:
    daemon.stop()


def fresh_runtime(client: Client) -> str:
    return client.open(f"conv-{uuid.uuid4().hex[:8]}", "python-test")["runtime"]["runtime_id"]


class ClientTest(unittest.TestCase):
    def setUp(self) -> None:
        self.client = Client(daemon.url, token=TOKEN)

    def test_files_written_are_read_back_byte_exact_and_seen_by_commands(self) -> None:
        runtime = fresh_runtime(self.client)
        payload = bytes(range(256))
        self.client.write_file(runtime, "data/bytes.bin", payload)
        self.assertEqual(self.client.read_file("data/bytes.bin", runtime_id=runtime), payload)
        result = self.client.exec(runtime, "wc -c < data/bytes.bin; echo oops >&2; exit 3")
        self.assertEqual(result["exit_code"], 3)
        self.assertEqual(output(result), ("256\n", "oops\n"))
        self.assertEqual(self.client.stat(runtime, "data/bytes.bin")["size_bytes"], 256)
        self.assertEqual(self.client.search(runtime, glob="**/*.bin")["paths"], ["data/bytes.bin"])

    def test_a_checkout_restores_the_checkpoint_and_diff_names_what_changed_since(self) -> None:
        runtime = fresh_runtime(self.client)
        self.client.write_file(runtime, "app.py", "print('v1')\n")
        first = self.client.checkpoint(runtime, name="v1", metadata={"step": 1})
        self.client.write_file(runtime, "app.py", "print('v2')\n")
        self.client.write_file(runtime, "new.txt", "new\n")
        changes = self.client.diff(first["checkpoint_id"], to_runtime_id=runtime)
        self.assertEqual(sorted(entry["path"] for entry in changes["entries"]), ["app.py", "new.txt"])
        branch = self.client.checkout(first["checkpoint_id"])["runtime"]["runtime_id"]
        self.assertEqual(self.client.read_file("app.py", runtime_id=branch), b"print('v1')\n")
        with self.assertRaises(PathNotFoundError):
            self.client.read_file("new.txt", runtime_id=branch)
        self.assertEqual(self.client.read_file("app.py", checkpoint_id=first["checkpoint_id"]), b"print('v1')\n")
        view = self.client.get_checkpoint(first["checkpoint_id"])
        self.assertEqual((view["name"], view["metadata"], view["runtime_id"]), ("v1", {"step": 1}, runtime))
        self.assertEqual([c["checkpoint_id"] for c in self.client.list_checkpoints(runtime)["checkpoints"]], [first["checkpoint_id"]])
        tree = self.client.checkpoint_tree(first["checkpoint_id"])
        self.assertEqual([(entry["name"], entry["kind"], entry["size"]) for entry in tree["entries"]], [("app.py", "file", 12)])

    def test_a_fork_gives_as_many_independent_branches_as_asked(self) -> None:
        runtime = fresh_runtime(self.client)
        self.client.write_file(runtime, "n.txt", "0")
        forked = self.client.fork(runtime, count=3, name="try")
        branches = [result["runtime"]["runtime_id"] for result in forked["results"]]
        self.assertEqual(len(set(branches)), 3)
        for index, branch in enumerate(branches):
            self.client.write_file(branch, "n.txt", str(index + 1))
        self.assertEqual([self.client.read_file("n.txt", runtime_id=b) for b in branches], [b"1", b"2", b"3"])
        self.assertEqual(self.client.read_file("n.txt", runtime_id=runtime), b"0")

    def test_pause_frees_the_runtime_and_resume_brings_its_files_back_under_the_same_id(self) -> None:
        runtime = fresh_runtime(self.client)
        self.client.write_file(runtime, "kept.txt", "kept")
        paused = self.client.pause(runtime)
        self.assertEqual(paused["runtime"]["status"], "paused")
        with self.assertRaises(RuntimePausedError) as refused:
            self.client.exec(runtime, "true")
        self.assertEqual((refused.exception.code, refused.exception.status), ("runtime_paused", 409))
        self.assertEqual(self.client.resume(runtime)["runtime"]["status"], "idle")
        self.assertEqual(self.client.read_file("kept.txt", runtime_id=runtime), b"kept")
        closed = self.client.close(runtime)
        self.assertEqual(closed["runtime"]["status"], "closed")

    def test_daemon_errors_are_the_class_of_their_code_with_status_details_and_request_id(self) -> None:
        with self.assertRaises(RuntimeNotFoundError) as missing:
            self.client.get("rt_" + "0" * 32)
        self.assertEqual((missing.exception.code, missing.exception.status), ("runtime_not_found", 404))
        self.assertTrue(missing.exception.request_id)
        with self.assertRaises(CheckpointNotFoundError):
            self.client.get_checkpoint("rtcp_" + "0" * 32)
        with self.assertRaises(InvalidRequestError) as invalid:
            self.client.exec(fresh_runtime(self.client), "true", timeout_ms=-5)
        self.assertEqual(invalid.exception.status, 400)
        with self.assertRaises(UnauthorizedError):
            Client(daemon.url, token="not-the-token-at-all").list()

    def test_a_request_sent_again_with_its_idempotency_key_is_carried_out_once(self) -> None:
        runtime = fresh_runtime(self.client)
        key = str(uuid.uuid4())
        once = self.client.checkpoint(runtime, name="once", idempotency_key=key)
        again = self.client.checkpoint(runtime, name="once", idempotency_key=key)
        self.assertEqual(again["checkpoint_id"], once["checkpoint_id"])
        self.assertEqual(len(self.client.list_checkpoints(runtime)["checkpoints"]), 1)
        with self.assertRaises(IdempotencyKeyReusedError):
            self.client.checkpoint(runtime, name="another body", idempotency_key=key)

    def test_a_daemon_that_is_not_there_is_unreachable_and_nothing_may_have_run(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        client = Client(f"http://127.0.0.1:{port}", token=TOKEN, retries=1)
        with self.assertRaises(DaemonUnreachableError) as unreachable:
            client.checkpoint("rt_" + "0" * 32, idempotency_key="key-1")
        self.assertFalse(unreachable.exception.may_have_run)
        self.assertEqual(unreachable.exception.idempotency_key, "key-1")

    def test_following_events_delivers_the_log_after_an_id_then_new_events_live(self) -> None:
        runtime = fresh_runtime(self.client)
        after = self.client.events(limit=1)["last_event_id"]
        stop = threading.Event()
        seen = []

        def follow() -> None:
            for event in self.client.follow_events(after=after, runtime_id=runtime, stop=stop):
                seen.append(event)
                if event["type"] == "checkpoint.created":
                    stop.set()

        follower = threading.Thread(target=follow, daemon=True)
        follower.start()
        made = self.client.checkpoint(runtime, name="live")
        follower.join(30)
        self.assertFalse(follower.is_alive(), "no checkpoint.created event within 30 s")
        self.assertEqual(seen[-1]["checkpoint_id"], made["checkpoint_id"])
        self.assertTrue(all(event["runtime_id"] == runtime for event in seen))
        ids = [event["event_id"] for event in seen]
        self.assertEqual(ids, sorted(set(ids)))

    def test_an_admin_key_makes_a_read_only_key_shown_once_that_reads_is_refused_writes_and_is_refused_once_revoked(self) -> None:
        name = f"reader-{uuid.uuid4().hex[:8]}"
        created = self.client.create_api_key(name, ["read"])
        token = created["token"]
        self.assertTrue(token.startswith("rtk_"))
        listed = [key for key in self.client.api_keys()["keys"] if key["name"] == name]
        self.assertEqual([key["scopes"] for key in listed], [["read"]])
        self.assertNotIn(token, json.dumps(self.client.api_keys()))
        reader = Client(daemon.url, token=token)
        runtime_id = fresh_runtime(self.client)
        self.assertEqual(reader.get(runtime_id)["runtime"]["runtime_id"], runtime_id)
        with self.assertRaises(ForbiddenError) as refused:
            reader.exec(runtime_id, "true")
        self.assertEqual(refused.exception.details["scope"], "exec")
        with self.assertRaises(ApiKeyExistsError):
            self.client.create_api_key(name, ["read"])
        self.client.revoke_api_key(name)
        with self.assertRaises(UnauthorizedError):
            reader.get(runtime_id)
        with self.assertRaises(ApiKeyNotFoundError):
            self.client.revoke_api_key(name)

    def test_the_async_client_awaits_the_same_calls_and_follows_events(self) -> None:
        async def scenario() -> None:
            client = AsyncClient(daemon.url, token=TOKEN)
            runtime = (await client.open("conv-async", "python-test"))["runtime"]["runtime_id"]
            after = (await client.events(limit=1))["last_event_id"]
            await client.write_file(runtime, "a.txt", "async")
            made = await client.checkpoint(runtime)
            self.assertEqual(await client.read_file("a.txt", checkpoint_id=made["checkpoint_id"]), b"async")
            async for event in client.follow_events(after=after, runtime_id=runtime):
                if event["type"] == "checkpoint.created":
                    self.assertEqual(event["checkpoint_id"], made["checkpoint_id"])
                    break
            with self.assertRaises(RuntimeNotFoundError):
                await client.get("rt_" + "1" * 32)

        asyncio.run(asyncio.wait_for(scenario(), 60))


class AsyncClientShapeTest(unittest.TestCase):
    def test_every_client_method_has_an_awaitable_twin_with_the_same_signature(self) -> None:
        import inspect

        from runtimectl.client import Client

        public = [name for name, member in inspect.getmembers(Client, inspect.isfunction) if not name.startswith("_")]
        self.assertIn("checkpoint", public)
        for name in public:
            twin = getattr(AsyncClient, name, None)
            self.assertIsNotNone(twin, f"AsyncClient.{name} is missing")
            if name == "follow_events":
                continue
            self.assertTrue(inspect.iscoroutinefunction(twin), f"AsyncClient.{name} is not a coroutine function")
            self.assertEqual(inspect.signature(twin), inspect.signature(getattr(Client, name)), f"AsyncClient.{name} differs from Client.{name}")


class ErrorClassesTest(unittest.TestCase):
    def test_every_code_the_daemon_answers_has_its_class(self) -> None:
        source = (REPOSITORY / "packages" / "provider" / "src" / "errors" / "error-codes.ts").read_text()
        listed = source[source.index("ERROR_CODES = [") : source.index("] as const")]
        codes = set(re.findall(r"'([a-z_]+)'", listed))
        self.assertTrue(codes)
        self.assertEqual(set(ERROR_CLASSES), codes)

    def test_a_code_this_version_does_not_know_is_still_an_api_error_with_its_code(self) -> None:
        from runtimectl._transport import error_of

        error = error_of(418, {"x-request-id": "r1"}, b'{"error":"short and stout","code":"teapot"}')
        self.assertIs(type(error), runtimectl.RuntimectlApiError)
        self.assertEqual((error.code, error.status, error.request_id), ("teapot", 418, "r1"))

    def test_an_answer_without_an_error_body_is_internal_naming_the_status(self) -> None:
        from runtimectl._transport import error_of

        error = error_of(502, {}, b"<html>bad gateway</html>")
        self.assertEqual((error.code, error.status), ("internal", 502))


if __name__ == "__main__":
    unittest.main()
