"""The game server: ``milligan serve``, its JSON API and the browser game.

:func:`milligan.web.app.create_app` builds the application over a database
from :func:`milligan.store.open_database`.
"""
