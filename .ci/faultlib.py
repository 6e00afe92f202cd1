"""Shared helpers for Shelfmark's out-of-process attack tests (Python 3 standard library only).

A server is `shelfmark serve --port 0` on 127.0.0.1 with its own temporary database; clients may
come from any address of 127.0.0.0/8 (`source`), which the server sees as distinct clients.
Nothing leaves the machine: Open Library points at a closed loopback port.
"""

import hashlib
import http.client
import json
import os
import re
import selectors
import signal
import socket
import sqlite3
import subprocess
import threading
import time

HOST = "127.0.0.1"
LIBRARIAN = ("lib@example.org", "Librarian-Pass1")
MEMBER_PASSWORD = "Member-Pass1"
MIB = 1024 * 1024

ENV = dict(os.environ, SHELFMARK_BCRYPT_COST="4", SHELFMARK_OPENLIBRARY_URL="http://127.0.0.1:9",
           SHELFMARK_COVERS_URL="http://127.0.0.1:9")
for _name in [n for n in ENV if n.startswith("SHELFMARK_") and n not in
              ("SHELFMARK_BCRYPT_COST", "SHELFMARK_OPENLIBRARY_URL", "SHELFMARK_COVERS_URL")]:
    del ENV[_name]

results = {"passed": [], "failed": []}


def report(ok, name, detail=""):
    detail = " | ".join(line for line in detail.splitlines() if line.strip())  # one line per check
    print(f"{'PASS' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)
    results["passed" if ok else "failed"].append(name)
    return ok


def note(text):
    print(f"     {text}", flush=True)


def use_home(work):
    """The CLI keeps a saved login under XDG_CONFIG_HOME: never the caller's."""
    ENV["XDG_CONFIG_HOME"] = os.path.join(work, "config")
    ENV["XDG_DATA_HOME"] = os.path.join(work, "data")


def client_address(index):
    """A distinct loopback client address per index: 127.0.1.1, 127.0.1.2, ..."""
    return f"127.0.{1 + index // 250}.{1 + index % 250}"


# --- the server and the CLI ------------------------------------------------------------------------


class Server:
    """One `shelfmark serve --port 0 --db DB` process, its stderr log and its port."""

    started = 0

    def __init__(self, binary, db, env=None):
        Server.started += 1
        self.binary, self.db, self.log_path = binary, db, f"{db}.serve-{Server.started}.log"
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen([binary, "serve", "--port", "0", "--db", db], env=dict(ENV, **(env or {})),
                                        stdout=subprocess.DEVNULL, stderr=self.log)
        self.port = self._wait_for_port()

    def _wait_for_port(self):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            match = re.search(r"serving http://127\.0\.0\.1:(\d+)", self.text())
            if match:
                return int(match.group(1))
            if self.process.poll() is not None:
                raise RuntimeError(f"serve exited with {self.process.returncode}: {self.text()[-2000:]}")
            time.sleep(0.02)
        raise RuntimeError(f"serve did not start: {self.text()[-2000:]}")

    def text(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def rss(self):
        """VmRSS in bytes (0 once the process is gone)."""
        try:
            with open(f"/proc/{self.process.pid}/status") as status:
                return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1)) * 1024
        except (OSError, AttributeError):
            return 0

    def stop(self, timeout=30):
        """SIGTERM and wait; returns the exit status (None if it had to be killed)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None
        finally:
            self.log.close()


def cli(binary, db, *args, stdin=None, timeout=300):
    return subprocess.run([binary, "--db", db, *args], input=stdin, env=ENV, capture_output=True, text=True,
                          timeout=timeout)


def seed_librarian(binary, db):
    os.makedirs(os.path.dirname(db), exist_ok=True)
    done = cli(binary, db, "user", "add", "--email", LIBRARIAN[0], "--role", "librarian", "--country", "FR",
               stdin=LIBRARIAN[1] + "\n")
    if done.returncode != 0:
        raise RuntimeError(f"user add failed: {done.stderr}")


def crashed(code, output):
    """A signal, a Swift runtime trap or a stack trace rather than an orderly exit."""
    return code is None or code < 0 or code >= 128 or bool(
        re.search(r"Fatal error|Stack dump|Backtrace|Illegal instruction|Segmentation fault|stack trace", output))


# --- HTTP ----------------------------------------------------------------------------------------


def connect(port, source=None, timeout=30):
    return http.client.HTTPConnection(HOST, port, timeout=timeout, source_address=(source, 0) if source else None)


def call(port, method, path, body=None, token=None, headers=None, timeout=30, source=None, conn=None):
    """One request; returns (status, lower-cased headers, body bytes). `body` may be bytes or JSON."""
    own = conn is None
    conn = conn or connect(port, source, timeout)
    all_headers = dict(headers or {})
    if body is not None and not isinstance(body, (bytes, str)):
        body = json.dumps(body, ensure_ascii=False).encode()
        all_headers.setdefault("Content-Type", "application/json")
    if token:
        all_headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, path, body=body, headers=all_headers)
        response = conn.getresponse()
        data = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data
    finally:
        if own:
            conn.close()


def log_in(port, email, password, source=None):
    status, _, data = call(port, "POST", "/api/v1/sessions", {"email": email, "password": password}, source=source)
    if status not in (200, 201):
        raise RuntimeError(f"login of {email}: {status} {data[:300]!r}")
    return json.loads(data)["token"]


def sign_up(port, email, password=MEMBER_PASSWORD, source=None):
    return call(port, "POST", "/api/v1/users", {"email": email, "password": password, "country": "FR"}, source=source)


# --- many stalled uploads ------------------------------------------------------------------------


class Flood:
    """`count` connections, each sending `head` and then `body_bytes` bytes of a longer body, then
    stalling with the connection open. One thread, non-blocking sockets: the answers (status and
    Retry-After) and the moment the server closes each connection are recorded."""

    def __init__(self, port, count, head, body_bytes):
        self.selector = selectors.DefaultSelector()
        self.body = memoryview(b"a" * body_bytes)
        self.conns, self.refused, self.started, self.sent_at = [], 0, time.monotonic(), None
        for _ in range(count):
            try:
                sock = socket.create_connection((HOST, port), timeout=10)
            except OSError:
                self.refused += 1
                continue
            sock.setblocking(False)
            state = {"sock": sock, "pending": memoryview(head), "body": True, "answer": b"", "closed": None}
            self.conns.append(state)
            self.selector.register(sock, selectors.EVENT_READ | selectors.EVENT_WRITE, state)

    def run(self, seconds, until_sent=False, sample=None):
        """Services the sockets for `seconds` or until every body is sent; calls `sample` every 0.1 s."""
        deadline, next_sample = time.monotonic() + seconds, 0
        while time.monotonic() < deadline:
            if until_sent and all(c["closed"] or (not c["pending"] and not c["body"]) for c in self.conns):
                break
            if sample and time.monotonic() >= next_sample:
                sample()
                next_sample = time.monotonic() + 0.1
            if not self.selector.get_map():
                time.sleep(0.05)
                continue
            for key, events in self.selector.select(timeout=0.1):
                state = key.data
                if events & selectors.EVENT_READ:
                    self._read(state)
                if state["closed"] is None and events & selectors.EVENT_WRITE:
                    self._write(state)
        if until_sent and self.sent_at is None:
            self.sent_at = time.monotonic()

    def _read(self, state):
        try:
            data = state["sock"].recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if data:
            state["answer"] += data[:4096 - len(state["answer"])]
        else:
            self._closed(state)

    def _write(self, state):
        if not state["pending"] and state["body"]:
            state["pending"], state["body"] = self.body, False
        if not state["pending"]:  # everything sent: stall, listen only
            self.selector.modify(state["sock"], selectors.EVENT_READ, state)
            return
        try:
            sent = state["sock"].send(state["pending"][:262144])
            state["pending"] = state["pending"][sent:]
        except BlockingIOError:
            pass
        except OSError:
            self._closed(state)

    def _closed(self, state):
        state["closed"] = time.monotonic()
        self.selector.unregister(state["sock"])

    def statuses(self):
        """{status: count} of the answers ('none': no answer), and how many 503s lack a Retry-After."""
        counts, bare = {}, 0
        for c in self.conns:
            match = re.match(rb"HTTP/1\.[01] (\d{3})", c["answer"])
            key = int(match.group(1)) if match else "none"
            counts[key] = counts.get(key, 0) + 1
            bare += key == 503 and not re.search(rb"(?im)^retry-after:", c["answer"])
        return counts, bare

    def open_count(self):
        return sum(1 for c in self.conns if c["closed"] is None)

    def close(self):
        for c in self.conns:
            if c["closed"] is None:
                self.selector.unregister(c["sock"])
            c["sock"].close()
        self.selector.close()


# --- write load ----------------------------------------------------------------------------------


class Load:
    """`writers` threads: members borrow and return a shelf's books, the others add books as the
    librarian. A write whose success answer arrived is acknowledged. Each writer stops after
    `max_requests` or when `stop` is set."""

    def __init__(self, port, token, members, shelf, tag, writers=48, max_requests=2000):
        self.port, self.token, self.shelf, self.tag, self.max_requests = port, token, shelf, tag, max_requests
        self.stop, self.lock = threading.Event(), threading.Lock()
        self.books, self.loans, self.statuses, self.errors = {}, {}, {}, 0
        self.threads = [threading.Thread(target=self._writer, args=(i, None), daemon=True)
                        for i in range(writers - len(members))]
        self.threads += [threading.Thread(target=self._writer, args=(i, m), daemon=True) for i, m in enumerate(members)]

    def start(self):
        for thread in self.threads:
            thread.start()
        return self

    def finish(self, timeout=60):
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout)

    def _post(self, conn, path, body, token):
        status, _, data = call(self.port, "POST", path, body, token, conn=conn)
        with self.lock:
            self.statuses[status] = self.statuses.get(status, 0) + 1
        return status, data

    def _writer(self, index, member):
        conn = None
        for n in range(self.max_requests):
            if self.stop.is_set():
                break
            try:
                conn = conn or connect(self.port, client_address(index) if member else None)
                if member is None:
                    title = f"{self.tag} w{index} n{n}"
                    status, data = self._post(conn, "/api/v1/books", {"title": title, "authors": ["Load"]}, self.token)
                    if status == 201:
                        with self.lock:
                            self.books[json.loads(data)["id"]] = title
                    continue
                status, data = self._post(conn, "/api/v1/loans", {"bookIds": [self.shelf[n % len(self.shelf)]]}, member)
                if status == 201:
                    loan = json.loads(data)["loans"][0]["id"]
                    with self.lock:
                        self.loans[loan] = member
                    self._post(conn, f"/api/v1/loans/{loan}/return", None, member)
            except (OSError, http.client.HTTPException):
                with self.lock:
                    self.errors += 1
                conn = conn.close() if conn else None
                time.sleep(0.01)


def prepare_load(port, token, tag, members=8):
    """A shelf of 4 books with many copies and `members` signed-up members, each from its own
    client address (so a per-client limit on signups is not what is tested here)."""
    shelf = []
    for i in range(4):
        status, _, data = call(port, "POST", "/api/v1/books",
                               {"title": f"{tag} shelf {i}", "authors": ["Load"], "copies": 10_000}, token)
        if status != 201:
            raise RuntimeError(f"shelf book: {status} {data[:300]!r}")
        shelf.append(json.loads(data)["id"])
    tokens = []
    for i in range(members):
        status, _, data = sign_up(port, f"{tag.lower()}-m{i}@example.org", source=client_address(i))
        if status != 201:
            raise RuntimeError(f"signup: {status} {data[:300]!r}")
        tokens.append(json.loads(data)["token"])
    return shelf, tokens


# --- tampering with a stopped server's file ------------------------------------------------------

GENESIS = "0" * 64
FIELDS = ["position", "stream_id", "stream_version", "event_type", "payload", "event_id", "recorded_at", "actor",
          "correlation_id", "causation_id"]


def unkeyed_hash(previous, row):
    """The documented formula (HashChain.swift): SHA-256 of the previous hash, a line feed, and every
    field as text followed by a line feed (a missing causation id is empty)."""
    canonical = "".join(f"{'' if row[f] is None else row[f]}\n" for f in FIELDS)
    return hashlib.sha256((previous + "\n" + canonical).encode()).hexdigest()


def rechain(con, start):
    """Recomputes the hash of every event from `start` on with the unkeyed formula."""
    con.row_factory = sqlite3.Row
    previous = con.execute("SELECT hash FROM events WHERE position = ?", (start - 1,)).fetchone()
    previous = previous["hash"] if previous else GENESIS
    for row in con.execute("SELECT * FROM events WHERE position >= ? ORDER BY position", (start,)).fetchall():
        previous = unkeyed_hash(previous, row)
        con.execute("UPDATE events SET hash = ? WHERE position = ?", (previous, row["position"]))


def unkeyed_matches(db):
    """How many stored hashes the unkeyed formula reproduces from the previous stored hash, of how many."""
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    previous, same, rows = GENESIS, 0, con.execute("SELECT * FROM events ORDER BY position").fetchall()
    for row in rows:
        same += unkeyed_hash(previous, row) == row["hash"]
        previous = row["hash"]
    con.close()
    return same, len(rows)


class Unguarded:
    """`with Unguarded(db) as con:` the events table's triggers are dropped for the block and put
    back as they were, then the change is committed."""

    def __init__(self, db):
        self.con = sqlite3.connect(db)

    def __enter__(self):
        self.triggers = self.con.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'").fetchall()
        for name, _ in self.triggers:
            self.con.execute(f'DROP TRIGGER "{name}"')
        return self.con

    def __exit__(self, *exc):
        for _, sql in self.triggers:
            self.con.execute(sql)
        self.con.commit()
        self.con.close()

