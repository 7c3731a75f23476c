"""Golden games: whole games stored as data, replayed by tests/engine/test_golden.py."""
