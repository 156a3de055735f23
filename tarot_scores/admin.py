"""Django admin for every model of the club domain."""

from django.contrib import admin

from tarot_scores.clubs.models import Club, HouseRules, Membership, Player
from tarot_scores.games.models import Deal, DealRevision, Game, ScoreLine, Seat
from tarot_scores.stats.models import PlayerSeason


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


class ScoreLineInline(admin.TabularInline):
    model = ScoreLine
    extra = 0
    readonly_fields = ("player", "points")
    can_delete = False


class RevisionInline(admin.TabularInline):
    model = DealRevision
    extra = 0
    readonly_fields = ("version", "action", "payload", "scores", "by", "by_label", "at")
    can_delete = False


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "public", "season_start_month")
    prepopulated_fields = {"slug": ("name",)}
    search_fields = ("name",)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("club", "user", "role")
    list_filter = ("role", "club")


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "nickname", "licence", "user")
    search_fields = ("name", "nickname", "licence")
    filter_horizontal = ("clubs",)


@admin.register(HouseRules)
class HouseRulesAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "based_on", "updated_at")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("__str__", "club", "date", "variant", "status")
    list_filter = ("status", "variant", "club")
    date_hierarchy = "date"
    inlines = [SeatInline]


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ("__str__", "taker", "contract", "won", "version", "deleted_at")
    list_filter = ("contract", "won")
    list_select_related = ("game__club", "taker")
    inlines = [ScoreLineInline, RevisionInline]


@admin.register(DealRevision)
class DealRevisionAdmin(admin.ModelAdmin):
    list_display = ("deal", "version", "action", "by", "by_label", "at")
    list_select_related = ("deal__game__club", "by")


@admin.register(PlayerSeason)
class PlayerSeasonAdmin(admin.ModelAdmin):
    list_display = ("player", "club", "season", "kind", "table_size", "points", "deals")
    list_filter = ("club", "season", "kind", "table_size")
