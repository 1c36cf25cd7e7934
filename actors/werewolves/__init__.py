"""AlphaWolf and the other Werewolves agents (registered from `agents.py`).

The registry imports `actors.werewolves.agents` when it loads, and `agents.py` needs the
registry's `AgentDef`; importing the registry here first makes either import order work.
"""

import actors.registry  # noqa: F401  (see above)
