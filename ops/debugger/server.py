"""The local web app: the standard library's threading HTTP server over one source.

Safety: bound to 127.0.0.1 unless told otherwise; every request's Host header must name this
server (a page elsewhere cannot reach it through DNS rebinding); anything that changes state (a
fork) is a POST carrying the per-run token (printed with the URL) in `X-Detente-Token`, with an
Origin, when sent, of this server; files are written only under the output folder; nothing is
served from a path (static files are strings, games are looked up by id). Errors are one line of
JSON (API) or a short page, never a traceback.
"""

from __future__ import annotations

import hmac
import json
import secrets
import socket
import sys
import threading
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from ops.debugger import assets
from ops.debugger.api import Api
from ops.debugger.game import DebugError, finite
from ops.debugger.page import app_page, error_page
from ops.debugger.source import Source

TOKEN_HEADER = "X-Detente-Token"
LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARD = ("0.0.0.0", "::", "")
CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
STATIC = {"/static/app.js": ("application/javascript; charset=utf-8", assets.APP_JS),
          "/static/app.css": ("text/css; charset=utf-8", assets.APP_CSS)}


class DebugServer(ThreadingHTTPServer):
    """One source served at host:port; `token` guards what changes state."""

    daemon_threads = True

    def __init__(self, source: Source, host: str = "127.0.0.1", port: int = 8000, out: Path | None = None,
                 token: str | None = None, quiet: bool = True):
        self.api = Api(source, out)
        self.token = token or secrets.token_urlsafe(18)
        self.quiet = quiet
        if ":" in host:
            self.address_family = socket.AF_INET6
        super().__init__((host, port), _Handler)
        self.host = host
        port = self.server_address[1]
        self.port = port
        self.allowed_hosts = {f"{name}:{port}" for name in host_names(host)}

    @property
    def url(self) -> str:
        shown = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{shown}:{self.port}/"

    def start(self) -> threading.Thread:
        """Serve in a background thread (tests, benchmarks); `shutdown()` stops it."""
        thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05}, name="detente-debugger", daemon=True)
        thread.start()
        return thread


def host_names(host: str) -> set[str]:
    """The names a request's Host header may give this server (DNS rebinding gets none of them):
    the address it listens on; for loopback, every loopback name; for a wildcard address, this
    machine's names too."""
    names = {f"[{host}]" if ":" in host else host}
    if host in LOOPBACK or host in WILDCARD:
        names |= {"127.0.0.1", "localhost", "[::1]"}
    if host in WILDCARD:
        names |= {socket.gethostname(), socket.getfqdn()}
    return names


class _Handler(BaseHTTPRequestHandler):
    server: DebugServer
    protocol_version = "HTTP/1.1"
    server_version = "detente-debugger"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:
        if not self.server.quiet:
            sys.stderr.write(f"{self.address_string()} {format % args}\n")

    # -- checks ------------------------------------------------------------------------------

    def _host_ok(self) -> bool:
        return self.headers.get("Host", "") in self.server.allowed_hosts

    def _origin_ok(self) -> bool:
        origin = self.headers.get("Origin")
        if origin is None:
            return True
        parts = urlsplit(origin)
        return parts.scheme == "http" and parts.netloc in self.server.allowed_hosts

    def _token_ok(self) -> bool:
        given = self.headers.get(TOKEN_HEADER, "")
        return bool(given) and hmac.compare_digest(given.encode(), self.server.token.encode())

    # -- verbs -------------------------------------------------------------------------------

    def do_GET(self) -> None:
        self._serve("GET")

    def do_HEAD(self) -> None:
        self._serve("HEAD")

    def do_POST(self) -> None:
        self._serve("POST")

    def do_PUT(self) -> None:
        self._send_json(405, {"error": "method not allowed"})

    do_DELETE = do_PATCH = do_PUT

    def _serve(self, method: str) -> None:
        if not self._host_ok():
            self._send_text(421, "wrong Host header: this server answers only to " + ", ".join(sorted(self.server.allowed_hosts)))
            return
        parts = urlsplit(self.path)
        path = parts.path
        query = {k: v for k, v in parse_qsl(parts.query, keep_blank_values=True)}
        api = path.startswith("/api/")
        try:
            if method == "POST":
                if not api:
                    raise DebugError("no such route", 404)
                if not self._origin_ok():
                    raise DebugError("cross-origin request refused", 403)
                if not self._token_ok():
                    raise DebugError(f"this request changes state: it needs the server's token in {TOKEN_HEADER}", 403)
                self._send_json(200, self.server.api.post(path, self._body()))
            elif api:
                self._send_json(200, self.server.api.get(path, query), head=method == "HEAD")
            elif path in STATIC:
                kind, body = STATIC[path]
                self._send(200, kind, body.encode(), head=method == "HEAD", cache=True)
            elif path == "/favicon.ico":
                self._send(204, "image/x-icon", b"", head=True, cache=True)
            elif path in ("/", "/index.html"):
                self._send(200, "text/html; charset=utf-8", app_page().encode(), head=method == "HEAD")
            else:
                raise DebugError("no such page", 404)
        except DebugError as exc:
            self._error(exc.status, str(exc), api)
        except Exception as exc:  # noqa: BLE001 - a bug or an input we did not foresee: one line, the trace on stderr
            traceback.print_exc(file=sys.stderr)
            self._error(500, f"internal error ({type(exc).__name__}); see the server's output", api)

    def _body(self) -> bytes:
        length = self.headers.get("Content-Length", "0")
        if not length.isdigit():
            raise DebugError("bad Content-Length", 400)
        if int(length) > 64 * 1024:
            raise DebugError("request body too large", 413)
        return self.rfile.read(int(length))

    # -- answers -----------------------------------------------------------------------------

    def _error(self, status: int, message: str, api: bool) -> None:
        if api:
            self._send_json(status, {"error": message, "status": status})
        else:
            self._send(status, "text/html; charset=utf-8", error_page(status, message).encode())

    def _send_json(self, status: int, data: Any, head: bool = False) -> None:
        try:
            body = json.dumps(data, separators=(",", ":"), allow_nan=False, default=str).encode()
        except ValueError:  # a NaN or an infinity somewhere in a log's numbers: JSON has none
            body = json.dumps(finite(data), separators=(",", ":"), allow_nan=False, default=str).encode()
        self._send(status, "application/json", body, head=head)

    def _send_text(self, status: int, text: str) -> None:
        self._send(status, "text/plain; charset=utf-8", (text + "\n").encode())

    def _send(self, status: int, kind: str, body: bytes, head: bool = False, cache: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=60" if cache else "no-store")
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("X-Frame-Options", "DENY")
        self.end_headers()
        if not head:
            self.wfile.write(body)


def serve(source: Source, host: str, port: int, out: Path | None, on_ready: Any = None) -> None:
    """Serve until interrupted; `on_ready(server)` is called once it listens (prints the URL)."""
    server = DebugServer(source, host=host, port=port, out=out, quiet=False)
    if on_ready is not None:
        on_ready(server)
    try:
        server.serve_forever()
    finally:
        server.server_close()
