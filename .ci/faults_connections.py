"""`.ci/faults idle`: 1,000 idle (and half-sent) connections held open while other requests are
timed, the server's memory and descriptors before and after, the idle timeout closing them; then
the same 1,000 under a hard limit of 1,024 open files. Raw sockets: idle connections are the point."""

import http.client
import os
import re
import resource
import socket
import threading
import time

from faultlib import HOST, LIBRARIAN, Server, call, closed_by_peer, connect, log_in, note, report, seed_librarian

IDLE_TIMEOUT = 8  # seconds, for the server holding 1,000 idle connections


def idle_test(binary, work):
    print("== idle: 1,000 idle and half-sent connections", flush=True)
    db = os.path.join(work, "idle", "library.sqlite")
    seed_librarian(binary, db)
    # A common default soft limit: the server may raise it up to the hard one.
    server = Server(binary, db, nofile=(1024, None), env={"SHELFMARK_IDLE_TIMEOUT": str(IDLE_TIMEOUT)})
    token = log_in(server.port, *LIBRARIAN)
    idle_connections(server, token, server.memory())
    log = server.text()
    alive = server.process.poll() is None
    report(alive, "the server survived 1,000 idle connections", "" if alive else log[-1500:])
    report(server.stop() == 0, "the server stops cleanly on SIGTERM after the idle connections")
    fd_exhaustion(binary, db, work)


def fd_exhaustion(binary, db, work):
    """With a hard limit of 1,024 open files, 1,000 idle connections leave no room: the server must
    neither run out of descriptors (libdispatch traps on EMFILE) nor stop serving for good."""
    server = Server(binary, db, nofile=(1024, 1024), env={"SHELFMARK_IDLE_TIMEOUT": "5"})
    token = log_in(server.port, *LIBRARIAN)
    sockets = [socket.create_connection((HOST, server.port), timeout=10) for _ in range(1_000)]
    peak, answers, lock = 0, {}, threading.Lock()

    def client(index):
        started = time.monotonic()
        try:
            method, body = ("POST", {"title": f"Crowded {index}", "authors": ["x"]}) if index % 2 else ("GET", None)
            status = call(server.port, method, "/api/v1/books" if body else "/api/v1/health", body, token=token,
                          timeout=30)[0]
        except OSError as error:
            status = type(error).__name__
        with lock:
            answers.setdefault(status, []).append(time.monotonic() - started)

    clients = [threading.Thread(target=client, args=(i,)) for i in range(32)]
    for thread in clients:
        thread.start()
    while any(thread.is_alive() for thread in clients) and server.process.poll() is None:
        peak = max(peak, server.memory()[2])
        time.sleep(0.1)
    for thread in clients:
        thread.join()
    alive = server.process.poll() is None
    waits = sorted(t for times in answers.values() for t in times)
    report(alive and set(answers) <= {200, 201} and 768 <= peak <= 1024,
           "with a hard limit of 1,024 open files and 1,000 idle connections, 32 more requests are served",
           f"answers { {k: len(v) for k, v in answers.items()} }, waited {waits[0]:.1f}-{waits[-1]:.1f}s "
           f"(until idle connections timed out); at most {peak} descriptors open"
           + ("" if alive else f"; THE SERVER DIED: {server.text()[-600:]}"))
    if alive:
        started = time.monotonic()
        status = server.stop()
        report(status == 0 and "database closed" in server.text(),
               "SIGTERM with 1,000 connections open stops the server cleanly",
               f"exit {status} after {time.monotonic() - started:.1f}s")
    for sock in sockets:
        sock.close()


def idle_connections(server, token, before):
    port = server.port
    idle_timeout = IDLE_TIMEOUT
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1_200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(4_096, hard), hard))
    limits = open(f"/proc/{server.process.pid}/limits").read()
    server_nofile = re.search(r"Max open files\s+(\d+)", limits).group(1)
    rss0, hwm0, fds0 = server.memory()
    sockets, refused = [], 0
    for i in range(1_000):
        try:
            sock = socket.create_connection((HOST, port), timeout=10)
            if i % 2:  # half of them start a request and never finish it
                sock.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            sockets.append(sock)
        except OSError:
            refused += 1
    deadline = time.monotonic() + 2
    while server.memory()[2] < fds0 + len(sockets) and time.monotonic() < deadline:
        time.sleep(0.05)
    rss1, hwm1, fds1 = server.memory()
    latencies, statuses = [], {}
    conn = None
    for i in range(200):
        started = time.monotonic()
        try:
            conn = conn or connect(port, timeout=10)
            if i % 4 == 0:
                status, _, _ = call(port, "POST", "/api/v1/books",
                                    {"title": f"While idle {i}", "authors": ["x"]}, token=token, conn=conn)
            else:
                status, _, _ = call(port, "GET", "/api/v1/books?limit=5", conn=conn)
        except (OSError, http.client.HTTPException) as error:
            status = type(error).__name__
            conn = None
        latencies.append(time.monotonic() - started)
        statuses[status] = statuses.get(status, 0) + 1
    # a fresh connection per request, too: accept() must still keep up
    fresh = []
    for _ in range(50):
        started = time.monotonic()
        try:
            status, _, _ = call(port, "GET", "/api/v1/health", timeout=10)
        except OSError as error:
            status = type(error).__name__
        fresh.append(time.monotonic() - started)
        statuses[status] = statuses.get(status, 0) + 1
    latencies.sort()
    fresh.sort()
    p50, p99 = latencies[len(latencies) // 2], latencies[int(len(latencies) * 0.99)]
    report(refused == 0 and fds1 >= fds0 + 990, "1,000 idle and half-sent connections are accepted and held",
           f"{refused} refused, {fds1 - fds0} more descriptors; server's soft limit on open files {server_nofile}")
    report(set(statuses) <= {200, 201} and p99 < 0.5 and fresh[-1] < 1.0,
           "other requests are still served quickly meanwhile",
           f"{statuses}; kept-alive p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms; "
           f"new connections p50 {fresh[len(fresh) // 2] * 1000:.1f} ms, max {fresh[-1] * 1000:.1f} ms")
    rss2, hwm2, fds2 = server.memory()
    note(f"memory: at start VmRSS {before[0] / 1024:.1f} MiB (VmHWM {before[1] / 1024:.1f}); "
           f"before the idle connections {rss0 / 1024:.1f} MiB (HWM {hwm0 / 1024:.1f}, {fds0} fds); "
           f"with 1,000 held {rss1 / 1024:.1f} MiB (HWM {hwm1 / 1024:.1f}, {fds1} fds); "
           f"after the timed requests {rss2 / 1024:.1f} MiB (HWM {hwm2 / 1024:.1f})")
    report(rss1 - rss0 < 64 * 1024, "1,000 idle connections cost under 64 MiB",
           f"{(rss1 - rss0) / 1024:.1f} MiB, {(rss1 - rss0) / 1000:.1f} KiB each")
    # the server closes connections that stay idle (or half-sent) past its idle timeout
    deadline = time.monotonic() + idle_timeout + 3
    open_sockets = list(sockets)
    while open_sockets and time.monotonic() < deadline:
        time.sleep(0.25)
        open_sockets = [sock for sock in open_sockets if not closed_by_peer(sock)]
    closed = len(sockets) - len(open_sockets)
    for sock in sockets:
        sock.close()
    rss3, hwm3, fds3 = server.memory()
    report(closed == len(sockets), f"the server closes connections idle for {idle_timeout:g}s",
           f"{closed} of {len(sockets)} closed; {fds3} fds open afterwards (was {fds0})")
    note(f"memory: after the idle connections closed VmRSS {rss3 / 1024:.1f} MiB (HWM {hwm3 / 1024:.1f})")
