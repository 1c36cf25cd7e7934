"""The viewer's front end: plain JavaScript and CSS in `ops/debugger/static/` (package data), no
build step, nothing fetched from elsewhere. The same script runs served (it asks the JSON API) and
in an exported page (it answers the same questions from the data embedded in the page,
`<script id="detente-data">`). `APP_JS` is view.js (the pure functions, tested by
`node --test tests/debugger/js/`) followed by app.js (the page); the server serves it as
/static/app.js and an exported page inlines it, as it does `APP_CSS`."""

from __future__ import annotations

from importlib.resources import files

_STATIC = files("ops.debugger") / "static"


def _read(name: str) -> str:
    return (_STATIC / name).read_text(encoding="utf-8")


APP_CSS = _read("app.css")
APP_JS = _read("view.js") + "\n" + _read("app.js")
# inlined into a <script> and a <style> element of an exported page: neither may close its element
assert "</script" not in APP_JS.lower() and "</style" not in APP_CSS.lower()
