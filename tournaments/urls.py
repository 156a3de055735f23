"""Tournament pages, under /tournaments/: a club's tournaments, registration, rounds and their
printed sheets, a table's private entry link, standings, projector and bracket."""

from django.urls import URLPattern, URLResolver, path

from tournaments.views import (
    boards,
    cuts,
    events,
    penalties,
    people,
    referee,
    referees,
    results,
    rounds,
    table_entry,
)

app_name = "tournaments"

urlpatterns: list[URLPattern | URLResolver] = [
    path("club/<slug:slug>/", events.tournament_list, name="list"),
    path("club/<slug:slug>/new/", events.tournament_new, name="new"),
    path("<int:tournament_id>/", events.detail, name="detail"),
    path("<int:tournament_id>/registration/", events.registration, name="registration"),
    path(
        "<int:tournament_id>/entries/<int:entry_id>/check-in/",
        events.entry_check_in,
        name="entry_check_in",
    ),
    path(
        "<int:tournament_id>/entries/<int:entry_id>/withdraw/",
        events.entry_withdraw,
        name="entry_withdraw",
    ),
    path(
        "<int:tournament_id>/entries/<int:entry_id>/series/",
        events.entry_series,
        name="entry_series",
    ),
    path("<int:tournament_id>/teams/", events.team_new, name="team_new"),
    path("<int:tournament_id>/apart/", people.apart_pair_new, name="apart_pair_new"),
    path(
        "<int:tournament_id>/apart/<int:pair_id>/remove/",
        people.apart_pair_remove,
        name="apart_pair_remove",
    ),
    path(
        "<int:tournament_id>/rounds/<int:number>/substitute/",
        people.round_substitute,
        name="round_substitute",
    ),
    path("<int:tournament_id>/referees/", referees.referees, name="referees"),
    path("<int:tournament_id>/penalties/", penalties.penalties_page, name="penalties"),
    path("<int:tournament_id>/rounds/seat/", rounds.round_seat, name="round_seat"),
    path("<int:tournament_id>/rounds/<int:number>/", rounds.round_detail, name="round"),
    path("<int:tournament_id>/rounds/<int:number>/swap/", rounds.round_swap, name="round_swap"),
    path(
        "<int:tournament_id>/rounds/<int:number>/tables/<int:table_number>/new-link/",
        rounds.round_table_new_link,
        name="round_table_new_link",
    ),
    path("<int:tournament_id>/rounds/<int:number>/start/", rounds.round_start, name="round_start"),
    path("<int:tournament_id>/rounds/<int:number>/close/", rounds.round_close, name="round_close"),
    # A championship's cut after a closed round: preview, confirm, undo.
    path("<int:tournament_id>/rounds/<int:number>/cut/", cuts.cut, name="cut"),
    path(
        "<int:tournament_id>/rounds/<int:number>/tables.pdf",
        rounds.table_sheets_pdf,
        name="table_sheets_pdf",
    ),
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
    path("<int:tournament_id>/referee/", referee.referee_deals, name="referee"),
    path(
        "<int:tournament_id>/referee/deals/<int:deal_id>/confirm/",
        referee.referee_confirm,
        name="referee_confirm",
    ),
    path(
        "<int:tournament_id>/referee/deals/<int:deal_id>/settle/",
        referee.referee_settle,
        name="referee_settle",
    ),
    path(
        "<int:tournament_id>/referee/deals/<int:deal_id>/",
        referee.referee_deal_edit,
        name="referee_deal_edit",
    ),
    path(
        "<int:tournament_id>/referee/deals/<int:deal_id>/preview/",
        referee.referee_deal_preview,
        name="referee_deal_preview",
    ),
    # A table's private link: no account needed, that table's deals only.
    path("t/<str:token>/", table_entry.table_entry, name="table_entry"),
    path("t/<str:token>/preview/", table_entry.table_preview, name="table_preview"),
    path(
        "t/<str:token>/deals/<int:deal_id>/",
        table_entry.table_deal_edit,
        name="table_deal_edit",
    ),
    path(
        "t/<str:token>/deals/<int:deal_id>/undo/",
        table_entry.table_deal_undo,
        name="table_deal_undo",
    ),
    path("t/<str:token>/me/", table_entry.table_holder, name="table_holder"),
    path(
        "t/<str:token>/deals/<int:deal_id>/confirm/",
        table_entry.table_deal_confirm,
        name="table_deal_confirm",
    ),
    path(
        "t/<str:token>/deals/<int:deal_id>/dispute/",
        table_entry.table_deal_dispute,
        name="table_deal_dispute",
    ),
]
