"""The preload of each worker that `batch --executor dask` starts on this machine (a
LocalCluster's): Ctrl-C at a terminal reaches every process of the foreground group, and a Dask
worker that heard it printed a KeyboardInterrupt traceback after "nonosat: interrupted" (a
review). The run's own process hears it, and its workers end with it (Dask's processes watch
their parent), as our own workers do. A cluster that a scheduler's address names is left as its
owner set it up."""

from __future__ import annotations

import signal
import threading
from typing import Any


def dask_setup(worker: Any) -> None:
    """Dask's preload hook, called in the worker process as the worker starts."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
