"""Four ways to serve the same requests, measured on one scenario suite: ReAct, Plan-Execute, Router, Router + trimming.

Run with `make bench` (python -m bench.architectures); it prints the tables and writes docs/EVOLUTION.md.
"""
