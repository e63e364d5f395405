"""Cluster mode: several instances behind HAProxy, Redis for ownership, PostgreSQL journal.

Turned on by REDIS_URL. Each room is owned by at most one instance at a time (a Redis
lease, fenced by an epoch that PostgreSQL checks on every journal write).
"""
