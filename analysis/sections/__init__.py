"""The sections of the HTML report (``analysis.report``): one module per game, one for any game,
and the building blocks they share."""
