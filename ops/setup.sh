#!/usr/bin/env bash
# Create .venv (Python >= 3.11) and install detente with its test extra, from pyproject.toml.
# Used by ops/quickstart.sh and .ci/run; safe to rerun (pip skips what is installed).
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
"$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "detente needs Python >= 3.11, found " + sys.version.split()[0])'
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'
