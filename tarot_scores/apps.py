"""App config for the club domain: clubs, players, games, deals and their score lines."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TarotScoresConfig(AppConfig):
    name = "tarot_scores"
    verbose_name = _("Tarot scores")

    def ready(self) -> None:
        from axes.signals import user_locked_out
        from corsheaders.signals import check_request_enabled
        from django.contrib.auth import get_user_model
        from django.db.models.signals import pre_save

        from tarot_scores.api.cors import open_to_any_origin
        from tarot_scores.api.tokens import revoke_tokens_on_password_change
        from tarot_scores.clubs.home import home_clubs
        from tarot_scores.core.sections import on_home_page
        from tarot_scores.core.signin import lock_the_django_request
        from tarot_scores.games.home import home_open_games
        from tarot_scores.games.services import on_deal_change, on_scores_counted
        from tarot_scores.ratings.services import ratings_after_deal
        from tarot_scores.stats.services import stats_apply
        from tarot_scores.webhooks.events import deal_announce

        # The season statistics and the ratings follow every way a deal is written (game page,
        # table link, API), in its transaction; the games do not import the stats.
        on_scores_counted(stats_apply)
        on_deal_change(ratings_after_deal)
        # The webhooks hear of every deal change in its transaction (sent after the commit).
        on_deal_change(deal_announce)
        # A signed-in reader's home page: their clubs, then their open games (tournaments adds
        # today's events after them).
        on_home_page(home_clubs)
        on_home_page(home_open_games)
        # The API token view signs in through DRF's request: axes' answer must still reach it.
        user_locked_out.connect(lock_the_django_request, dispatch_uid="lock_the_django_request")
        # The public calculator and standings are readable from any origin (api.cors).
        check_request_enabled.connect(open_to_any_origin, dispatch_uid="open_to_any_origin")
        # A password changed or reset (not a hash upgraded at sign-in), an account deactivated
        # or reactivated: the account's API tokens are revoked.
        pre_save.connect(
            revoke_tokens_on_password_change,
            sender=get_user_model(),
            dispatch_uid="revoke_tokens_on_password_change",
        )
