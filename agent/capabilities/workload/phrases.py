"""workload's words for the deterministic reader: who has how many tasks, or one person's tasks.

A person's tasks ("carol's tasks") ask for the same view with that person first: "possessed" is what
follows a possessive name (agent/reading/reads.py). A person's tasks with a filter ("carol's open
tasks", "carol's P0 tasks") are a filtered list: query reads those. The node finds the person among
the scope's assignees and members by the name the message holds, and says so when it finds none.
"""
from __future__ import annotations

from agent.registry import Phrases

PHRASES = Phrases(
    en={"topic": ("workload", "workloads", "work load", "who has the most", "who has the fewest", "who has the least",
                  "who is overloaded", "who's overloaded", "who is busiest", "who is the busiest", "tasks per person",
                  "tasks per assignee", "tasks by assignee", "tasks by person", "who has what"),
        "possessed": ("tasks", "workload", "load", "work load")},
    zh={"topic": ("工作量", "谁的任务最多", "谁的任务最少", "谁最忙", "谁负担最重", "每个人的任务", "每人的任务",
                  "各人的任务", "按负责人统计")},
)
