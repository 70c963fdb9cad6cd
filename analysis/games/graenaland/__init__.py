"""Graenaland: start positions, the draft and the three-player adjustments (``questions``), and the
report's Graenaland sections (``sections``)."""
