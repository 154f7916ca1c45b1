"""Finished games at the server: their replays for the browser's viewer
(:mod:`~cardtable.server.review.replays`, cached once made by
:mod:`~cardtable.server.review.replay_cache`), what a profile's record adds up to
(:mod:`~cardtable.server.review.record`) and the move-by-move analysis of each hand
(:mod:`~cardtable.server.review.analysis_jobs`).
"""
