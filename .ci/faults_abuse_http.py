"""`.ci/faults abuse`, the HTTP side: requests the HTTP parser must refuse, path traversal,
unknown routes and methods, slowloris; and how an answer is judged (`expect`). Requests that are
not well-formed HTTP go out as raw bytes (`raw`); the rest through http.client."""

import http.client
import json
import os
import socket
import threading
import time

from faultlib import HOST, call, closed_by_peer, report


def raw(port, data, timeout=10):
    """Sends `data` as it is on a new connection (a request that says Connection: close) while
    http.client reads the answer, so an early one (a 413) is not lost: (status, lower-cased headers,
    body), or (None, {}, b"") when the server closed without an answer it could parse."""
    sock = socket.create_connection((HOST, port), timeout=timeout)
    answer, done = [None, {}, b""], threading.Event()

    def read():
        try:
            response = http.client.HTTPResponse(sock)
            response.begin()
            answer[:2] = response.status, {k.lower(): v for k, v in response.getheaders()}
            answer[2] = response.read()
        except (OSError, http.client.HTTPException):
            pass
        done.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        for start in range(0, len(data), 65536):
            if done.is_set():
                break
            sock.sendall(data[start:start + 65536])
    except OSError:
        pass
    done.wait(timeout)
    sock.close()
    return tuple(answer)


def is_problem(headers, body, status):
    if headers.get("content-type", "").split(";")[0] != "application/problem+json":
        return False
    try:
        document = json.loads(body)
    except ValueError:
        return False
    return document.get("status") == status and str(document.get("type", "")).startswith("urn:shelfmark:problem:")


def expect(name, answer, statuses, problem=True, max_body=None):
    status, headers, body = answer
    ok = status in statuses and (not problem or is_problem(headers, body, status))
    if max_body and len(body) > max_body:
        ok = False
    detail = f"{status} {headers.get('content-type', '')} {body[:160]!r}" + (
        f" ({len(body)} bytes)" if len(body) > 160 else "")
    return report(ok, name, detail)


def parser_refusals(port):
    """The HTTP parser refuses these before any handler: a bare 4xx is all it can say."""
    for name, request in [
        ("a 100,000-character URL", b"GET /api/v1/search?q=" + b"x" * 100_000 + b" HTTP/1.1\r\nHost: x\r\n"
         b"Connection: close\r\n\r\n"),
        ("a 100 KB header", b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"h" * 100_000
         + b"\r\nConnection: close\r\n\r\n"),
        ("2,000 headers", b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n"
         + b"".join(b"X-H%d: v\r\n" % i for i in range(2_000)) + b"Connection: close\r\n\r\n"),
        ("a request line of garbage", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(64) + b"\r\n\r\n"),
        ("a negative Content-Length", b"POST /api/v1/books HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n"
         b"Connection: close\r\n\r\n"),
        ("both Content-Length and chunked", b"POST /api/v1/books HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n"
         b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n"),
    ]:
        expect(f"{name} is refused by the HTTP parser with a 4xx", raw(port, request), {400, 413, 414, 431},
               problem=False)


def traversal(port, token, member):
    for name, path in [
        ("..%2F..%2Fetc%2Fpasswd as a book id", "/api/v1/books/..%2F..%2Fetc%2Fpasswd"),
        ("../../etc/passwd as a book id", "/api/v1/books/../../etc/passwd"),
        ("%2e%2e/%2e%2e as a book id", "/api/v1/books/%2e%2e%2f%2e%2e%2fetc%2fpasswd"),
        ("traversal after openapi.yaml", "/openapi.yaml/..%2F..%2F..%2Fetc%2Fpasswd"),
        ("traversal at the root", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd"),
        ("traversal in a loan id", "/api/v1/loans/..%2F..%2Fetc%2Fpasswd/return"),
        ("traversal in a bookmark key", "/api/v1/me/bookmarks/..%2F..%2Fetc%2Fpasswd"),
        ("traversal in a bookmarked book id", "/api/v1/me/bookmarks/books/..%2F..%2Fetc%2Fpasswd"),
        ("traversal in a notification id", "/api/v1/me/notifications/..%2F..%2Fetc%2Fpasswd/read"),
        ("traversal in a user id", "/api/v1/users/..%2F..%2Fetc%2Fpasswd/role"),
    ]:
        method = "GET"
        if "/return" in path or "/read" in path or "/role" in path:
            method = "POST"
        if "bookmarks" in path:
            method = "PUT"
        bearer = member if "bookmarks" in path or "notifications" in path else token
        answer = call(port, method, path, b'{"role":"member"}', token=bearer,
                      headers={"Content-Type": "application/json"})
        leaked = b"root:" in answer[2]
        expect(f"{name} is a 4xx problem", answer, {400, 404, 405})
        report(not leaked, f"{name}: no file content leaks")


def unknown_routes(port, post_book):
    for name, answer, statuses in [
        ("an unknown route", call(port, "GET", "/api/v1/nope"), {404}),
        ("an unsupported method", call(port, "PUT", "/api/v1/books"), {404, 405}),
        ("a text/plain body", post_book(b"title=x", content_type="text/plain"), {400, 415}),
        ("an empty body", post_book(b""), {400}),
        ("JSON null", post_book(b"null"), {400}),
        ("a JSON array", post_book(b"[1,2,3]"), {400}),
    ]:
        expect(f"{name} is a 4xx problem", answer, statuses)


def slow_requests(port, token):
    """Slowloris: a head sent a byte at a time, a body trickled a byte at a time, a body that stops.
    The server runs with a 2 s idle timeout and a 3 s body timeout."""
    head = (f"POST /api/v1/books HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
            "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n").encode()
    cases = {
        "a request head sent a byte every 0.5 s": (b"", b"X", 2),
        "a body trickled a byte every 0.5 s": (head, b" ", 3),
        "a body that stops half-way": (head + b'{"title":', b"", 2),
    }
    results = {}

    def run(name, first, drip):
        sock = socket.create_connection((HOST, port), timeout=10)
        started = time.monotonic()
        try:
            sock.sendall(first or b"GET /api/v1/health HTTP/1.1\r\n")
            while time.monotonic() - started < 15:
                if drip:
                    sock.sendall(drip)
                if closed_by_peer(sock):
                    break
                time.sleep(0.5)
        except OSError:
            pass
        results[name] = time.monotonic() - started
        sock.close()

    threads = [threading.Thread(target=run, args=(name, first, drip)) for name, (first, drip, _) in cases.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for name, (_, _, limit) in cases.items():
        report(results[name] < limit + 1.5, f"{name} is cut off after {limit} s", f"closed after {results[name]:.1f}s")
