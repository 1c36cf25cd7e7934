#!/usr/bin/env bash
# The main job, small: install detente (without the test-only packages), start a local Ray, and run
# the AlphaWolf village against AlphaWolf werewolves with its offices switched on one by one (four
# tournaments of GAMES games each, default 100: ops/examples/quickstart.py). Prints the village's win rate
# per configuration, writes the HTML report and game pages, replays a sample of the logs.
# Rerunning it finds the tournaments complete and only reports.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ops/setup.sh
export RAY_AUTH_MODE="${RAY_AUTH_MODE:-disabled}"  # a local, single-user Ray: no token file
.venv/bin/python -m ops.examples.quickstart --games "${GAMES:-100}" --out "${OUT:-out/quickstart}"
