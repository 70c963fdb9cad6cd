"""Knarr: seat advantage, score spreads with and without the expansion, the cards that go with winning
and the raids (``questions``), the report's Knarr sections (``sections``) and the plain per-folder
version with the cards' names (``study``: ``python -m analysis.games.knarr.study FOLDER``)."""
