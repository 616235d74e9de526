"""The project's configuration: settings, URLs, the ASGI and WSGI applications and the
Celery application (loaded with the tournaments app, whose tasks it runs).
"""
