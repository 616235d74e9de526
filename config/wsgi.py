"""The WSGI app: what the bench's gunicorn runs and the fault suite kills. The site is served by
uvicorn (config/asgi.py, decision 0051): under WSGI a live feed's asynchronous stream would be
read to its end before its first byte is sent."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
application = get_wsgi_application()
