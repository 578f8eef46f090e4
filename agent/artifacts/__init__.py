"""Artifacts: large tool results kept out of prompts (seed 000, forced externalization).

Tool result → ``classify.result_classify`` → inline, or Artifact + bounded summary →
``inspect`` tools on demand → ``lifecycle`` expiry and archive (``agent.jobs.artifacts_expire``).
"""
