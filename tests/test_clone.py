"""A clone tests clean with nothing beside it (issue 30): the repository's HEAD, cloned into an empty
temporary folder, passes the tests that once read reference data from a folder beside the repository and
the check that nothing reaches outside it; with TABLELOG_HEAVY set, the whole of `CI=true .ci/run` too."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The tests that read a folder beside the repository before their facts were carried under tests/, and the check.
ONCE_OUTSIDE = (
    "tests/domain/memoire44/test_scenario.py",
    "tests/test_rules_reference.py::test_nothing_in_the_repository_reads_or_points_a_reader_outside_it",
)


def _git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """HEAD of this repository, cloned alone into an empty folder (no `shared/` or anything beside it)."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    head = _git("rev-parse", "HEAD")
    target = tmp_path / "tablelog"
    _git("clone", "--quiet", "--no-checkout", str(ROOT), str(target))
    _git("checkout", "--quiet", "--detach", head, cwd=target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tablelog"]
    return target


@pytest.mark.heavy
def test_a_clone_with_nothing_beside_it_passes_the_tests_that_once_read_outside_the_repository(clone: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTEST_XDIST_WORKER")}
    # This virtualenv's interpreter, but the clone's code: the clone's folder comes first on sys.path.
    where = subprocess.run(
        [sys.executable, "-c", "import domain, tests; print(domain.__file__, tests.__file__)"],
        cwd=clone, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert all(Path(path).is_relative_to(clone) for path in where.stdout.split()), where.stdout
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", *ONCE_OUTSIDE],
        cwd=clone, env=env | {"CI": "true"}, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "skipped" not in run.stdout, run.stdout[-1000:]


@pytest.mark.heavy
@pytest.mark.skipif(not os.environ.get("TABLELOG_HEAVY"), reason="the whole suite again: set TABLELOG_HEAVY=1")
@pytest.mark.timeout(3 * 3600)
def test_a_clone_with_nothing_beside_it_passes_the_whole_of_ci(clone: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTEST_XDIST_WORKER")}
    run = subprocess.run(
        ["./.ci/run"], cwd=clone, env=env | {"CI": "true"}, capture_output=True, text=True, timeout=3 * 3600
    )
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-3000:]
