#!/usr/bin/env bash
# The golden-log check under every supported interpreter besides the one .venv runs: each golden log
# made under 3.11 verifies, and the same seeds give the same bytes (tests/golden). Interpreters are
# found as pythonX.Y on PATH or under pyenv; each gets a light venv (.venv-pyX.Y: detente without
# Ray, which the check does not start). A missing interpreter is reported, and under CI=true it
# fails the run instead of being skipped.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
for version in 3.12 3.13; do
  py=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$version".*/bin/python 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$py" ]; then
    py=$(command -v "python$version" || true)  # a pyenv shim without that version fails the probe below
  fi
  if [ -z "$py" ] || ! "$py" -c "import sys; assert sys.version_info[:2] == tuple(map(int, '$version'.split('.')))" 2>/dev/null; then
    echo "check_interpreters: Python $version not found (PATH or pyenv)"
    [ "${CI:-}" = "true" ] && status=1
    continue
  fi
  venv=".venv-py$version"
  if [ ! -x "$venv/bin/python" ]; then
    "$py" -m venv "$venv" || { echo "check_interpreters: cannot make a venv with $py"; status=1; continue; }
  fi
  "$venv/bin/python" -m pip install --quiet --upgrade pip >/dev/null 2>&1
  # the main job's packages as pyproject.toml names them, Ray left out, and what the check runs on
  deps=$("$venv/bin/python" -c "import tomllib; print('\n'.join(d for d in tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies'] if not d.startswith('ray')))")
  # shellcheck disable=SC2086
  "$venv/bin/python" -m pip install --quiet $deps pytest pytest-timeout >/dev/null 2>&1 &&
    "$venv/bin/python" -m pip install --quiet --no-deps -e . >/dev/null 2>&1 ||
    { echo "check_interpreters: cannot install detente under $py"; status=1; continue; }
  echo "check_interpreters: golden logs under $("$venv/bin/python" --version)"
  RAY_AUTH_MODE=disabled "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/golden tests/test_environment.py || status=1
done
exit $status
