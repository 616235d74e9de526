"""Benchmark scripts (run them as files: `.venv/bin/python bench/append.py`) and their helpers."""
