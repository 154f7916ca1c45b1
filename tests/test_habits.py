"""The habits that keep the project true, checked like its code: every browser test is marked
(so ``-m "not browser"`` starts no Chromium), every test has a time limit, the fast tier leaves
out the browser and the services, and commits run the same lint as CI."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_not_browser_leaves_out_every_test_of_the_browser_folder() -> None:
    # The folder's conftest marks its tests, so that no file can forget the marker.
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist"]
    run = subprocess.run(
        [*command, "--collect-only", "-m", "not browser", "tests/server/browser"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        capture_output=True,
        text=True,
        # Collection alone, but on a machine this loaded it once took over 300 s: the bound
        # stays under the per-test limit of 600 s.
        timeout=550,
    )
    summary = run.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"no tests collected \(\d+ deselected\) in .*", summary), run.stdout


def test_every_test_has_a_time_limit(pytestconfig: pytest.Config) -> None:
    # pytest-timeout's limit for every test: a test stuck on a socket fails instead of hanging.
    assert float(pytestconfig.getini("timeout")) >= 60


def test_make_quick_runs_without_browser_services_and_slow_tests_and_the_readme_names_it() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^quick:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert recipe is not None, "no quick target"
    assert '-m "not browser and not services and not slow"' in recipe.group(1)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    development = readme.split("## Development", 1)[1].split("\n## ", 1)[0]
    assert "`make quick`" in development


def test_pre_commit_runs_make_lint() -> None:
    config = (ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    assert re.search(r"^\s+entry: make lint$", config, re.MULTILINE), config
