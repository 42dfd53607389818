"""A scripted OpenAI-compatible chat server for tests: real HTTP on 127.0.0.1, port 0.

Each request to /v1/chat/completions is answered by the next entry of the
script (an Answer, or a function of the request body returning one), then by
`default`. Every request is recorded: path, headers and the raw body, and so is
how many bytes of each answer's body went out before the client stopped reading.
An answer's body can be streamed from a generator (`more`), so a test can offer
gigabytes without holding them. With `upstream` set, requests the script does
not answer are forwarded there (a recording proxy in front of a real model server).
"""
from __future__ import annotations

import itertools
import json
import threading
import time
import urllib.error
import urllib.request
import zlib
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, NamedTuple

JSON = (("Content-Type", "application/json"),)


class Answer(NamedTuple):
    status: int = 200
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = ()
    delay: float = 0.0       # seconds before the answer is sent
    # body chunks sent after `body`: chunked, unless `headers` give a Content-Length
    more: Callable[[], Iterator[bytes]] | None = None


class Request(NamedTuple):
    path: str
    headers: dict[str, str]
    raw: bytes

    @property
    def body(self) -> dict[str, Any]:
        data = json.loads(self.raw)
        assert isinstance(data, dict)
        return data

    @property
    def model(self) -> str:
        return str(self.body.get("model"))

    @property
    def dialect(self) -> str:
        fmt = self.body.get("response_format")
        return "prompt_only" if fmt is None else str(fmt["type"])


Script = Answer | Callable[[dict[str, Any]], Answer]


def completion(content: str, finish: str = "stop", delay: float = 0.0) -> Answer:
    body = {
        "id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": "test",
        "choices": [{"index": 0, "finish_reason": finish,
                     "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
    return Answer(200, json.dumps(body).encode(), JSON, delay)


def padded(content: str, size: int, *, status: int = 200, declared: bool = False,
           gzip: bool = False) -> Answer:
    """A completion of `content` padded with spaces to `size` bytes of body, streamed.

    `declared`: a Content-Length is sent (the true one). `gzip`: the body is sent
    compressed (chunked), `size` being its size once inflated.
    """
    head = json.dumps({"choices": [{"index": 0, "finish_reason": "stop", "message": {
        "role": "assistant", "content": content}}]})
    cut = head.rindex('"}}]}')
    start, end = head[:cut].encode(), head[cut:].encode()
    assert size >= len(start) + len(end)

    def body() -> Iterator[bytes]:
        yield start
        left = size - len(start) - len(end)
        while left > 0:
            yield b" " * min(left, 1 << 20)
            left -= 1 << 20
        yield end

    def compressed() -> Iterator[bytes]:
        deflate = zlib.compressobj(6, zlib.DEFLATED, 31)
        for piece in body():
            yield deflate.compress(piece)
        yield deflate.flush()

    headers = JSON + ((("Content-Encoding", "gzip"),) if gzip else ())
    if declared:
        headers += (("Content-Length", str(size)),)
    return Answer(status, b"", headers, 0.0, compressed if gzip else body)


def error(status: int, message: str, headers: dict[str, str] | None = None) -> Answer:
    body = json.dumps({"error": {"message": message, "type": "test_error"}}).encode()
    return Answer(status, body, JSON + tuple((headers or {}).items()))


class ChatServer:
    def __init__(self, default: Script | None = None, upstream: str | None = None) -> None:
        self.script: list[Script] = []
        self.default: Script = default if default is not None else error(500, "no answer scripted")
        self.upstream = upstream
        self.requests: list[Request] = []
        self.answers: list[Answer] = []  # what was sent back, in order
        self.sent: list[int] = []  # bytes of each answer's body written before the client stopped
        self.received = threading.Event()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,), daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def push(self, *answers: Script) -> None:
        with self._lock:
            self.script.extend(answers)

    def start(self) -> ChatServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def _next(self, body: dict[str, Any]) -> Answer | None:
        with self._lock:
            entry = self.script.pop(0) if self.script else (None if self.upstream else self.default)
        if entry is None:
            return None
        return entry if isinstance(entry, Answer) else entry(body)

    def _forward(self, raw: bytes) -> Answer:
        assert self.upstream is not None
        req = urllib.request.Request(self.upstream + "/chat/completions", data=raw,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=120) as resp:
                return Answer(resp.status, resp.read(), JSON)
        except urllib.error.HTTPError as e:
            return Answer(e.code, e.read(), JSON)
        except OSError as e:
            return Answer(502, str(e).encode())

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with server._lock:
                    server.requests.append(Request(self.path, dict(self.headers), raw))
                server.received.set()
                if self.path != "/v1/chat/completions":
                    return self._send(error(404, f"no route {self.path}"))
                try:
                    body = json.loads(raw)
                except ValueError:
                    return self._send(error(400, "the request body is not JSON"))
                answer = server._next(body)
                self._send(server._forward(raw) if answer is None else answer)

            def _send(self, answer: Answer) -> None:
                with server._lock:
                    server.answers.append(answer)
                end = time.monotonic() + answer.delay
                while time.monotonic() < end and not server._stop.is_set():
                    time.sleep(0.02)
                named = {key.lower() for key, _ in answer.headers}
                chunked = answer.more is not None and "content-length" not in named
                sent = 0
                try:
                    self.send_response(answer.status)
                    for key, value in answer.headers:
                        self.send_header(key, value)
                    if chunked:
                        self.send_header("Transfer-Encoding", "chunked")
                    elif "content-length" not in named:
                        self.send_header("Content-Length", str(len(answer.body)))
                    self.end_headers()
                    for piece in itertools.chain([answer.body], answer.more() if answer.more else ()):
                        if piece:
                            self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
                            sent += len(piece)
                    if chunked:
                        self.wfile.write(b"0\r\n\r\n")
                except OSError:
                    self.close_connection = True  # the client gave up (a timeout, a cancel, a cap)
                finally:
                    with server._lock:
                        server.sent.append(sent)

        return Handler


def dead_url() -> str:
    """A loopback URL where nothing listens: connection refused."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
