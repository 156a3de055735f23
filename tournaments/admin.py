"""Django admin for tournaments, their entries, teams, rounds, tables and deal confirmations."""

from django.contrib import admin

from tournaments import models


class EntryInline(admin.TabularInline):
    model = models.Entry
    extra = 0
    raw_id_fields = ("player",)


class TableInline(admin.TabularInline):
    model = models.Table
    extra = 0
    readonly_fields = ("number", "game", "token")
    can_delete = False


@admin.register(models.Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "date", "format", "seating", "rounds", "status")
    list_filter = ("status", "format", "seating", "club")
    date_hierarchy = "date"
    inlines = [EntryInline]


@admin.register(models.Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("player", "tournament", "team", "checked_in", "first_round", "withdrawn_after")
    list_filter = ("checked_in", "tournament")
    raw_id_fields = ("player",)


@admin.register(models.Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("name", "tournament")


@admin.register(models.Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("__str__", "status", "repeats", "started_at", "closed_at")
    list_filter = ("status",)
    inlines = [TableInline]


@admin.register(models.Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("__str__", "game")
    readonly_fields = ("token",)


@admin.register(models.DealConfirmation)
class DealConfirmationAdmin(admin.ModelAdmin):
    """Read only: confirmations change through the table's link, the referee's page and the API,
    so that the rules (the other side, the referee) always apply."""

    list_display = ("deal", "status", "entered_by", "entered_side", "confirmed_by", "confirmed_at")
    list_filter = ("status",)

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False
