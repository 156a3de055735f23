"""Tournament pages, under /tournaments/, grouped by who they are for: the organisers
(``urls_organiser``), any reader (``urls_public``) and a table's private link (``urls_table``).
One app namespace (``tournaments:``) for all three: the paths and names are those the templates
and the tests reverse."""

from django.urls import URLPattern, URLResolver

from tournaments import urls_organiser, urls_public, urls_table

app_name = "tournaments"

urlpatterns: list[URLPattern | URLResolver] = [
    *urls_organiser.urlpatterns,
    *urls_public.urlpatterns,
    *urls_table.urlpatterns,
]
