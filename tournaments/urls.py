"""Tournament pages: none yet."""

from django.urls import URLPattern, URLResolver

app_name = "tournaments"

urlpatterns: list[URLPattern | URLResolver] = []
