"""The service's routers: scoring, photos, rules and health."""
