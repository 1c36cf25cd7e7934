"""The per-endpoint gate: in-flight, requests-per-minute and tokens-per-minute limits (process-local)."""

from __future__ import annotations

import threading
import time

from actors.llm.gate import Limits, configure, gate, reset


def test_an_unconfigured_endpoint_has_no_limits():
    reset()
    g = gate("http://127.0.0.1:1/v1")
    for _ in range(1000):
        g.enter(10)
    assert g.limits.unlimited and gate("http://127.0.0.1:1/v1") is g


def test_in_flight_limit_holds_across_threads():
    reset()
    g = configure("http://127.0.0.1:2/v1", max_in_flight=3)
    lock, now, peak = threading.Lock(), [0], [0]

    def call():
        g.enter(1)
        with lock:
            now[0] += 1
            peak[0] = max(peak[0], now[0])
        time.sleep(0.02)
        with lock:
            now[0] -= 1
        g.leave(1)

    threads = [threading.Thread(target=call) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert peak[0] == 3 and now[0] == 0 and g.limits.in_flight == 0


def test_requests_and_tokens_per_minute_over_a_sliding_minute():
    rpm = Limits(rpm=2)
    assert rpm.wait(0.0, 0) is None and rpm.wait(1.0, 0) is None
    assert rpm.wait(2.0, 0) == 58.0  # the first request leaves the window at 60 s
    assert rpm.wait(60.5, 0) is None
    tpm = Limits(tpm=100)
    assert tpm.wait(0.0, 80) is None
    tpm.leave(1.0, 90)
    assert tpm.wait(2.0, 20) == 59.0  # 90 used + 20 asked > 100 until the 90 expire
    assert tpm.wait(61.5, 20) is None
    big = Limits(tpm=10)
    assert big.wait(0.0, 1000) is None  # larger than a minute's budget: goes once the minute is empty
