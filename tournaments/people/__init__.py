"""People: pairs kept apart, byes, substitutes and the rounds they replaced."""
