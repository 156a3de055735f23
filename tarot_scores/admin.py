"""Django admin for every model of the club domain.

Deals, their score lines, their revisions and the season statistics are shown, never written:
a deal changed here would skip the scoring, the history, the statistics and the results
version. Corrections go through the game pages or the API, which keep all of them in step.
"""

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_tasks_db.admin import DBTaskResultAdmin
from django_tasks_db.models import DBTaskResult

from tarot_scores.api.models import ApiToken
from tarot_scores.api.tokens import token_digest, token_issue
from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.models import Club, HouseRules, Invitation, Membership, Player
from tarot_scores.core.errors import Refusal
from tarot_scores.core.jobs import attempt_of, jobs_run_now
from tarot_scores.core.mail import mail_outline, mail_send
from tarot_scores.games.models import Deal, DealRevision, Game, ScoreLine, Seat
from tarot_scores.stats.models import PlayerSeason
from tarot_scores.webhooks.models import Delivery, Webhook


class ReadOnly:
    """An admin (page or inline) that shows its rows and refuses to add, change or delete any."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _has_deals(game: Any) -> bool:
    return game is not None and game.pk is not None and game.deals.exists()


class SeatInline(admin.TabularInline):
    """A game's seats: changed here only before its first deal (its deals' score lines, the
    players' statistics and ratings name the players who sat)."""

    model = Seat
    extra = 0

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not _has_deals(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not _has_deals(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not _has_deals(obj) and super().has_delete_permission(request, obj)


class ScoreLineInline(ReadOnly, admin.TabularInline):
    model = ScoreLine
    extra = 0
    readonly_fields = ("player", "points")
    can_delete = False


class RevisionInline(ReadOnly, admin.TabularInline):
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


class PlayerAdminForm(forms.ModelForm):
    """A player as staff edit him: the name and nickname by the site's rule
    (``clubs.services.player_names_check``), its refusal beside the field."""

    class Meta:
        model = Player
        fields = ["name", "nickname", "licence", "club", "clubs", "user"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if "name" in cleaned and "nickname" in cleaned:
            # A new player's own club is the one chosen in this form.
            player = self.instance if self.instance.pk else Player(club=cleaned.get("club"))
            try:
                cleaned["name"], cleaned["nickname"] = club_services.player_names_check(
                    player=player, name=cleaned["name"], nickname=cleaned["nickname"]
                )
            except Refusal as refusal:
                for field, said in refusal.messages().items():
                    self.add_error(field if field in self.fields else None, said)
        return cleaned


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    form = PlayerAdminForm
    list_display = ("name", "nickname", "licence", "club", "user")
    list_filter = ("club",)
    search_fields = ("name", "nickname", "licence")
    filter_horizontal = ("clubs",)

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        # A new name shows on every results page: the rename moves their version (the admin
        # saves in one transaction, so with the player).
        if change and {"name", "nickname"} & set(form.changed_data):
            club_services.player_rename(player=obj, name=obj.name, nickname=obj.nickname)


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    # The token is the holder's key: never shown, even to staff.
    list_display = ("club", "user", "email", "role", "player", "status", "created_at")
    list_filter = ("status", "club")
    exclude = ("token",)


@admin.register(HouseRules)
class HouseRulesAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "based_on", "updated_at")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("__str__", "club", "date", "variant", "status")
    list_filter = ("status", "variant", "club")
    date_hierarchy = "date"
    inlines = [SeatInline]

    # What its deals were scored and counted by: the season of their statistics (the date),
    # the rules, the club. Once a deal is in, these are read-only here (moving them would
    # leave the statistics and game totals under the old ones).
    SCORED_BY = ("club", "date", "variant", "house_rules", "rules")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = tuple(super().get_readonly_fields(request, obj))
        return fields + self.SCORED_BY if _has_deals(obj) else fields


@admin.register(Deal)
class DealAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("__str__", "taker", "contract", "won", "version", "deleted_at")
    list_filter = ("contract", "won")
    list_select_related = ("game__club", "taker")
    inlines = [ScoreLineInline, RevisionInline]


@admin.register(DealRevision)
class DealRevisionAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("deal", "version", "action", "by", "by_label", "at")
    list_select_related = ("deal__game__club", "by")


@admin.register(ScoreLine)
class ScoreLineAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("deal", "player", "points")
    list_select_related = ("deal__game__club", "player")


@admin.register(PlayerSeason)
class PlayerSeasonAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("player", "club", "season", "kind", "table_size", "points", "deals")
    list_filter = ("club", "season", "kind", "table_size")


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Issue a token for an account (its key is shown once, on the next page) or revoke one.
    Only the key's digest is stored, so there is nothing to change and no key to show later."""

    list_display = ("user", "prefix", "created_at")
    list_select_related = ("user",)
    search_fields = ("user__username", "prefix")
    fields = ("user",)
    autocomplete_fields = ("user",)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: ApiToken, form: Any, change: bool) -> None:
        key = token_issue(user=obj.user)
        issued = ApiToken.objects.get(digest=token_digest(key))
        obj.pk, obj.digest, obj.prefix = issued.pk, issued.digest, issued.prefix
        obj.created_at = issued.created_at
        messages.warning(
            request,
            _("The new key, to copy now: it will not be shown again. %(key)s") % {"key": key},
        )


# -- The task queue (database backend): what waits, what runs, what failed and why --------------

admin.site.unregister(DBTaskResult)


@admin.register(DBTaskResult)
class JobAdmin(DBTaskResultAdmin):
    """The engine's own page of jobs, with the error of each failed run and which attempt it
    was (``core.jobs.job`` enqueues the next one with a later "run after")."""

    list_display: Any = (
        "task_name",
        "status",
        "attempt",
        "enqueued_at",
        "display_run_after",
        "finished_at",
        "last_error",
    )

    actions = ["run_now"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fields = list(super().get_readonly_fields(request, obj))
        fields[fields.index("args_kwargs")] = "arguments"
        return fields

    @admin.display(description=gettext_lazy("arguments"))
    def arguments(self, obj: DBTaskResult) -> str:
        """The job's arguments; a mail's as its addressees and subject only (its text may
        hold a personal link: a password reset's, an invitation's)."""
        if obj.task_path == mail_send.module_path:
            kwargs = obj.args_kwargs.get("kwargs", {})
            shown = {**kwargs, "message": mail_outline(kwargs.get("message", {}))}
            return json.dumps({"args": obj.args_kwargs.get("args", []), "kwargs": shown})
        return json.dumps(obj.args_kwargs)

    @admin.display(description=gettext_lazy("attempt"))
    def attempt(self, obj: DBTaskResult) -> int:
        return attempt_of(obj)

    def has_run_now_permission(self, request: HttpRequest) -> bool:
        # Viewing the jobs is enough to see them; asking for a run is the operator's.
        return bool(request.user.is_superuser)

    @admin.action(
        description=gettext_lazy("Run now (a waiting retry, or a job that gave up)"),
        permissions=["run_now"],
    )
    def run_now(self, request: HttpRequest, queryset: Any) -> None:
        done = jobs_run_now(ids=queryset.values_list("pk", flat=True))
        messages.success(
            request,
            _(
                "Runs at the worker's next look: %(hurried)d waiting, %(again)d asked for again; "
                "%(left)d left as they were (running, finished, or with their next attempt "
                "already waiting)."
            )
            % {"hurried": done.hurried, "again": done.again, "left": done.left},
        )

    @admin.display(description=gettext_lazy("last error"))
    def last_error(self, obj: DBTaskResult) -> str:
        lines = [line for line in obj.traceback.splitlines() if line.strip()]
        return lines[-1] if lines else ""


# -- Webhooks: staff see every delivery, the failed ones first among the filters ------------------


@admin.register(Webhook)
class WebhookAdmin(admin.ModelAdmin):
    list_display = ("url", "club", "scope", "active", "created_at")
    list_filter = ("active", "scope")
    search_fields = ("url", "club__name")
    exclude = ("secret",)


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = (
        "event",
        "webhook",
        "status",
        "attempts",
        "last_status_code",
        "last_error",
        "next_try_at",
        "created_at",
    )
    list_filter = ("status", "event")
    search_fields = ("webhook__url", "event_id")
    list_select_related = ("webhook",)
