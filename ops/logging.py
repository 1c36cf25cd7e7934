"""structlog configuration for operational logs (never a substitute for the event log).

Events carry bound context: game_id, seq, actor. Output goes to stderr; the level comes from
`DETENTE_LOG_LEVEL` (default WARNING) so that normal runs print only what matters.
"""

from __future__ import annotations

import logging
import os
import sys

import structlog


def _stderr_logger(*args: object) -> structlog.PrintLogger:
    return structlog.PrintLogger(sys.stderr)


def configure(level: str | None = None, json: bool = False) -> None:
    name = (level or os.environ.get("DETENTE_LOG_LEVEL") or "WARNING").upper()
    numeric = getattr(logging, name, logging.WARNING)
    renderer = structlog.processors.JSONRenderer() if json else structlog.dev.ConsoleRenderer(colors=False)
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=_stderr_logger,  # the current sys.stderr, even when it is replaced
        cache_logger_on_first_use=False,
    )
