"""One renderer for detente's self-contained HTML pages (transcripts, tournament reports, and the
debugger's pages to come): inline CSS and SVG, no scripts, no external files."""

from __future__ import annotations

import html
from typing import Iterable

STYLE = ("body{font-family:sans-serif;margin:2em;max-width:1100px}pre{font-size:12px;line-height:1.35}"
         "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}"
         "h2{margin-top:1.6em}.note{color:#555;font-size:90%}")


def page(title: str, sections: Iterable[tuple[str, str]], intro: str = "") -> str:
    """A whole page: a title, an optional intro paragraph (HTML), then (heading, body HTML) sections."""
    body = "".join(f"<h2>{html.escape(heading)}</h2>{content}" for heading, content in sections)
    lead = f"<p>{intro}</p>" if intro else ""
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"<style>{STYLE}</style>\n</head><body>\n<h1>{html.escape(title)}</h1>{lead}\n{body}\n</body></html>\n")


def pre(text: str) -> str:
    """Preformatted text, escaped."""
    return f"<pre>{html.escape(text)}</pre>"
