"""`detente risk train --backend ray`: a batch's training games on Ray actors.

One actor per worker, each playing whole games (actors.risk.train.play_plain on plain data, with
each game's log as bytes when logging);
a batch's network is put in the object store once, and its results come back in game order,
so the weights are the same as with local processes or none (actors.risk.train: batches).
Only this adapter imports Ray; the training logic stays in actors.risk.train.
"""

from __future__ import annotations

import os
from typing import Any

from actors.risk.network import Net
from actors.risk.params import LearnParams, TDParams
from actors.risk.train import Plain, Result, from_plain, play_plain


class _Trainer:
    """A Ray worker's state: the run's options (the network comes with each batch)."""

    def __init__(self, seed: int, learn: dict[str, Any], params: dict[str, Any], log: bool):
        self.seed, self.learn, self.params, self.log = seed, learn, params, log

    def play(self, net: dict[str, Any], g: int) -> Plain:
        return play_plain(net, g, self.seed, self.learn, self.params, self.log)


class RayWorkers:
    """`workers` Ray actors (a local Ray bound to 127.0.0.1 unless one is connected or `address` given)."""

    def __init__(self, workers: int, seed: int, learn: LearnParams, params: TDParams, address: str | None = None,
                 log: bool = False):
        import ray
        from ray.util import ActorPool

        from actors.ray_placement import ensure_ray

        ensure_ray(address=address, num_cpus=None if address else max(workers, os.cpu_count() or 1))
        actor = ray.remote(num_cpus=1, max_restarts=0)(_Trainer)
        learn_data, params_data = learn.model_dump(mode="json"), params.model_dump(mode="json")
        self.log = log
        self.actors = [actor.remote(seed, learn_data, params_data, log) for _ in range(workers)]
        self.pool = ActorPool(self.actors)
        self.ray = ray

    def play(self, net: Net, games: list[int]) -> list[Result]:
        ref = self.ray.put(net.to_json())
        results = self.pool.map(lambda a, g: a.play.remote(ref, g), games)
        return [from_plain(r) for r in results]

    def close(self) -> None:
        for a in self.actors:
            self.ray.kill(a)
        self.actors = []
