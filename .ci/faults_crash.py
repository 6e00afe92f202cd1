"""`.ci/faults crash`: 64 writers (book additions, borrows and returns) against one server; SIGKILL
at a random moment; restart on the same file; every acknowledged write must be there and
`shelfmark audit verify` must pass. Repeated N times (default 10) on one growing file."""

import os
import random
import signal
import time
import uuid

from faultlib import (LIBRARIAN, SEED, Load, Server, audit_verify, check_acknowledged, log_in, note, prepare_load,
                      report, seed_librarian)


def crash_test(binary, work, iterations):
    print(f"== crash: SIGKILL under 64 writers, {iterations} times on one file", flush=True)
    db = os.path.join(work, "crash", "library.sqlite")
    seed_librarian(binary, db)
    server = Server(binary, db)
    token = log_in(server.port, *LIBRARIAN)
    rng = random.Random(SEED)
    totals = {"acknowledged": 0, "books": 0, "loans": 0, "returns": 0, "in_doubt": 0}
    for iteration in range(1, iterations + 1):
        tag = f"Crash{iteration}x{uuid.uuid4().hex[:6]}"
        shelf, members = prepare_load(server.port, token, tag)
        load = Load(server.port, token, members, shelf, tag, writers=64, max_requests=None).start()
        delay = rng.uniform(0.4, 2.5)
        time.sleep(delay)
        with load.lock:
            in_flight = load.in_flight
        server.signal(signal.SIGKILL)
        server.wait()
        load.finish()
        report(not load.unexpected, f"crash {iteration}: no unexpected answer under load",
               f"{load.unexpected[:3]}" if load.unexpected else "")
        started = time.monotonic()
        server = Server(binary, db)
        restart = time.monotonic() - started
        missing, lost_loans, unreturned, doubt_present = check_acknowledged(server.port, token, load)
        code, output, verify_time = audit_verify(binary, db)
        acked = load.acknowledged()
        totals["acknowledged"] += acked
        totals["books"] += len(load.books)
        totals["loans"] += len(load.loans)
        totals["returns"] += len(load.returned)
        totals["in_doubt"] += len(load.in_doubt)
        report(not missing and not lost_loans and not unreturned and acked > 0,
               f"crash {iteration}: every acknowledged write survived SIGKILL after {delay:.2f}s",
               f"{len(load.books)} books, {len(load.loans)} borrows, {len(load.returned)} returns acknowledged; "
               f"{in_flight} requests in flight at the kill; {len(load.in_doubt)} additions unanswered, "
               f"{doubt_present} of them committed; restart {restart:.2f}s"
               + (f"; MISSING books {missing[:5]} loans {lost_loans[:5]} returns {unreturned[:5]}"
                  if missing or lost_loans or unreturned else ""))
        report(code == 0, f"crash {iteration}: audit verify passes ({verify_time:.1f}s)",
               "" if code == 0 else output[-1500:])
    status = server.stop()
    report(status == 0, "crash: the last restarted server stops cleanly on SIGTERM", f"exit {status}")
    note(f"crash: {iterations} SIGKILLs; acknowledged {totals['acknowledged']} writes "
         f"({totals['books']} books, {totals['loans']} borrows, {totals['returns']} returns), all present; "
         f"{totals['in_doubt']} additions unanswered at the kills")
