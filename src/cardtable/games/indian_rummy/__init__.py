"""The indian_rummy game package (public API re-exported here once its modules exist)."""
