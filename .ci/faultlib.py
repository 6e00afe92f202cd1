"""Shared helpers for Shelfmark's out-of-process fault and attack tests (`.ci/faults`, `.ci/attacks`;
Python 3 standard library only).

A server is `shelfmark serve --port 0` on 127.0.0.1 with its own temporary database; clients may
come from any address of 127.0.0.0/8 (`source`), which the server sees as distinct clients.
Nothing leaves the machine: Open Library points at a closed loopback port.
"""

import argparse
import http.client
import itertools
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = "127.0.0.1"
LIBRARIAN = ("lib@example.org", "Librarian-Pass1")
MEMBER_PASSWORD = "Member-Pass1"
MIB = 1024 * 1024
# the moments of `.ci/faults`' signals; SHELFMARK_FAULTS_SEED=N repeats a run's
SEED = int(os.environ.get("SHELFMARK_FAULTS_SEED") or random.randrange(1 << 30))

ENV = dict(os.environ, SHELFMARK_BCRYPT_COST="4", SHELFMARK_OPENLIBRARY_URL="http://127.0.0.1:9",
           SHELFMARK_COVERS_URL="http://127.0.0.1:9")
# The load these scripts make comes from one address: the request rates (tested in Swift) stay out of the way.
RATES = {name: "1000000" for name in ("SHELFMARK_SEARCH_RATE", "SHELFMARK_WRITE_RATE", "SHELFMARK_ADDRESS_SEARCH_RATE",
                                      "SHELFMARK_ADDRESS_WRITE_RATE")}
for _name in [n for n in ENV if n.startswith("SHELFMARK_") and n not in
              ("SHELFMARK_BCRYPT_COST", "SHELFMARK_OPENLIBRARY_URL", "SHELFMARK_COVERS_URL")]:
    del ENV[_name]
ENV.update(RATES)

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


# --- the runner ----------------------------------------------------------------------------------


def arguments(doc, only):
    """The options every runner takes: --only PARTS (default `only`), --binary PATH, --keep."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--only", default=only)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "debug", "shelfmark"))
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    return parser


def run(args, tests, prefix):
    """Runs `tests[part](binary, work)` for each part of --only in a new temporary folder, then prints
    the failed checks and 'N passed, M failed in Ts'; exits 1 when anything failed."""
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"no executable at {args.binary}: run `swift build` (or `swift test`) first")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(soft, 4_096), hard), hard))
    work = tempfile.mkdtemp(prefix=prefix)
    use_home(work)
    started = time.monotonic()
    for part in args.only.split(","):
        part_started = time.monotonic()
        try:
            tests[part](args.binary, work)
        except Exception as error:  # a harness failure is a failure, with its reason
            traceback.print_exc()
            report(False, f"{part} could not run", repr(error))
        note(f"{part} took {time.monotonic() - part_started:.1f}s")
    if args.keep or results["failed"]:
        print(f"logs and databases kept in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    for name in results["failed"]:
        print(f"failed: {name}")
    print(f"{len(results['passed'])} passed, {len(results['failed'])} failed in {time.monotonic() - started:.0f}s")
    sys.exit(1 if results["failed"] else 0)


# --- the server and the CLI ------------------------------------------------------------------------


class Server:
    """One `shelfmark serve --port 0 --db DB` process, its stderr log and its port. `nofile` is a
    (soft, hard) limit on open files (None in either keeps the inherited one); with `database_url`,
    the library is on that PostgreSQL database instead (DB names its log)."""

    started = 0

    def __init__(self, binary, db, env=None, nofile=None, database_url=None):
        Server.started += 1
        self.binary, self.db, self.log_path = binary, db, f"{db}.serve-{Server.started}.log"
        self.log = open(self.log_path, "wb")
        store = ["--database-url", database_url] if database_url else ["--db", db]
        self.process = subprocess.Popen([binary, "serve", "--port", "0", *store], env=dict(ENV, **(env or {})),
                                        stdout=subprocess.DEVNULL, stderr=self.log,
                                        preexec_fn=(lambda: _limit_open_files(*nofile)) if nofile else None)
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

    def _status(self, field):
        with open(f"/proc/{self.process.pid}/status") as status:
            return int(re.search(rf"{field}:\s+(\d+)", status.read()).group(1))

    def rss(self):
        """VmRSS in bytes (0 once the process is gone)."""
        try:
            return self._status("VmRSS") * 1024
        except (OSError, AttributeError):
            return 0

    def memory(self):
        """VmRSS and VmHWM in KiB, and the number of open file descriptors."""
        fds = len(os.listdir(f"/proc/{self.process.pid}/fd"))
        return self._status("VmRSS"), self._status("VmHWM"), fds

    def signal(self, sig):
        self.process.send_signal(sig)

    def wait(self, timeout=30):
        """Waits for the exit status (None if it had to be killed after `timeout` seconds)."""
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None
        finally:
            self.log.close()

    def stop(self, timeout=30):
        """SIGTERM and wait; returns the exit status (None if it had to be killed)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.wait(timeout)


def _limit_open_files(soft, hard):
    """In the child before exec: RLIMIT_NOFILE set to (soft, hard), None keeping the inherited one."""
    old_soft, old_hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    hard = min(hard or old_hard, old_hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft or old_soft, hard), hard))


def cli(binary, db, *args, stdin=None, timeout=300):
    return subprocess.run([binary, "--db", db, *args], input=stdin, env=ENV, capture_output=True, text=True,
                          timeout=timeout)


def seed_librarian(binary, db):
    os.makedirs(os.path.dirname(db), exist_ok=True)
    done = cli(binary, db, "user", "add", "--email", LIBRARIAN[0], "--role", "librarian", "--country", "FR",
               stdin=LIBRARIAN[1] + "\n")
    if done.returncode != 0:
        raise RuntimeError(f"user add failed: {done.stderr}")


def audit_verify(binary, db, *extra):
    """`audit verify`'s exit status, everything it says, and how long it took."""
    started = time.monotonic()
    done = cli(binary, db, "audit", "verify", *extra)
    return done.returncode, (done.stdout + done.stderr).strip(), time.monotonic() - started


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


def member(port, email, source=None):
    """Signs a member up and returns the new session's token."""
    status, _, data = sign_up(port, email, source=source)
    if status != 201:
        raise RuntimeError(f"signup of {email}: {status} {data[:300]!r}")
    return json.loads(data)["token"]


def add_book(port, token, title, copies=1, author="Fault Tester"):
    status, _, data = call(port, "POST", "/api/v1/books", {"title": title, "authors": [author], "copies": copies}, token)
    if status != 201:
        raise RuntimeError(f"adding {title}: {status} {data[:300]!r}")
    return json.loads(data)["id"]


def closed_by_peer(sock):
    """True when the peer has closed the connection (after an answer such as a 408, or none)."""
    sock.setblocking(False)
    try:
        while True:
            if not sock.recv(65536):
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


# --- write load ----------------------------------------------------------------------------------


class Load:
    """`writers` threads: members borrow and return a shelf's books, the others add books as the
    librarian. A write whose success answer arrived is acknowledged; an addition sent without an
    answer is in doubt. Each writer stops after `max_requests` (None: no limit) or when `stop` is set."""

    def __init__(self, port, token, members, shelf, tag, writers=48, max_requests=2000):
        self.port, self.token, self.shelf, self.tag, self.max_requests = port, token, shelf, tag, max_requests
        self.stop, self.lock = threading.Event(), threading.Lock()
        self.books, self.loans, self.returned, self.in_doubt = {}, {}, set(), []  # acknowledged; titles in doubt
        self.statuses, self.unexpected, self.answered_at = {}, [], []  # unexpected: (status, body) of a 3xx-5xx
        self.errors = self.refused = self.in_flight = 0  # refused: connections refused, nothing sent
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

    def acknowledged(self):
        with self.lock:
            return len(self.books) + len(self.loans) + len(self.returned)

    def _post(self, conn, path, body, token):
        with self.lock:
            self.in_flight += 1
        try:
            status, _, data = call(self.port, "POST", path, body, token, conn=conn)
        finally:
            with self.lock:
                self.in_flight -= 1
        with self.lock:
            self.answered_at.append(time.monotonic())
            self.statuses[status] = self.statuses.get(status, 0) + 1
            if status >= 300:
                self.unexpected.append((status, data[:300]))
        return status, data

    def _writer(self, index, member):
        conn = None
        for n in itertools.count() if self.max_requests is None else range(self.max_requests):
            if self.stop.is_set():
                break
            title = None
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
                    if self._post(conn, f"/api/v1/loans/{loan}/return", None, member)[0] == 200:
                        with self.lock:
                            self.returned.add(loan)
            except (OSError, http.client.HTTPException) as error:
                with self.lock:
                    self.errors += 1
                    if isinstance(error, ConnectionRefusedError):
                        self.refused += 1
                    elif title:
                        self.in_doubt.append(title)
                conn = conn.close() if conn else None
                if not self.stop.is_set():
                    time.sleep(0.005)


def prepare_load(port, token, tag, members=8):
    """A shelf of 4 books with many copies and `members` signed-up members, each from its own
    client address (so a per-client limit on signups is not what is tested here)."""
    shelf = [add_book(port, token, f"{tag} shelf {i}", copies=10_000, author="Load") for i in range(4)]
    return shelf, [member(port, f"{tag.lower()}-m{i}@example.org", client_address(i)) for i in range(members)]


def check_acknowledged(port, token, load):
    """Every acknowledged book is there with its title; every acknowledged loan and return too.
    Returns (missing books, lost loans, unreturned loans, unanswered additions committed all the same)."""
    ids, missing, lock = list(load.books.items()), [], threading.Lock()

    def worker(part):
        conn = connect(port)
        for book, title in part:
            status, _, data = call(port, "GET", f"/api/v1/books/{book}", conn=conn)
            if status != 200 or json.loads(data)["title"] != title:
                with lock:
                    missing.append((book, status))
        conn.close()

    threads = [threading.Thread(target=worker, args=(ids[i::8],)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    lost_loans, unreturned = [], []
    for owner in set(load.loans.values()):
        status, _, data = call(port, "GET", "/api/v1/me/loans", token=owner)
        if status != 200:
            lost_loans.append(("me/loans", status))
            continue
        present = {item["id"]: item for item in json.loads(data)["items"]}
        for loan in (loan for loan, borrower in load.loans.items() if borrower == owner):
            if loan not in present:
                lost_loans.append(loan)
            elif loan in load.returned and not present[loan].get("returnedAt"):
                unreturned.append(loan)
    # the run's books less the acknowledged ones and the shelf of 4
    status, _, data = call(port, "GET", f"/api/v1/books?q={load.tag}&limit=1", token=token)
    in_doubt_present = json.loads(data)["total"] - len(load.books) - len(load.shelf) if status == 200 else "?"
    return missing, lost_loans, unreturned, in_doubt_present
