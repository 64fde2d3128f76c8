"""Long work in the background, one run at a time: start, progress, stop, cancel, wait.

Every tab's long work goes through a :class:`Job`: Cover's Monte Carlo run and its Boolean count,
Generalization's simulation, and every tab's GIF/HTML export. The work runs in a daemon thread
and reaches its owner only through :meth:`Report.post`, which runs a function on the thread
that owns the traits (``post``, e.g. the kernel loop's ``call_soon_threadsafe``) and only while
that run is still the job's current one: after a new start or a :meth:`Job.cancel`, a late
worker's reports are dropped, so a result that no longer applies never lands.

Two ways to end a run early:

- :meth:`Job.stop`: the work is asked to stop (:meth:`Report.stopped` turns True) and still
  reports how far it got (e.g. "Stopped after 12 of 40 points; the finished ones are kept");
- :meth:`Job.cancel`: the run's results no longer apply (new settings, a new run): the work is
  asked to stop and nothing it reports afterwards is delivered.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

__all__ = ["Job", "Report", "kernel_loop"]


class Report:
    """What a running piece of work holds: whether it was asked to stop, and how to report."""

    def __init__(self, job: Job, run: int, stop: threading.Event):
        self._job, self._run, self._stop = job, run, stop

    def stopped(self) -> bool:
        """True once :meth:`Job.stop` or :meth:`Job.cancel` asked this run to end."""
        return self._stop.is_set()

    @property
    def current(self) -> bool:
        """This run is still the job's current one (not cancelled, not replaced)."""
        return self._run == self._job._run

    def post(self, fn: Callable[[], object]) -> None:
        """Run ``fn`` on the owner's thread if this run is still current when it gets there."""
        self._job._post(lambda: self._deliver(fn))

    def _deliver(self, fn) -> None:
        with self._job._lock:  # a cancel cannot slip between the check and the delivery
            if self.current:
                fn()


class Job:
    """One background task of a model or panel; at most one run at a time.

    Parameters
    ----------
    name : str
        The thread's name (seen in tracebacks and debuggers), e.g. ``"cover-monte-carlo"``.
    post : callable ``(fn) -> None``, optional
        Runs ``fn`` on the thread that owns the traits. Default: call it at once, on the worker's
        thread (scripts, tests, and widgets that may be set from any thread).
    """

    def __init__(self, name: str, *, post: Callable[[Callable[[], object]], None] | None = None):
        if not isinstance(name, str) or not name:
            raise TypeError(f"expected name to be a non-empty str; got {name!r}")
        self.name = name
        self._post = post or (lambda fn: fn())
        self._lock = threading.RLock()
        self._run = 0
        self._thread: threading.Thread | None = None
        self._stop: threading.Event | None = None

    @property
    def busy(self) -> bool:
        """The current run's thread is alive (a cancelled run no longer counts)."""
        t = self._thread
        return t is not None and t.is_alive()

    def start(self, work: Callable[[Report], None], *,
              post: Callable[[Callable[[], object]], None] | None = None) -> Report:
        """Run ``work(report)`` in a new thread, as the job's current run.

        ``post`` (optional) replaces the job's for this run and the ones after it. Raises
        ``RuntimeError`` if a run is still going: stop or cancel it first (callers check
        :attr:`busy` and say so to the user).
        """
        with self._lock:
            if self.busy:
                raise RuntimeError(f"{self.name} is already running")
            if post is not None:
                self._post = post
            self._run += 1
            self._stop = threading.Event()
            report = Report(self, self._run, self._stop)
            self._thread = threading.Thread(target=work, args=(report,), name=self.name,
                                            daemon=True)
            self._thread.start()
        return report

    def stop(self) -> None:
        """Ask the current run to end soon; it still reports what it finished."""
        if self._stop is not None:
            self._stop.set()

    def cancel(self, *, wait: float = 0.0) -> bool:
        """Drop the current run: ask it to stop and deliver nothing it reports from now on.

        ``wait``: seconds to wait for its thread to end (0: do not wait). Returns True if a run
        was going.
        """
        with self._lock:
            thread, was = self._thread, self.busy
            self._run += 1
            self.stop()
            self._thread = None
        if was and wait > 0:
            thread.join(wait)
        return was

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the current run to end; True if none is running any more."""
        t = self._thread
        if t is not None:
            t.join(timeout)
        return not self.busy


def kernel_loop():
    """The event loop of the Jupyter kernel these widgets live in, or None outside a kernel
    (where a loop may exist but nothing runs it between calls, e.g. under Playwright)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipykernel
        return None
    shell = get_ipython()
    if shell is None or getattr(shell, "kernel", None) is None:
        return None
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
