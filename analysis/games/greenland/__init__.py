"""Greenland: tribes, survival, conversion, game length and scores (``questions``), and the report's
Greenland sections (``sections``: ``tribes``, ``conversion``, ``length`` and ``scores``, sharing
``common``)."""
