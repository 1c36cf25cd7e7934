"""`detente risk train --backend ray`: a batch's training games on Ray actors.

One actor per worker, each playing whole games (actors.risk.train.play_plain on plain data);
a batch's network is put in the object store once, and its results come back in game order,
so the weights are the same as with local processes or none (actors.risk.train: batches).
Only this adapter imports Ray; the training logic stays in actors.risk.train.
"""

from __future__ import annotations

import os
from typing import Any

from actors.risk.network import Net, net_from_json
from actors.risk.params import LearnParams, TDParams
from actors.risk.train import Result, play_plain


class _Trainer:
    """A Ray worker's state: the run's options (the network comes with each batch)."""

    def __init__(self, seed: int, learn: dict[str, Any], params: dict[str, Any]):
        self.seed, self.learn, self.params = seed, learn, params

    def play(self, net: dict[str, Any], g: int) -> tuple[dict[str, Any], dict[str, Any]]:
        return play_plain(net, g, self.seed, self.learn, self.params)


class RayWorkers:
    """`workers` Ray actors (a local Ray bound to 127.0.0.1 unless one is connected or `address` given)."""

    def __init__(self, workers: int, seed: int, learn: LearnParams, params: TDParams, address: str | None = None):
        import ray
        from ray.util import ActorPool

        from actors.ray_placement import ensure_ray

        ensure_ray(address=address, num_cpus=None if address else max(workers, os.cpu_count() or 1))
        actor = ray.remote(num_cpus=1, max_restarts=0)(_Trainer)
        learn_data, params_data = learn.model_dump(mode="json"), params.model_dump(mode="json")
        self.actors = [actor.remote(seed, learn_data, params_data) for _ in range(workers)]
        self.pool = ActorPool(self.actors)
        self.ray = ray

    def play(self, net: Net, games: list[int]) -> list[Result]:
        ref = self.ray.put(net.to_json())
        results = self.pool.map(lambda a, g: a.play.remote(ref, g), games)
        return [(net_from_json(n), info) for n, info in results]

    def close(self) -> None:
        for a in self.actors:
            self.ray.kill(a)
        self.actors = []
