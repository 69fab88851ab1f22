"""The runner's writes to the response store: answers batched every 50 ms, never blocked by one.

A write that is cancelled (the run ended while it was still queued for a thread — it may then never
run) or that fails for a passing reason puts its rows back for the last, synchronous flush: writing a
row twice is harmless (a success never replaces a success), losing one makes the next run pay for it
again. Rows the store refuses (StoreWriteError) are counted, not put back — they would fail again and
block every answer after them; a batch refused whole means the store cannot be written at all (full
disk, read-only, corrupt) and `on_failure` is told, so the run stops paying for answers it cannot keep.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from indicjr.targets.store import Store, StoreRow, StoreWriteError


class StoreWriter:
    def __init__(self, store: Store, *, on_failure: Callable[[str], None]) -> None:
        self.store = store
        self.on_failure = on_failure
        self.rows: list[StoreRow] = []
        self.unstored = 0  # answers received that the store refused

    def add(self, row: StoreRow) -> None:
        self.rows.append(row)

    async def run(self) -> None:
        """Flush every 50 ms until cancelled."""
        while True:
            await asyncio.sleep(0.05)
            await self.flush()

    async def flush(self) -> None:
        """Write the answers gathered since the last flush."""
        rows, self.rows = self.rows, []
        if not rows:
            return
        try:
            await asyncio.to_thread(self.store.put_many, rows)
        except StoreWriteError as e:
            self._refused(e)
        except BaseException:
            self.rows = rows + self.rows
            raise

    def flush_now(self) -> None:
        """The last flush, synchronous: it also runs while a Ctrl-C is cancelling the loop."""
        rows, self.rows = self.rows, []
        try:
            self.store.put_many(rows)
        except StoreWriteError as e:
            self._refused(e)

    def lost(self, why: str) -> str:
        """The stop message for a store that stopped taking writes: why, and how many answers it cost."""
        unstored = self.unstored + len(self.rows)  # what the last flush will try to write
        return f"{why}; up to {unstored} answers received could not be stored, fix the store and rerun"

    def _refused(self, e: StoreWriteError) -> None:
        self.unstored += e.unwritten
        if e.unwritten == e.total:
            self.on_failure(str(e))
