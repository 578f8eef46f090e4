"""PageContext: what the browser says about the page the user is looking at (docs/DESIGN.md#page-context)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.alias_generators import to_camel

from pm_assistant.vocabulary import ID_MAX, Page, Priority, Status, ViewMode

from .text import NoControlCharacters

__all__ = ["Origin", "Page", "Priority", "Status", "ViewMode"]

Origin = Literal["sidebar", "quick_button", "task_row", "workbench"]
EntityId = Annotated[int, Field(ge=1, le=ID_MAX, strict=True)]

MAX_VISIBLE_IDS = 500
MAX_KEYWORD = 200


class _Strict(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True
    )


class SelectedEntity(_Strict):
    type: Literal["task", "project"]
    id: EntityId


class RouteParams(_Strict):
    project_id: EntityId | None = None
    task_id: EntityId | None = None


class Filters(_Strict):
    status: tuple[Status, ...] = Field(default=(), max_length=4)
    assignee: EntityId | Literal["me", "none"] | None = None
    priority: tuple[Priority, ...] = Field(default=(), max_length=4)
    due_before: date | None = None
    due_after: date | None = None
    labels: tuple[Annotated[str, Field(max_length=40), NoControlCharacters], ...] = Field(default=(), max_length=20)

    @model_validator(mode="after")
    def _due_range(self) -> Filters:
        if self.due_before and self.due_after and self.due_after > self.due_before:
            raise ValueError("dueAfter must not be later than dueBefore")
        return self

    def key_filters(self) -> KeyFilters:
        return KeyFilters(status=self.status, assignee=self.assignee, priority=self.priority)


class KeyFilters(_Strict):
    """The filters that help judge intent: status, assignee, priority."""

    status: tuple[Status, ...] = ()
    assignee: EntityId | Literal["me", "none"] | None = None
    priority: tuple[Priority, ...] = ()


class Pagination(_Strict):
    page: Annotated[int, Field(ge=1, le=100_000, strict=True)] = 1
    page_size: Annotated[int, Field(ge=1, le=100, strict=True)] = 25


class PageContext(_Strict):
    page: Page = Field(description="each page sends its own name")
    origin: Origin = Field(description="the UI entry that sent the request")
    selected_entity: SelectedEntity | None = None
    route_params: RouteParams = RouteParams()
    active_tab: Annotated[str, Field(max_length=40, pattern=r"^[a-z_]+$")] | None = Field(
        default=None, description="lower-case words joined by _, e.g. `overview`, `in_progress`, `done`")
    view_mode: ViewMode | None = None
    filters: Filters = Filters()
    visible_entity_ids: tuple[EntityId, ...] = Field(default=(), max_length=MAX_VISIBLE_IDS)
    search_keyword: Annotated[str, Field(max_length=MAX_KEYWORD), NoControlCharacters] = ""
    pagination: Pagination = Pagination()


@dataclass(frozen=True)
class EntityNames:
    """Names of the entities the page refers to, read before assembly so the assembler stays pure."""

    project_name: str | None = None
    task_title: str | None = None
    # The selected task's key ("WEB-18"), read with its title.
    task_key: str | None = None
    assignee_name: str | None = None
