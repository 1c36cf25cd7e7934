#!/usr/bin/env bash
# The main job, small: install, start a local Ray, play a batch of Werewolves games with every
# player as a Ray actor, write one replayable log, and verify every game in it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ops/setup.sh
export RAY_AUTH_MODE="${RAY_AUTH_MODE:-disabled}"  # a local, single-user Ray: no token file
mkdir -p out
.venv/bin/detente play werewolves --seed 1 --games "${GAMES:-8}" --agents random --runtime ray-players --log out/werewolves.log
.venv/bin/detente replay verify out/werewolves.log
echo "next: .venv/bin/detente replay show out/werewolves.log --game werewolves-1 --at 40"
