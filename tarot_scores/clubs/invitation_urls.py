"""Invitations, under /accounts/invitations/: the signed-in account's pending ones, and the page
an invitation's e-mail opens (its token is the proof the address is the holder's)."""

from django.urls import URLPattern, path

from tarot_scores.clubs import views

app_name = "invitations"

urlpatterns: list[URLPattern] = [
    path("", views.my_invitations, name="list"),
    path("<str:token>/", views.invitation_answer, name="answer"),
]
