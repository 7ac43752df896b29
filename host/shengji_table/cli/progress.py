"""Progress for long work (``league``, ``enroll``, ``club demo``): a bar drawn by ``rich`` on stderr
when stderr is a terminal, nothing at all when it is not (a pipe, a log, CI) — stdout stays the
command's result alone.  When stdout is the same terminal, what the command prints goes above the
bar (rich redirects it); a piped stdout is left alone.

    with progress(total=40, what="matches") as step:
        for m in matches:
            play(m)
            step()
"""
from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator

__all__ = ["progress", "attached"]


def attached(stream=None) -> bool:
    """True when ``stream`` (default stderr) is a terminal a person watches."""
    stream = sys.stderr if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


@contextlib.contextmanager
def progress(total: int | None, what: str, stream=None) -> Iterator[Callable[..., None]]:
    """A ``step(n=1, note="")`` callable advancing a bar of ``total`` ``what`` (None: a count
    without an end); the bar is on ``stream`` (stderr) only when it is a terminal."""
    stream = sys.stderr if stream is None else stream
    if not attached(stream):
        yield lambda n=1, note="": None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   TextColumn("{task.fields[note]}"), console=Console(file=stream), transient=True,
                   redirect_stdout=attached(sys.stdout), redirect_stderr=False)
    with bar:
        task = bar.add_task(what, total=total, note="")

        def step(n: int = 1, note: str = "") -> None:
            bar.update(task, advance=n, note=note)
        yield step
