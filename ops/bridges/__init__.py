"""Bridges to other game libraries: OpenSpiel's games as detente games, detente's games as
PettingZoo environments and as OpenSpiel games. Each library is an optional extra
(`detente[openspiel]`, `detente[pettingzoo]`), imported only when a bridge is used."""
