"""Every way reading a log can fail, as one family of typed errors (subclasses of `LogError`).

Each carries where it happened: `offset` (the byte offset of the frame, in the file; a packed
game's records all carry the offset of its one frame) and, for records, `seq`. The CLI prints any
of them as one line. A reader that stops early *returns* the first one as `LogFile.bad` (the valid
prefix stays readable); the checks on a whole game (`GameLog.check`), the index read and the fold
*raise* them.
"""

from __future__ import annotations


class LogError(Exception):
    """A log that cannot be read, or not this far: missing, foreign, damaged or hostile."""

    def __init__(self, reason: str, offset: int | None = None, seq: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.offset = offset
        self.seq = seq

    def at(self, offset: int | None = None, seq: int | None = None) -> "LogError":
        """This error, with the offset and seq filled in where it did not know them yet."""
        if self.offset is None:
            self.offset = offset
        if self.seq is None:
            self.seq = seq
        return self

    def __str__(self) -> str:
        if self.seq is not None and self.offset is None:
            return f"seq {self.seq}: {self.reason}"
        return self.reason

    def __reduce__(self):  # picklable whatever a subclass's __init__ takes (errors may cross processes)
        return _restore, (type(self), self.reason, self.offset, self.seq)


def _restore(cls: type[LogError], reason: str, offset: int | None, seq: int | None) -> LogError:
    error = cls.__new__(cls)
    LogError.__init__(error, reason, offset, seq)
    return error


class NotALog(LogError):
    """The file does not start with the detente magic line."""


class BadFrame(LogError):
    """The first frame that cannot be used, and why: reading stops there."""

    def __init__(self, offset: int | None, reason: str, seq: int | None = None):
        super().__init__(reason, offset, seq)

    def __str__(self) -> str:
        if self.offset is None:
            return f"seq {self.seq}: {self.reason}" if self.seq is not None else self.reason
        where = f"byte offset {self.offset}" + (f" (seq {self.seq})" if self.seq is not None else "")
        return f"bad frame at {where}: {self.reason}"


class TornFrame(BadFrame):
    """The data ends inside a frame (a torn tail)."""


class ChecksumMismatch(BadFrame):
    """A frame's payload does not match its crc32."""


class OverLimit(BadFrame):
    """A frame, a packed game or a game's decoded size goes past a reader's limit (bus.log LIMITS)."""


class BadPayload(BadFrame):
    """A checksummed payload that is not one canonical msgpack map of plain data."""


class NotCanonical(BadPayload):
    """A payload that decodes but does not re-encode to the same bytes (an encoding our writer never makes)."""


class BadPacking(BadPayload):
    """A packed frame with an unknown method, a damaged or trailing compressed stream, or bad frames inside."""


class UnsupportedFormat(BadFrame):
    """A header of a log format this reader does not know."""


class BadHeader(BadFrame):
    """A header that fails the typed header schema or its game's options (bus.header)."""


class BadRecord(BadFrame):
    """A record that is not a valid message record of its game."""


class BadDelta(BadRecord):
    """A record's stored delta that cannot be undone against what came before (frames moved or forged)."""


class OutOfOrder(BadRecord):
    """A seq not above the previous one, or a cause not before its effect."""


class WrongGame(BadFrame):
    """Another game than the one expected: a record of another game, a packed frame holding more
    than one game, or an index entry landing on a different game."""


class RejectedByRules(BadRecord):
    """A well-formed record that the game's rules refuse to apply (found while folding)."""
