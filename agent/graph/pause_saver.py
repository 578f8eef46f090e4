"""A run's checkpointer that stores only what a pause needs: a run that ends is never resumed.

The graph writes its checkpoint when it exits (``durability="exit"``), whether it paused for a card
or the background, finished, or failed. Only a paused run is resumed from it (run_confirm,
run_continue), so this saver holds the exit's writes until the run's service says it paused
(``keep``: they go to the store, in the order the graph made them) and otherwise lets them go with
the run. A new run's thread has no checkpoint yet, so it is not read either.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
)


class PauseOnlySaver(BaseCheckpointSaver[Any]):
    """Reads from `store` (unless the run is new); holds writes until `keep`."""

    def __init__(self, store: BaseCheckpointSaver[Any], *, resuming: bool) -> None:
        super().__init__(serde=store.serde)
        self.store = store
        self.resuming = resuming
        self._puts: list[tuple[RunnableConfig, Checkpoint, CheckpointMetadata, ChannelVersions]] = []
        self._writes: list[tuple[RunnableConfig, Sequence[tuple[str, Any]], str, str]] = []

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        return self.store.get_tuple(config) if self.resuming else None

    def list(self, config: RunnableConfig | None, *, filter: dict[str, Any] | None = None,
             before: RunnableConfig | None = None, limit: int | None = None) -> Iterator[CheckpointTuple]:
        if self.resuming:
            yield from self.store.list(config, filter=filter, before=before, limit=limit)

    def get_next_version(self, current: Any, channel: None) -> Any:
        # The store's own version format: a resumed run compares these with what the store holds.
        return self.store.get_next_version(current, channel)

    def put(self, config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata,
            new_versions: ChannelVersions) -> RunnableConfig:
        self._puts.append((config, checkpoint, metadata, new_versions))
        return {"configurable": {**config["configurable"], "checkpoint_id": checkpoint["id"]}}

    def put_writes(self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str,
                   task_path: str = "") -> None:
        self._writes.append((config, writes, task_id, task_path))

    def keep(self) -> None:
        """Store what the graph wrote: the checkpoints, then the writes pending on them (the pause's)."""
        puts, writes, self._puts, self._writes = self._puts, self._writes, [], []
        for put in puts:
            self.store.put(*put)
        for write in writes:
            self.store.put_writes(*write)
