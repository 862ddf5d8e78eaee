"""Throughput and parse-time measurements of the interpreter beside hand-written baselines."""
