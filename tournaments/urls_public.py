"""Tournament pages any reader of the club sees: a club's tournaments, one tournament and its
rounds, the seating list, standings (page, CSV, PDF), the projector, the bracket, and a
duplicate tournament's boards, travellers and movement."""

from django.urls import URLPattern, URLResolver, path

from tournaments.views import boards, registration, results, rounds

urlpatterns: list[URLPattern | URLResolver] = [
    path("club/<slug:slug>/", registration.tournament_list, name="list"),
    path("<int:tournament_id>/", registration.detail, name="detail"),
    path("<int:tournament_id>/rounds/<int:number>/", rounds.round_detail, name="round"),
    path(
        "<int:tournament_id>/rounds/<int:number>/seating.pdf",
        rounds.seating_pdf,
        name="seating_pdf",
    ),
    path("<int:tournament_id>/standings/", results.standings, name="standings"),
    path("<int:tournament_id>/standings.csv", results.standings_csv, name="standings_csv"),
    path("<int:tournament_id>/standings.pdf", results.standings_pdf, name="standings_pdf"),
    path("<int:tournament_id>/projector/", results.projector, name="projector"),
    path("<int:tournament_id>/bracket/", results.bracket, name="bracket"),
    path("<int:tournament_id>/bracket.pdf", results.bracket_pdf, name="bracket_pdf"),
    # Duplicate: the boards' travellers, the movement and the boards' labels.
    path("<int:tournament_id>/boards/<int:board>/", boards.board, name="board"),
    path(
        "<int:tournament_id>/boards/<int:board>/traveller.pdf",
        boards.board_pdf,
        name="board_pdf",
    ),
    path("<int:tournament_id>/travellers.pdf", boards.travellers_pdf, name="travellers_pdf"),
    path("<int:tournament_id>/movement/", boards.movement, name="movement"),
    path("<int:tournament_id>/movement.pdf", boards.movement_pdf, name="movement_pdf"),
    path("<int:tournament_id>/board-labels.pdf", boards.board_labels_pdf, name="board_labels_pdf"),
]
