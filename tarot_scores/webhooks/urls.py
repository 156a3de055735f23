"""A club's webhook pages, under the club's address (``clubs:`` namespace, see the site's
URLconf)."""

from django.urls import URLPattern, path

from tarot_scores.webhooks import views

club_urlpatterns: list[URLPattern] = [
    path("<slug:slug>/webhooks/", views.webhooks, name="webhooks"),
    path("<slug:slug>/webhooks/<int:webhook_id>/", views.webhook_detail, name="webhook"),
    path(
        "<slug:slug>/webhooks/<int:webhook_id>/<str:action>/",
        views.webhook_action,
        name="webhook_action",
    ),
    path(
        "<slug:slug>/webhooks/<int:webhook_id>/deliveries/<int:delivery_id>/resend/",
        views.delivery_resend,
        name="delivery_resend",
    ),
]
