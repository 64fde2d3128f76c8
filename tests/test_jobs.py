"""The one background-job runner (explorer.app.jobs): start, progress, stop, cancel, wait.

Cover's Monte Carlo run, Generalization's simulation and every export go through it, so its
promises are checked here once: reports reach the owner through ``post``; after a cancel (or a
new start) nothing of the old run is delivered, even a report already on its way; a stop still
lets the run say how far it got.
"""

from __future__ import annotations

import threading
import time

import pytest

from explorer.app.jobs import Job


def _wait_until(cond, timeout=5.0):
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.005)


def test_a_run_reports_its_progress_and_its_end_through_post():
    seen, queue = [], []
    job = Job("t", post=queue.append)  # the owner's thread: here, a queue we drain

    def work(report):
        for i in range(3):
            report.post(lambda i=i: seen.append(("progress", i)))
        report.post(lambda: seen.append(("end", report.stopped())))

    job.start(work)
    assert job.wait(5)
    assert seen == []  # nothing runs on the worker's thread
    for fn in queue:
        fn()
    assert seen == [("progress", 0), ("progress", 1), ("progress", 2), ("end", False)]


def test_stop_lets_the_run_say_how_far_it_got():
    seen = []
    go = threading.Event()
    job = Job("t")

    def work(report):
        done = 0
        while not report.stopped():
            done += 1
            go.set()
            time.sleep(0.001)
        report.post(lambda: seen.append(("stopped after", done > 0)))

    job.start(work)
    go.wait(5)
    job.stop()
    assert job.wait(5)
    assert seen == [("stopped after", True)]


def test_after_a_cancel_nothing_of_the_old_run_is_delivered():
    seen, queue = [], []
    job = Job("t", post=queue.append)
    release = threading.Event()

    def work(report):
        report.post(lambda: seen.append("before"))
        release.wait(5)
        report.post(lambda: seen.append("after"))

    job.start(work)
    _wait_until(lambda: len(queue) == 1)
    assert job.busy
    assert job.cancel() is True
    assert not job.busy  # a cancelled run no longer counts: a new one may start at once
    release.set()
    _wait_until(lambda: len(queue) == 2)
    for fn in queue:  # "before" was already on its way when the cancel came
        fn()
    assert seen == []


def test_a_new_start_replaces_the_old_run_and_silences_it():
    seen = []
    job = Job("t")
    release = threading.Event()

    def slow(report):
        release.wait(5)
        report.post(lambda: seen.append("old"))

    job.start(slow)
    with pytest.raises(RuntimeError, match="already running"):
        job.start(slow)
    job.cancel()
    job.start(lambda report: report.post(lambda: seen.append("new")))
    assert job.wait(5)
    release.set()
    time.sleep(0.05)
    assert seen == ["new"]


def test_cancel_can_wait_for_the_worker_to_end():
    job = Job("t")
    ended = threading.Event()

    def work(report):
        while not report.stopped():
            time.sleep(0.001)
        time.sleep(0.05)
        ended.set()

    job.start(work)
    assert job.cancel(wait=5) is True
    assert ended.is_set()
    assert job.cancel() is False  # nothing running any more


def test_a_delivery_never_lands_after_cancel_returns():
    """A worker that reports as fast as it can, with delivery on its own thread: once cancel()
    has returned, the count stops moving (the check and the delivery hold the job's lock)."""
    count = [0]
    job = Job("t")

    def work(report):
        while not report.stopped():
            report.post(lambda: count.__setitem__(0, count[0] + 1))

    job.start(work)
    _wait_until(lambda: count[0] > 100)
    job.cancel()
    frozen = count[0]
    time.sleep(0.05)
    assert count[0] == frozen


def test_the_name_is_checked():
    with pytest.raises(TypeError, match="non-empty str"):
        Job("")
