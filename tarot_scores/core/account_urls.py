"""django-allauth's pages the site uses, under /accounts/ beside Django's own sign-in pages.

Sign-up, the e-mail confirmation (the page that says a link was sent, and the link itself) and
the e-mail addresses of an account are allauth's. Signing in and out, the password reset and the
password change stay Django's pages (django-axes and the reset throttle guard them): allauth's
names for those (``account_login``...) are given to the same addresses, so allauth's own
redirects and links land on them.
"""

from allauth.account import views as allauth_views
from django.contrib.auth import views as auth_views
from django.urls import path, re_path

from tarot_scores.core.accounts import EmailView, SignInForm
from tarot_scores.core.signin import PasswordResetView

urlpatterns = [
    path("signup/", allauth_views.signup, name="account_signup"),
    path(
        "confirm-email/",
        allauth_views.email_verification_sent,
        name="account_email_verification_sent",
    ),
    re_path(
        r"^confirm-email/(?P<key>[-:\w]+)/$",
        allauth_views.confirm_email,
        name="account_confirm_email",
    ),
    path("email/", EmailView.as_view(), name="account_email"),
    # allauth's names for Django's pages (the first pattern of an address answers it).
    path(
        "login/",
        auth_views.LoginView.as_view(authentication_form=SignInForm),
        name="account_login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="account_logout"),
    path("password_reset/", PasswordResetView.as_view(), name="account_reset_password"),
    path(
        "password_change/",
        auth_views.PasswordChangeView.as_view(),
        name="account_change_password",
    ),
]
