"""project_summary's words for the deterministic reader: how a project is doing, summed up."""
from __future__ import annotations

from agent.registry import Phrases

PHRASES = Phrases(
    en={"topic": ("summarize this project", "summarise this project", "summarize the project", "summarise the project",
                  "project summary", "summary of this project", "summary of the project", "how is this project doing",
                  "how is the project doing", "how's this project doing", "how's the project doing",
                  "how is this project going", "how is the project going", "how's the project going",
                  "project status", "state of the project", "project overview", "overview of this project")},
    zh={"topic": ("这个项目怎么样", "项目怎么样", "项目概况", "项目总结", "总结一下这个项目", "总结这个项目",
                  "项目进展如何", "项目进展怎么样", "项目情况", "项目状态", "项目现在怎么样", "概括一下这个项目")},
    # The page's project: asked away from one, the answer asks which (agent.capabilities.common.scope).
    slots={"scope": "project"},
)
