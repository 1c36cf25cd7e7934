"""Where a log was made: the interpreter and the libraries that can change a game's results.

Every header written since format 2's `env` field holds `environment(...)`: {"python": "CPython
3.11.7", "msgpack": "1.1.0", "pydantic": "2.9.2", ...} (the interpreter, the log's codec and the
message models, and each distribution a game's plugin names in `libraries`, e.g. numpy for a game
whose agents use it). It is information, not an input: nothing is rebuilt from it, and a game
played under another interpreter gives the same records (README "Portable logs"). So the same
seed gives the same bytes everywhere but for the header's `env`; `comparable` sets it aside
when two logs made in different environments are compared byte for byte (the golden check).

`verify` names the environments when a record diverges (`divergence_note`): a log made under
another interpreter that no longer replays points at the interpreter first.
"""

from __future__ import annotations

import platform
from functools import lru_cache
from importlib import metadata
from typing import Mapping

import msgpack

from bus.codec import pack  # the writer's own packer: a header re-packed as it would have been written

MAX_ENTRIES = 16  # the interpreter and at most 15 libraries
MAX_TEXT = 64  # a library name or version
CORE_LIBRARIES = ("msgpack", "pydantic")  # the log's bytes (codec) and the messages' canonical forms (models)


@lru_cache(maxsize=None)
def environment(libraries: tuple[str, ...] = ()) -> dict[str, str]:
    """This interpreter and the versions of the core libraries and `libraries` (those installed)."""
    env = {"python": f"{platform.python_implementation()} {platform.python_version()}"}
    for name in sorted(set(CORE_LIBRARIES) | set(libraries)):
        try:
            env[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            env[name] = "absent"
    return env


def describe(env: Mapping[str, str] | None) -> str:
    """One line: "CPython 3.11.7, msgpack 1.1.0, pydantic 2.9.2"."""
    if not env:
        return "an environment the log does not name (written before headers recorded one)"
    parts = [env["python"]] if "python" in env else []
    parts += [f"{name} {version}" for name, version in sorted(env.items()) if name != "python"]
    return ", ".join(parts)


def divergence_note(recorded: Mapping[str, str] | None, here: Mapping[str, str]) -> str:
    """How the recording environment compares with this one, for a divergence's one line."""
    if not recorded:
        return f"recorded in {describe(None)}; replayed under {describe(here)}"
    if dict(recorded) == dict(here):
        return f"recorded and replayed in the same environment ({describe(here)}): not the interpreter"
    changed = sorted(k for k in set(recorded) | set(here) if recorded.get(k) != here.get(k))
    return (f"recorded under {describe(recorded)}; replayed under {describe(here)}: "
            f"the environments differ ({', '.join(changed)})")


def comparable(data: bytes) -> bytes:
    """A plain log's bytes with every header's `env` removed (its frame re-packed, its checksum
    recomputed): two logs of the same games made in different environments are then identical.
    Raises ValueError for a packed game (compare its frames after unpacking) or a bad frame."""
    from bus.log import _HEADER, _PACKED_GAME, MAGIC, _kind, frame, iter_frames  # bus.log imports this module's users

    if not data.startswith(MAGIC):
        raise ValueError("not a detente log")
    frames, bad = iter_frames(data, len(MAGIC))
    if bad is not None:
        raise ValueError(f"torn or damaged frame at byte {bad.offset}: {bad}")
    out = [MAGIC]
    for offset, payload in frames:
        kind = _kind(payload)
        if kind == _PACKED_GAME:
            raise ValueError(f"a packed game at byte {offset}: compare plain logs")
        if kind == _HEADER:
            header = msgpack.unpackb(payload, raw=False)
            if "env" in header:
                payload = pack({k: v for k, v in header.items() if k != "env"})
        out.append(frame(payload))
    return b"".join(out)
