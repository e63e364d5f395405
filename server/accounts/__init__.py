"""Optional accounts: players who sign in (a passkey or a password) to come back as
themselves. Anyone still plays by link with a typed name; an account only adds a name
nobody else can take, a mark at the table, and the tables to return to.

Imports server.db and server.config only (the layers contract in pyproject.toml)."""
