"""Root URLconf: site pages, admin, language switch, the API schema and its docs."""

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularSwaggerSplitView

from tarot_scores.api.schema_view import EnglishSchemaView
from tarot_scores.calculator import views as views_calculator
from tarot_scores.core import pwa, views
from tarot_scores.core.signin import PasswordResetView
from tarot_scores.stats import views as stats_views

# Under /api/ an unknown path answers JSON, as an unknown id does.
handler404 = "tarot_scores.api.errors.not_found"
handler500 = "tarot_scores.api.errors.server_error"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("offline/", pwa.offline, name="offline"),
    path("favicon.ico", pwa.favicon, name="favicon"),
    path("calculator/", views_calculator.calculator, name="calculator"),
    path("ratings/", stats_views.federation_ratings, name="ratings"),
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
    path("accounts/invitations/", include("tarot_scores.clubs.invitation_urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("clubs/", include("tarot_scores.clubs.urls")),
    path("", include("tarot_scores.games.urls")),
    path("tournaments/", include("tournaments.urls")),
]
