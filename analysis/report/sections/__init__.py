"""The sections of the HTML report (``analysis.report.report``) that any game's records give, and those of
a tune and a sensitivity screen; each game's own are in its room (``analysis.games.<game>.sections``)."""
