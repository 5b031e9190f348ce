"""examples/train_mille_ppo.py: two tiny PPO iterations on the vector environment change
the network, and both evaluations play whole matches."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("numba")

EXAMPLES = str(Path(__file__).resolve().parents[2] / "examples")


def test_two_iterations_train_and_evaluate(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(EXAMPLES)
    ppo = importlib.import_module("train_mille_ppo")
    args = ppo.parse(["--iterations", "2", "--envs", "4", "--steps", "6", "--minibatch", "8", "--hidden", "16"])
    args.eval_every, args.eval_random, args.eval_medium = 2, 2, 1
    torch.manual_seed(0)
    before = [p.detach().clone() for p in ppo.Net(16).parameters()]
    net, history = ppo.train(args, log=False)
    assert len(history) == 1 and history[0]["iteration"] == 2
    assert any(not torch.equal(a, b) for a, b in zip(before, net.parameters(), strict=True))
    w, n, lo, hi = history[0]["random"]
    assert n == 2 and 0 <= w <= 2 and 0.0 <= lo <= hi <= 1.0
    assert history[0]["medium"][1] == 1


def test_clone_then_ppo_against_a_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """--clone records a bot's matches and fits the network to its moves (accuracy on the
    held-out matches reported), then PPO runs with the clone as an opponent and KL anchor."""
    monkeypatch.syspath_prepend(EXAMPLES)
    ppo = importlib.import_module("train_mille_ppo")
    args = ppo.parse(
        ["--clone", "heuristic", "--clone-matches", "20", "--clone-epochs", "2", "--clone-eval", "1",
         "--iterations", "3", "--envs", "4", "--steps", "6", "--minibatch", "8", "--hidden", "16",
         "--pool", "2", "--pool-anchor", "0.5", "--kl", "0.1", "--value-warmup", "1", "--refresh", "1",
         "--reward", "win", "--eval-every", "3", "--eval-random", "2", "--eval-start", "2", "--eval-medium", "0"]
    )  # fmt: skip
    torch.manual_seed(0)
    _net, history = ppo.train(args, log=False)
    clone = history[0]
    assert clone["iteration"] == 0 and 0.0 < clone["accuracy"] <= 1.0
    assert clone["medium"][1] == 1
    assert history[-1]["iteration"] == 3 and history[-1]["random"][1] == 2 and history[-1]["start"][1] == 2


def test_compare_policies_on_the_same_deals(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """examples/compare_mille_policies.py: a saved network and a bot against medium on the
    same deals, with the paired counts and their sign test."""
    monkeypatch.syspath_prepend(EXAMPLES)
    ppo = importlib.import_module("train_mille_ppo")
    compare = importlib.import_module("compare_mille_policies")
    torch.manual_seed(0)
    weights = tmp_path / "net.pt"
    torch.save(ppo.Net(16).state_dict(), weights)
    assert compare.main(["--matches", "2", "--hidden", "16", str(weights), "bot:random"]) == 0
    out = capsys.readouterr().out
    assert f"{weights} vs medium: " in out and "bot:random vs medium: " in out and "sign test p = " in out
    assert compare.sign_test(0, 0) == 1.0 and compare.sign_test(10, 0) == compare.sign_test(0, 10) < 0.01
