"""detente's games as PettingZoo environments (env.py: AEC, and parallel for simultaneous games)
and a PettingZoo-style policy as a detente agent (actors/policy.py). Needs the optional extra
`detente[pettingzoo]`."""

from ops.bridges.pettingzoo.env import DetenteAEC, DetenteParallel, env, observation_json, parallel_env

__all__ = ["DetenteAEC", "DetenteParallel", "env", "observation_json", "parallel_env"]
