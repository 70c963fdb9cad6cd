"""Knarr with the skáli/raid expansion (``--rule skali=true``)."""
