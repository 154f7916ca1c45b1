"""The indecision game package (public API re-exported here once its modules exist)."""
