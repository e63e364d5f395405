"""How the app is put together (server/main.py's create_app): the services it runs
(services.py), their start and stop (lifespan.py), the guards in front of every route
(middleware.py) and the routes (routes.py). Nothing below imports this package."""
