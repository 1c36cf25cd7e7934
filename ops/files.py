"""Files written whole or not at all: a temporary file in the target's folder, renamed into place
only once writing finished, removed after a failure (so an interrupted command leaves the old
file as it was). The CLI's own `_output` adds devices, pipes and the disk-full fault hook."""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator


@contextmanager
def replacing(target: str | Path, mode: str = "wb") -> Iterator[IO]:
    """An open temporary file that replaces `target` when the block ends without an error."""
    target = Path(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as f:
            yield f
        os.chmod(tmp, 0o644)  # as files written by open() (mkstemp makes them 0600)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_text(target: str | Path, text: str) -> None:
    """Replace `target` with `text` (UTF-8), whole or not at all."""
    with replacing(target, "w") as f:
        f.write(text)
