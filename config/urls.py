from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, include, path
from django.utils.translation import gettext_lazy
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts.login import (
    LockoutAdminAuthenticationForm,
    LockoutAuthenticationForm,
    with_refusal_status,
)
from config.health import healthz
from config.metrics import metrics
from games.pages.urls import urlpatterns as match_pages
from tournaments.pages.urls import urlpatterns as tournament_pages
from tournaments.views import home

api_v1: list[URLPattern | URLResolver] = [
    path("", include("games.api.urls")),
    path("", include("tournaments.api.urls")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-v1:schema"), name="docs"),
]

# The people's pages (scorers, players, the public), one namespace for both apps.
pages: list[URLPattern | URLResolver] = [*match_pages, *tournament_pages]

# The browsable API's sign-in and sign-out (DRF looks them up as `rest_framework:login` and
# `:logout`), for anybody with an account, with the admin's lockout.
api_session: list[URLPattern | URLResolver] = [
    path(
        "login/",
        with_refusal_status(
            auth_views.LoginView.as_view(
                template_name="rest_framework/login.html",
                authentication_form=LockoutAuthenticationForm,
            )
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]

urlpatterns = [
    path("", home, name="home"),
    path("", include((pages, "pages"))),
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics, name="metrics"),
    # Before the admin's own login route: the same view, answering 429 when sign-in is locked
    # or throttled (accounts/login.py).
    path("admin/login/", with_refusal_status(admin.site.login), name="admin-login"),
    path("admin/", admin.site.urls),
    path("api/v1/", include((api_v1, "api-v1"))),
    path("api-auth/", include((api_session, "rest_framework"))),
]

handler400 = "common.exceptions.bad_request"
handler403 = "common.exceptions.permission_denied"
handler404 = "common.exceptions.not_found"
handler500 = "common.exceptions.server_error"

admin.site.login_form = LockoutAdminAuthenticationForm
admin.site.site_header = gettext_lazy("Briscola tournaments")
admin.site.site_title = gettext_lazy("Briscola tournaments")
admin.site.index_title = gettext_lazy("Organizer's console")
