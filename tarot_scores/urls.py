"""Root URLconf: site pages, admin, language switch, the API schema and its docs."""

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularSwaggerSplitView

from tarot_scores.api import token_pages
from tarot_scores.api.schema_view import EnglishSchemaView
from tarot_scores.calculator import views as views_calculator
from tarot_scores.clubs import urls as club_urls
from tarot_scores.core import prepared, pwa, views
from tarot_scores.core.accounts import SignInForm
from tarot_scores.core.signin import PasswordResetView
from tarot_scores.games import urls as game_urls
from tarot_scores.stats import urls as stats_urls
from tarot_scores.stats import views as stats_views
from tarot_scores.webhooks import urls as webhook_urls

# Under /api/ an unknown path answers JSON, as an unknown id does.
handler404 = "tarot_scores.api.errors.not_found"
# The database unreachable: 503 with Retry-After (JSON under /api/); any failure under /api/: JSON.
handler500 = "tarot_scores.core.outage.server_error"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("readyz", views.readyz, name="readyz"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("offline/", pwa.offline, name="offline"),
    path("favicon.ico", pwa.favicon, name="favicon"),
    path("calculator/", views_calculator.calculator, name="calculator"),
    path("ratings/", stats_views.federation_ratings, name="ratings"),
    # PDFs drawn by the worker (core.prepared): their page, then the file.
    path("pdf/<uuid:pk>/", prepared.prepared_pdf, name="prepared_pdf"),
    path("pdf/<uuid:pk>/file", prepared.prepared_pdf_file, name="prepared_pdf_file"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("tarot_scores.api.urls")),
    path("api/v1/", include("tournaments.api.urls")),
    path("api/schema/", EnglishSchemaView.as_view(), name="api-schema"),
    # Swagger UI's start-up script served as a file (the Content-Security-Policy has no inline
    # script); its page keeps a small inline style block, allowed on that page alone.
    path(
        "api/docs/",
        csp_update({"style-src": [UNSAFE_INLINE]})(
            SpectacularSwaggerSplitView.as_view(url_name="api-schema")
        ),
        name="api-docs",
    ),
    # Before Django's own, which it replaces: the same form, bounded per address and per client.
    path("accounts/password_reset/", PasswordResetView.as_view(), name="password_reset"),
    # Before Django's own too: the same page, whose first field also takes an e-mail address.
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=SignInForm),
        name="login",
    ),
    path("accounts/invitations/", include("tarot_scores.clubs.invitation_urls")),
    path("accounts/tokens/", token_pages.account_tokens, name="account_tokens"),
    path("accounts/", include("django.contrib.auth.urls")),
    # Sign-up, the e-mail confirmation and the e-mail change (django-allauth).
    path("accounts/", include("tarot_scores.core.account_urls")),
    # A club's address holds the pages of the clubs, the games and the stats, one namespace.
    path(
        "clubs/",
        include(
            (
                [
                    *club_urls.urlpatterns,
                    *game_urls.club_urlpatterns,
                    *stats_urls.club_urlpatterns,
                    *webhook_urls.club_urlpatterns,
                ],
                club_urls.app_name,
            )
        ),
    ),
    path("", include("tarot_scores.games.urls")),
    path("tournaments/", include("tournaments.urls")),
]
