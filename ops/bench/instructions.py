"""Machine instructions of a Python snippet, counted by valgrind (cachegrind without its cache
simulation): the same count every run, whatever the box's load, so two workloads measured this
way compare where timings on a shared box cannot."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path


_WARMED: set[tuple[str, str, tuple[str, ...]]] = set()


def count(code: str, *args: object, tree: Path) -> int:
    """Instructions of `python -c code args...` run in `tree` (also its PYTHONPATH), hash seed 0."""
    if shutil.which("valgrind") is None:
        raise SystemExit("counting instructions needs valgrind (apt-get install valgrind)")
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    # a first run without valgrind compiles what the code imports (bytecode caches written), so that
    # no count holds the compiling: else the first of two runs compared would, and not the second
    warm = (code, str(tree), tuple(map(str, args)))
    if warm not in _WARMED:
        subprocess.run([sys.executable, "-c", code, *map(str, args)], cwd=tree, env=env, capture_output=True, check=False)
        _WARMED.add(warm)
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, "-c", code, *map(str, args)]
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=False)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode or not found:
        raise SystemExit(f"valgrind run failed in {tree}:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))
