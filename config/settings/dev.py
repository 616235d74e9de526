"""Local development: debug on, everything else from base."""

from config.settings.base import *  # noqa: F403
from config.settings.base import LOGGING, env

DEBUG = env.bool("DEBUG", default=True)

# Plain log lines at the developer's terminal; JSON lines everywhere else (base.py).
LOGGING["handlers"]["console"]["formatter"] = env("LOG_FORMAT", default="text")

# Webhooks to a receiver on this machine or the local network (never in production).
WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = env.bool("WEBHOOKS_ALLOW_PRIVATE_ADDRESSES", default=True)
