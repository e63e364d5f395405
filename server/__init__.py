"""Coffee Rush Online: a self-hostable server for the board game Coffee Rush."""
