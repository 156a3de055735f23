"""Tournament pages, one module per part of the evening.

- ``events``: a club's tournaments, a new tournament, its overview and registration (check-in,
  late arrivals, withdrawals, teams).
- ``rounds``: seating a round, its table plan (swaps, start, close) and its printed sheets.
- ``table_entry``: a table's private link, where whoever sits there enters its deals.
- ``results``: standings, the projector view, the knockout bracket and their exports.

Views are thin: ``forms`` give the shape, ``services`` write, ``selectors`` read,
``tarot_scores.permissions`` decide. Organisers of the club manage a tournament; anyone who may
read the club reads its tournaments; a private club's tournaments do not exist for outsiders.
"""
