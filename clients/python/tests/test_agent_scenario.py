"""A scripted agent (no model) working the undo-and-branch loop through the Python client: write
code, checkpoint, run a failing test, diff, roll back by checkout, fork three ways to try
alternatives, keep the branch whose test passes and close the others."""

from __future__ import annotations

import unittest

from runtimectl import Client, output

from daemon import TOKEN, Daemon

# No __pycache__ in the workspace: the diffs below would show it.
NO_BYTECODE = {"PYTHONDONTWRITEBYTECODE": "1"}
TEST = "python3 -c 'import calc; assert calc.add(2, 3) == 5, calc.add(2, 3)' && echo PASS"
ATTEMPTS = {
    "subtract": "def add(a, b):\n    return a - b\n",
    "plus": "def add(a, b):\n    return a + b\n",
    "concat": "def add(a, b):\n    return int(str(a) + str(b))\n",
}


class AgentScenarioTest(unittest.TestCase):
    def setUp(self) -> None:
        self.daemon = Daemon()
        self.addCleanup(self.daemon.stop)
        self.client = Client(self.daemon.url, token=TOKEN)

    def test_an_agent_rolls_back_a_bad_change_and_keeps_the_one_branch_of_three_whose_test_passes(self) -> None:
        client = self.client
        runtime = client.open("agent-scenario", "scripted-agent")["runtime"]["runtime_id"]
        client.write_file(runtime, "calc.py", "def add(a, b):\n    raise NotImplementedError\n")
        start = client.checkpoint(runtime, name="skeleton")["checkpoint_id"]

        # A bad edit: the test fails, the diff shows what the edit touched, a checkout undoes it.
        client.write_file(runtime, "calc.py", ATTEMPTS["subtract"])
        client.write_file(runtime, "notes.txt", "tried subtraction\n")
        failed = client.exec(runtime, TEST, env=NO_BYTECODE)
        self.assertNotEqual(failed["exit_code"], 0)
        self.assertIn("AssertionError", output(failed)[1])
        touched = sorted(entry["path"] for entry in client.diff(start, to_runtime_id=runtime)["entries"])
        self.assertEqual(touched, ["calc.py", "notes.txt"])
        undone = client.checkout(start, metadata={"why": "undo"})["runtime"]["runtime_id"]
        self.assertEqual(client.diff(start, to_runtime_id=undone)["entries"], [])
        client.close(runtime)

        # Three alternatives from the same point, each tested on its own branch.
        branches = [result["runtime"]["runtime_id"] for result in client.fork(undone, count=3, name="alternatives")["results"]]
        verdicts = {}
        for branch, (label, code) in zip(branches, ATTEMPTS.items()):
            client.write_file(branch, "calc.py", code)
            verdicts[branch] = (label, output(client.exec(branch, TEST, env=NO_BYTECODE))[0] == "PASS\n")
        winners = [branch for branch, (_, passed) in verdicts.items() if passed]
        self.assertEqual([verdicts[branch][0] for branch in winners], ["plus"])
        for branch in branches:
            if branch not in winners:
                client.close(branch)

        kept = winners[0]
        self.assertEqual(client.read_file("calc.py", runtime_id=kept).decode(), ATTEMPTS["plus"])
        done = client.checkpoint(kept, name="add works")
        self.assertEqual(client.get(kept)["head_checkpoint_id"], done["checkpoint_id"])
        self.assertEqual([client.get(branch)["runtime"]["status"] for branch in branches if branch != kept], ["closed", "closed"])
