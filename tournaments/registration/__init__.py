"""Registration: the tournament itself, who plays (entries), check-in, series, teams, referees."""
