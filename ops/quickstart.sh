#!/usr/bin/env bash
# The main job, small: install, start a local Ray, run a 200-game Werewolves tournament from
# ops/examples/ (runner actors, rolling log segments, results store), print its report, and
# replay-verify 20 of its games loaded through the index. Rerunning it finds the tournament complete.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ops/setup.sh
export RAY_AUTH_MODE="${RAY_AUTH_MODE:-disabled}"  # a local, single-user Ray: no token file
.venv/bin/detente tournament run ops/examples/werewolves.toml --out out/werewolves --games "${GAMES:-200}"
.venv/bin/detente tournament report out/werewolves
.venv/bin/detente replay verify out/werewolves --sample 20
echo "next: .venv/bin/detente replay show out/werewolves --game g00000000 --at 40"
