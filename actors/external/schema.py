"""Write the agent protocol's JSON Schema (actors/external/schema.json) from the models:
`python -m actors.external.schema` (a test checks the shipped file is what this writes)."""

from __future__ import annotations

import json
from pathlib import Path

from actors.external.protocol import schema

PATH = Path(__file__).with_name("schema.json")

if __name__ == "__main__":
    PATH.write_text(json.dumps(schema(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {PATH}")
