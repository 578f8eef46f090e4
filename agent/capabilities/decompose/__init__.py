"""decompose: break a task into subtasks — planner, plan card, executor, bounded replan."""
