"""detente's games as PettingZoo AEC environments (env.py) and a PettingZoo-style policy as a
detente agent (policy.py). Needs the optional extra `detente[pettingzoo]`."""

from ops.bridges.pettingzoo.env import DetenteAEC, env, observation_json

__all__ = ["DetenteAEC", "env", "observation_json"]
