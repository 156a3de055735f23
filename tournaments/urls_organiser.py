"""Tournament pages for its organisers (and, where the page says so, its referees): a new
tournament, registration and check-in, teams, pairs kept apart, substitutes, referees,
penalties, seating and running the rounds, cuts, the tables' printed sheets, and the referee's
desk for the deals waiting or disputed."""

from django.urls import URLPattern, URLResolver, path

from tournaments.views import (
    cards,
    cuts,
    penalties,
    people,
    referee_desk,
    referees,
    registration,
    rounds,
    webhooks,
)

urlpatterns: list[URLPattern | URLResolver] = [
    path("club/<slug:slug>/new/", registration.tournament_new, name="new"),
    path("<int:tournament_id>/registration/", registration.registration, name="registration"),
    path(
        "<int:tournament_id>/entries/<int:entry_id>/check-in/",
        registration.entry_check_in,
        name="entry_check_in",
    ),
    path(
        "<int:tournament_id>/entries/<int:entry_id>/withdraw/",
        registration.entry_withdraw,
        name="entry_withdraw",
    ),
    path(
        "<int:tournament_id>/entries/<int:entry_id>/series/",
        registration.entry_series,
        name="entry_series",
    ),
    path("<int:tournament_id>/cards.pdf", cards.player_cards_pdf, name="player_cards"),
    path(
        "<int:tournament_id>/entries/<int:entry_id>/card/",
        cards.entry_card_new,
        name="entry_card_new",
    ),
    path("<int:tournament_id>/teams/", registration.team_new, name="team_new"),
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
    path("<int:tournament_id>/webhooks/", webhooks.webhooks, name="webhooks"),
    path("<int:tournament_id>/rounds/seat/", rounds.round_seat, name="round_seat"),
    path("<int:tournament_id>/rounds/<int:number>/swap/", rounds.round_swap, name="round_swap"),
    path(
        "<int:tournament_id>/rounds/<int:number>/tables/<int:table_number>/new-link/",
        rounds.round_table_new_link,
        name="round_table_new_link",
    ),
    path("<int:tournament_id>/rounds/<int:number>/start/", rounds.round_start, name="round_start"),
    path("<int:tournament_id>/rounds/<int:number>/close/", rounds.round_close, name="round_close"),
    path(
        "<int:tournament_id>/rounds/<int:number>/close-now/",
        rounds.round_close_now,
        name="round_close_now",
    ),
    # A championship's cut after a closed round: preview, confirm, undo.
    path("<int:tournament_id>/rounds/<int:number>/cut/", cuts.cut, name="cut"),
    path(
        "<int:tournament_id>/rounds/<int:number>/tables.pdf",
        rounds.table_sheets_pdf,
        name="table_sheets_pdf",
    ),
    path("<int:tournament_id>/referee/", referee_desk.referee_deals, name="referee"),
    path(
        "<int:tournament_id>/referee/pins/<int:lock_id>/unlock/",
        referee_desk.referee_pin_unlock,
        name="referee_pin_unlock",
    ),
    path(
        "<int:tournament_id>/referee/deals/<int:deal_id>/confirm/",
        referee_desk.referee_confirm,
        name="referee_confirm",
    ),
    path(
        "<int:tournament_id>/referee/deals/<int:deal_id>/settle/",
        referee_desk.referee_settle,
        name="referee_settle",
    ),
    path(
        "<int:tournament_id>/referee/deals/<int:deal_id>/",
        referee_desk.referee_deal_edit,
        name="referee_deal_edit",
    ),
    path(
        "<int:tournament_id>/referee/deals/<int:deal_id>/preview/",
        referee_desk.referee_deal_preview,
        name="referee_deal_preview",
    ),
]
