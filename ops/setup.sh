#!/usr/bin/env bash
# Create .venv (Python >= 3.11) and install detente from pyproject.toml; `--test` adds the test
# extra (pytest and the reference engines). ops/quickstart.sh installs without it, .ci/run with it.
# Safe to rerun (pip skips what is installed).
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
"$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "detente needs Python >= 3.11, found " + sys.version.split()[0])'
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
if [ "${1:-}" = "--test" ]; then
  .venv/bin/python -m pip install --quiet -e '.[test]'
else
  .venv/bin/python -m pip install --quiet -e .
fi
