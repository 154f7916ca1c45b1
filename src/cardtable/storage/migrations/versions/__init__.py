"""The revisions, oldest first: ``0001`` is the baseline schema, each later one builds on it."""
