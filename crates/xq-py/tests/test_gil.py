"""The long calls release the GIL: another Python thread keeps running while they work."""

import threading
import time

import xq
from xq import _xq  # type: ignore[attr-defined]


def longest_pause_while(call):
    """Runs `call` in a thread; returns how long the main thread's loop was stopped at most, and
    how long the call took."""
    done = threading.Event()
    took = []

    def work():
        t = time.perf_counter()
        call()
        took.append(time.perf_counter() - t)
        done.set()

    th = threading.Thread(target=work)
    last = time.perf_counter()
    longest = 0.0
    th.start()
    while not done.is_set():
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
    th.join()
    return longest, took[0]


def test_validation_and_reading_release_the_gil(ccpd):
    files = [(f, False) for f in xq.record_files(ccpd)] * 4
    for call in (
        lambda: _xq._validate_files(files, None, None, 1, False),
        lambda: _xq._read_files(files, None, None, 1, False),
    ):
        longest, took = longest_pause_while(call)
        # Holding the GIL would stop the loop for the whole call; released, the loop only waits
        # for the interpreter's switch interval (5 ms) and the scheduler. The call must last long
        # enough for the two to differ (a tenth of a second is 20 switch intervals). (A pause of
        # 0.15 s in a call of 0.4 s was once seen on a busy 2-core machine: the call is made
        # longer, and half of it allowed, where holding the GIL would stop the loop for all of it.)
        assert took > 0.1, took
        assert longest < took / 2, (longest, took)
